/** The HTTP rules every part shares (lib/util/http.ts, lib/util/target_url.ts): one answer wherever asked. */
import assert from "node:assert/strict";
import { withUserinfo } from "../lib/api/visit_options.ts";
import { ApiError } from "../lib/util/errors.ts";
import { hopHeaders } from "../lib/fetch/headers.ts";
import { parseProxy } from "../lib/fetch/proxy_client.ts";
import { formatIp, parseIp, unmapV4 } from "../lib/guard/ip.ts";
import { basicAuth, isHopByHop, isReservedHeader, portOf } from "../lib/util/http.ts";
import { parseParams } from "../lib/params/mod.ts";
import { httpUrl, parseTargetUrl } from "../lib/util/target_url.ts";

const parse = (query: string) => parseParams(new URLSearchParams(query), { maxTimeoutMs: 28_000 });

Deno.test("a header the query refuses is one the fetcher would never send, and the other way round", () => {
  const names = [
    "host",
    "content-length",
    "transfer-encoding",
    "expect",
    "connection",
    "keep-alive",
    "te",
    "trailer",
    "upgrade",
    "proxy-authorization",
    "proxy-anything",
    "cookie",
    "accept-language",
    "x-custom",
  ];
  for (const name of names) {
    let refused = false;
    try {
      parse(`url=x&headers.${name}=1`);
    } catch (error) {
      assert.ok(error instanceof ApiError && error.code === "EINVALQUERY", name);
      assert.ok(error.message.includes(`headers.${name}`), error.message);
      refused = true;
    }
    const sent = name in hopHeaders({ userAgent: "t", headers: { [name]: "1" } });
    assert.equal(refused, isReservedHeader(name), name);
    assert.equal(sent, !refused, name);
  }
  // Hop-by-hop names are reserved too; framing headers are reserved but not hop-by-hop (a proxy
  // that pipes the body keeps them).
  assert.ok(isHopByHop("connection") && isReservedHeader("connection"));
  assert.ok(!isHopByHop("transfer-encoding") && isReservedHeader("transfer-encoding"));
});

Deno.test("the default port is the scheme's", () => {
  assert.equal(portOf(new URL("http://a.test/")), 80);
  assert.equal(portOf(new URL("https://a.test/")), 443);
  assert.equal(portOf(new URL("https://a.test:8443/")), 8443);
  assert.equal(portOf(new URL("http://a.test:443/")), 443);
});

Deno.test("Basic auth is built once: UTF-8, escapes decoded, a malformed escape sent as written", () => {
  assert.equal(basicAuth(new URL("http://a.test/")), null);
  assert.equal(
    basicAuth(new URL("http://J%C3%BCrgen:p%3Aw@a.test/")),
    `Basic ${btoa("J\u00c3\u00bcrgen:p:w")}`,
  );
  // A malformed escape used to throw URIError out of the browser's and the proxy's copies.
  const odd = new URL("http://%zz:pw@a.test/");
  assert.equal(basicAuth(odd), `Basic ${btoa("%zz:pw")}`);
  assert.deepEqual(withUserinfo({}, odd), { authorization: `Basic ${btoa("%zz:pw")}` });
  assert.equal(
    hopHeaders({ userAgent: "t", userinfo: odd }).authorization,
    `Basic ${btoa("%zz:pw")}`,
  );
  const proxy = parseProxy("http://%zz:pw@proxy.invalid:3128", (why) => new Error(why));
  assert.equal(proxy.authorization, `Basic ${btoa("%zz:pw")}`);
  assert.equal(proxy.url.username, "");
  // A caller's own Authorization wins over the URL's userinfo.
  assert.deepEqual(withUserinfo({ authorization: "Bearer x" }, odd), { authorization: "Bearer x" });
});

Deno.test("an IPv4-mapped IPv6 address reads as its IPv4 self, anything else as it is", () => {
  assert.equal(formatIp(unmapV4(parseIp("::ffff:192.0.2.1")!)), "192.0.2.1");
  assert.equal(formatIp(unmapV4(parseIp("2001:db8::1")!)), "2001:db8::1");
  assert.equal(formatIp(unmapV4(parseIp("192.0.2.1")!)), "192.0.2.1");
});

Deno.test("one parseTargetUrl for the query's url and every redirect", () => {
  const code = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return error instanceof ApiError ? `${error.code} ${error.message}` : String(error);
    }
    return "ok";
  };
  assert.equal(code(() => parseTargetUrl(null)), "EINVALURL The `url` parameter is required.");
  assert.equal(code(() => parseTargetUrl("foo")), "EINVALURL The URL `foo` is not a valid URL.");
  // Userinfo never reaches a message.
  assert.equal(
    code(() => parseTargetUrl("ftp://me:secret@a.test/")),
    "EINVALURL The URL `ftp://a.test/` must use http or https.",
  );
  const base = new URL("https://a.test/dir/page");
  assert.equal(parseTargetUrl("../next", base).href, "https://a.test/next");
  assert.equal(parseTargetUrl("", base).href, base.href); // an empty Location is the page itself
  assert.equal(code(() => parseTargetUrl("javascript:alert(1)", base)).slice(0, 9), "EINVALURL");
  assert.equal(httpUrl("mailto:a@b.test"), null);
  assert.equal(httpUrl("/x", "https://a.test/y")?.href, "https://a.test/x");
  assert.equal(httpUrl("/x", "not a base"), null);
});
