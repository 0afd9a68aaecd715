import assert from "node:assert/strict";
import { isTrusted, parseTrustedTargets } from "../../lib/guard/trusted.ts";

Deno.test("parseTrustedTargets() reads ip, cidr, bracketed IPv6 and * ports", () => {
  assert.deepEqual(
    parseTrustedTargets(
      " 127.0.0.1:8080, 10.0.0.0/8:*,[::1]:9000,[FD00:0:0::]/8:443,[fe80::/10]:*",
    ),
    [
      { network: "127.0.0.1", prefix: 32, port: 8080 },
      { network: "10.0.0.0", prefix: 8, port: null },
      { network: "::1", prefix: 128, port: 9000 },
      { network: "fd00::", prefix: 8, port: 443 },
      { network: "fe80::", prefix: 10, port: null },
    ],
  );
  assert.deepEqual(parseTrustedTargets(""), []);
  assert.deepEqual(parseTrustedTargets(" , "), []);
});

Deno.test("parseTrustedTargets() rejects bad entries naming them", async (t) => {
  const cases = [
    "127.0.0.1",
    "127.0.0.1:",
    "127.0.0.1:0",
    "127.0.0.1:70000",
    "127.0.0.1:http",
    "::1:80",
    "[::1]",
    "10.0.0.0/33:80",
    "10.0.0.0/8/8:80",
    "localhost:80",
    "0x7f.1:80",
    "[::1]/129:80",
    "[127.0.0.1]:80",
  ];
  for (const entry of cases) {
    await t.step(entry, () => {
      assert.throws(
        () => parseTrustedTargets(`127.0.0.1:1,${entry}`),
        (e: Error) => e.message.includes(`"${entry}"`),
      );
    });
  }
});

Deno.test("isTrusted() matches address ranges and ports", () => {
  const list = parseTrustedTargets("127.0.0.1:8080,10.0.0.0/8:*,[fd00::]/8:443");
  assert.equal(isTrusted("127.0.0.1", 8080, list), true);
  assert.equal(isTrusted("127.0.0.1", 8081, list), false);
  assert.equal(isTrusted("127.0.0.2", 8080, list), false);
  assert.equal(isTrusted("10.255.1.2", 1, list), true);
  assert.equal(isTrusted("11.0.0.1", 1, list), false);
  assert.equal(isTrusted("fdab::1", 443, list), true);
  assert.equal(isTrusted("fdab::1", 80, list), false);
  assert.equal(isTrusted("fe80::1", 443, list), false);
  // A mapped IPv4 address is its IPv4 self.
  assert.equal(isTrusted("::ffff:127.0.0.1", 8080, list), true);
  assert.equal(isTrusted("not-an-ip", 8080, list), false);
  assert.equal(isTrusted("127.0.0.1", 8080, []), false);
});
