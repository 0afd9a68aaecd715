import assert from "node:assert/strict";
import { addressRefusal, hostnameRefusal } from "../../lib/guard/policy.ts";
import { formatIp, parseIp } from "../../lib/guard/ip.ts";

const FORBIDDEN_V4 = [
  "0.0.0.0",
  "0.255.255.255",
  "10.0.0.1",
  "10.255.255.255",
  "100.64.0.1",
  "100.127.255.255",
  "127.0.0.1",
  "127.255.255.254",
  "169.254.169.254",
  "172.16.0.1",
  "172.31.255.255",
  "192.0.0.8",
  "192.0.2.1",
  "192.88.99.1",
  "192.168.1.1",
  "198.18.0.1",
  "198.19.255.255",
  "198.51.100.7",
  "203.0.113.9",
  "224.0.0.1",
  "239.255.255.250",
  "240.0.0.1",
  "255.255.255.255",
];

const PUBLIC_V4 = [
  "1.1.1.1",
  "8.8.8.8",
  "93.184.216.34",
  "100.63.255.255",
  "100.128.0.0",
  "172.15.255.255",
  "172.32.0.0",
  "192.0.1.1",
  "192.167.255.255",
  "192.169.0.0",
  "198.17.255.255",
  "198.20.0.0",
  "223.255.255.255",
  "126.255.255.255",
  "128.0.0.0",
];

const FORBIDDEN_V6 = [
  "::",
  "::1",
  "::ffff:127.0.0.1",
  "::ffff:7f00:1",
  "::ffff:10.1.2.3",
  "::ffff:169.254.169.254",
  "::127.0.0.1",
  "::8.8.8.8", // IPv4-compatible is deprecated: refused whatever it embeds
  "::ffff:0:7f00:1", // IPv4-translated
  "64:ff9b::7f00:1",
  "64:ff9b::10.0.0.1",
  "64:ff9b:1::8.8.8.8", // local-use NAT64: refused outright
  "100::1",
  "2001::1", // Teredo
  "2001:0:4136:e378:8000:63bf:3fff:fdd2", // Teredo with a public server
  "2001:10::1",
  "2001:db8::1",
  "2002:7f00:1::",
  "2002:a00:1::1",
  "2002:c0a8:101::",
  "3fff::1",
  "fc00::1",
  "fd12:3456:789a::1",
  "fe80::1",
  "febf::1",
  "fec0::1",
  "ff02::1",
  "ff05::1:3",
  "4000::1", // outside 2000::/3: reserved
  "1::1",
];

const PUBLIC_V6 = [
  "2606:4700:4700::1111",
  "2001:4860:4860::8888",
  "2a00:1450:4001:80b::200e",
  "::ffff:93.184.216.34",
  "64:ff9b::808:808",
  "2002:808:808::1",
  "2001:200::1",
];

Deno.test("addressRefusal() refuses every special-purpose IPv4 range", async (t) => {
  for (const ip of FORBIDDEN_V4) {
    await t.step(ip, () => assert.notEqual(addressRefusal(ip), null, `${ip} should be refused`));
  }
});

Deno.test("addressRefusal() allows public IPv4 next to the ranges", async (t) => {
  for (const ip of PUBLIC_V4) {
    await t.step(ip, () => assert.equal(addressRefusal(ip), null));
  }
});

Deno.test("addressRefusal() refuses special IPv6 and judges embedded IPv4", async (t) => {
  for (const ip of FORBIDDEN_V6) {
    await t.step(ip, () => assert.notEqual(addressRefusal(ip), null, `${ip} should be refused`));
  }
});

Deno.test("addressRefusal() allows public IPv6 and public embedded IPv4", async (t) => {
  for (const ip of PUBLIC_V6) {
    await t.step(ip, () => assert.equal(addressRefusal(ip), null));
  }
});

Deno.test("addressRefusal() explains the refusal", () => {
  assert.equal(addressRefusal("8.8.8.8"), null);
  assert.equal(addressRefusal("10.1.1.1")?.reason, "private (10.0.0.0/8)");
  assert.equal(
    addressRefusal("::ffff:127.0.0.1")?.reason,
    "IPv4-mapped 127.0.0.1: loopback (127.0.0.0/8)",
  );
  assert.equal(addressRefusal("2001::1")?.reason, "Teredo (2001::/32)");
  assert.equal(addressRefusal("[::1]")?.reason, "loopback (::1/128)");
});

Deno.test("addressRefusal() refuses text that is not a canonical IP", async (t) => {
  for (const text of ["", "localhost", "0x7f.1", "127.1", "2130706433", "0177.0.0.1", "::1%lo"]) {
    await t.step(JSON.stringify(text), () => {
      assert.equal(addressRefusal(text)?.reason, "not an IP address");
    });
  }
});

Deno.test("hostnameRefusal() refuses localhost names", async (t) => {
  for (const name of ["localhost", "LOCALHOST", "localhost.", "foo.localhost", "a.b.localhost."]) {
    await t.step(name, () => assert.equal(hostnameRefusal(name)?.reason, "a localhost name"));
  }
  for (const name of ["localhost.com", "mylocalhost", "example.com", "localhostx."]) {
    await t.step(name, () => assert.equal(hostnameRefusal(name), null));
  }
});

Deno.test("parseIp() and formatIp() round-trip canonical forms", () => {
  const cases: [string, string][] = [
    ["::", "::"],
    ["0:0:0:0:0:0:0:1", "::1"],
    ["2001:DB8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["::ffff:127.0.0.1", "::ffff:7f00:1"],
    ["1:0:0:2:0:0:0:3", "1:0:0:2::3"],
    ["fe80::", "fe80::"],
    ["1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"],
  ];
  for (const [input, canonical] of cases) {
    assert.equal(formatIp(parseIp(input)!), canonical, input);
  }
  for (
    const bad of [
      "1:2:3:4:5:6:7:8:9",
      "1::2::3",
      "12345::",
      "::ffff:1.2.3",
      "1.2.3.256",
      "01.2.3.4",
    ]
  ) {
    assert.equal(parseIp(bad), null, bad);
  }
});

Deno.test("addressRefusal() and hostnameRefusal() name the kind that feeds the metric", async (t) => {
  const cases: [string, string][] = [
    ["10.1.1.1", "private"],
    ["100.64.0.1", "private"],
    ["fd00::1", "private"],
    ["127.0.0.2", "loopback"],
    ["::1", "loopback"],
    ["169.254.169.254", "link_local"],
    ["fe80::1", "link_local"],
    ["239.255.255.250", "multicast"],
    ["ff02::1", "multicast"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
    ["198.51.100.1", "documentation"],
    ["2001:db8::1", "documentation"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "reserved"],
    ["2001::1", "reserved"],
    ["::ffff:10.0.0.1", "embedded_ipv4"],
    ["2002:7f00:1::1", "embedded_ipv4"],
    ["0x7f.1", "not_an_ip"],
  ];
  for (const [address, kind] of cases) {
    await t.step(`${address} is ${kind}`, () => {
      const refused = addressRefusal(address);
      assert.equal(refused?.kind, kind);
    });
  }
  assert.equal(addressRefusal("8.8.8.8"), null);
  assert.deepEqual(hostnameRefusal("Foo.LOCALHOST."), {
    kind: "localhost_name",
    reason: "a localhost name",
  });
  assert.equal(hostnameRefusal("example.com"), null);
});
