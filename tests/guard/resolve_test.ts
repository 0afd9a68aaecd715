import assert from "node:assert/strict";
import { DnsError, ipLiteral, systemResolver } from "../../lib/guard/resolve.ts";

Deno.test("systemResolver() answers IP literals without DNS, canonically", async () => {
  assert.deepEqual(await systemResolver("127.0.0.1"), ["127.0.0.1"]);
  assert.deepEqual(await systemResolver("[0:0:0:0:0:0:0:1]"), ["::1"]);
  assert.deepEqual(await systemResolver("::FFFF:7F00:1"), ["::ffff:7f00:1"]);
});

Deno.test("systemResolver() never asks DNS about special-use names", async (t) => {
  for (const name of ["nothing.invalid", "a.test", "x.example", "foo.localhost", "y.onion"]) {
    await t.step(name, async () => {
      await assert.rejects(systemResolver(name), (e: DnsError) => {
        assert.ok(e instanceof DnsError);
        assert.equal(e.hostname, name);
        assert.equal(e.reason, "special-use name");
        return true;
      });
    });
  }
});

Deno.test("systemResolver() reads /etc/hosts", async () => {
  // Only names from the hosts file, which getaddrinfo answers before any DNS query.
  const nsswitch = await Deno.readTextFile("/etc/nsswitch.conf").catch(() => "");
  const order = /^hosts:\s*(.*)$/m.exec(nsswitch)?.[1] ?? "";
  assert.ok(
    order.indexOf("files") >= 0 &&
      (order.indexOf("dns") < 0 || order.indexOf("files") < order.indexOf("dns")),
    `this test needs "files" before "dns" in /etc/nsswitch.conf hosts, got "${order}"`,
  );
  const hosts = await Deno.readTextFile("/etc/hosts");
  const entry = hosts.split("\n").map((l) => l.replace(/#.*/, "").trim().split(/\s+/))
    .find((f) => f[0] === "127.0.0.1" && f.slice(1).some((n) => !/localhost/.test(n)));
  assert.ok(entry, "this test needs a 127.0.0.1 entry other than localhost in /etc/hosts");
  const name = entry.slice(1).find((n) => !/localhost/.test(n))!;
  assert.deepEqual(await systemResolver(name), ["127.0.0.1"]);
});

Deno.test("ipLiteral() tells addresses from names", () => {
  assert.equal(ipLiteral("10.0.0.1"), "10.0.0.1");
  assert.equal(ipLiteral("[FE80::1]"), "fe80::1");
  assert.equal(ipLiteral("example.com"), null);
  assert.equal(ipLiteral("127.1"), null);
});
