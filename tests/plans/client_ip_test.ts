import assert from "node:assert/strict";
import { clientIp, rateLimitKey } from "../../lib/plans/client_ip.ts";

Deno.test("clientIp() uses the socket address when no proxy is trusted", () => {
  assert.equal(
    clientIp({ remoteAddr: "203.0.113.9", xForwardedFor: "198.51.100.1", trustedProxies: [] }),
    "203.0.113.9",
  );
});

Deno.test("clientIp() believes X-Forwarded-For only from a trusted proxy", async (t) => {
  const trustedProxies = ["10.0.0.0/8", "::1"];
  await t.step("trusted peer: rightmost untrusted hop", () => {
    const xForwardedFor = "1.1.1.1, 198.51.100.7, 10.1.2.3";
    assert.equal(
      clientIp({ remoteAddr: "10.0.0.2", xForwardedFor, trustedProxies }),
      "198.51.100.7",
    );
    assert.equal(clientIp({ remoteAddr: "::1", xForwardedFor, trustedProxies }), "198.51.100.7");
  });
  await t.step("untrusted peer: header ignored", () => {
    const xForwardedFor = "198.51.100.7";
    assert.equal(clientIp({ remoteAddr: "192.0.2.1", xForwardedFor, trustedProxies }), "192.0.2.1");
  });
  await t.step("garbage stops the walk at the last good hop", () => {
    const xForwardedFor = "198.51.100.7, not-an-ip, 10.9.9.9";
    assert.equal(clientIp({ remoteAddr: "10.0.0.2", xForwardedFor, trustedProxies }), "10.9.9.9");
  });
  await t.step("all hops trusted: the leftmost", () => {
    const xForwardedFor = "10.5.5.5, 10.6.6.6";
    assert.equal(clientIp({ remoteAddr: "10.0.0.2", xForwardedFor, trustedProxies }), "10.5.5.5");
  });
  await t.step("bracketed IPv6 and ports-free entries", () => {
    const xForwardedFor = "[2001:DB8::1]";
    assert.equal(
      clientIp({ remoteAddr: "10.0.0.2", xForwardedFor, trustedProxies }),
      "2001:db8::1",
    );
  });
});

Deno.test("clientIp() reports IPv4-mapped IPv6 peers as IPv4", () => {
  assert.equal(clientIp({ remoteAddr: "::ffff:192.0.2.44", trustedProxies: [] }), "192.0.2.44");
  assert.equal(clientIp({ remoteAddr: "::ffff:c000:22c", trustedProxies: [] }), "192.0.2.44");
  assert.equal(
    clientIp({
      remoteAddr: "::ffff:10.0.0.2",
      xForwardedFor: "198.51.100.3",
      trustedProxies: ["10.0.0.2"],
    }),
    "198.51.100.3",
  );
});

Deno.test("rateLimitKey() groups IPv6 by /64 and keeps IPv4 whole", () => {
  assert.equal(rateLimitKey("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
  assert.equal(rateLimitKey("2001:db8:1:2:ffff:ffff:ffff:ffff"), "2001:db8:1:2::/64");
  assert.notEqual(rateLimitKey("2001:db8:1:3::1"), rateLimitKey("2001:db8:1:2::1"));
  assert.equal(rateLimitKey("198.51.100.7"), "198.51.100.7");
  assert.equal(rateLimitKey("::ffff:198.51.100.7"), "198.51.100.7");
});
