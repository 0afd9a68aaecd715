import assert from "node:assert/strict";
import { isApiError } from "../../lib/util/errors.ts";
import { readOembedRequest } from "../../lib/oembed_endpoint/request.ts";
import { DISCOVERY_QUERY } from "../../lib/oembed_endpoint/target_embed.ts";

const read = (query: string) => readOembedRequest(new URL(`http://lp.example/oembed?${query}`));

function refused(query: string): { status: number; code: string; message: string } {
  try {
    read(query);
  } catch (error) {
    assert.ok(isApiError(error));
    return { status: error.status, code: error.code, message: error.message };
  }
  throw new Error(`${query} was accepted`);
}

Deno.test("readOembedRequest() reads the oEmbed parameters", async (t) => {
  await t.step("defaults: json, no limits, no link", () => {
    const request = read("url=https%3A%2F%2Fa.example%2F");
    assert.deepEqual(
      [request.format, request.maxWidth, request.maxHeight, request.link],
      ["json", null, null, false],
    );
  });
  await t.step("sizes, XML in any case, type=link", () => {
    const request = read("url=x&maxwidth=%20640%20&maxheight=480&format=XML&type=Link");
    assert.deepEqual(
      [request.format, request.maxWidth, request.maxHeight, request.link],
      ["xml", 640, 480, true],
    );
    assert.deepEqual([read("url=x&maxwidth=").maxWidth, read("url=x&format=").format], [
      null,
      "json",
    ]);
  });
  await t.step("a size that is not 1-10000 whole pixels is EINVALQUERY naming it", () => {
    for (const value of ["0", "-1", "1.5", "10001", "abc", "1e3", "99999999999"]) {
      const error = refused(`url=x&maxwidth=${value}`);
      assert.equal(error.status, 400, value);
      assert.equal(error.code, "EINVALQUERY");
      assert.match(error.message, /`maxwidth`/);
    }
    assert.match(refused("url=x&maxheight=tall").message, /`maxheight`/);
  });
  await t.step("an unknown format is 501 with the API's EINVALQUERY", () => {
    const error = refused("url=x&format=yaml");
    assert.deepEqual([error.status, error.code], [501, "EINVALQUERY"]);
    assert.match(error.message, /`format` must be json or xml, got "yaml"/);
  });
  await t.step("type asks for link only", () => {
    const error = refused("url=x&type=video");
    assert.deepEqual([error.status, error.code], [400, "EINVALQUERY"]);
  });
});

Deno.test("readOembedRequest() builds the API query the pipeline runs", async (t) => {
  const request = read(
    [
      "url=https%3A%2F%2Fa.example%2Fp",
      "maxwidth=500",
      "format=xml",
      "type=link",
      "headers.x-api-key=lp_secret",
      "headers.cookie=a%3Db",
      "ttl=1h",
      "stale_ttl=0",
      "force",
      "prerender=false",
      "timeout=5s",
      "embed=image.url",
      "filter=title",
      "screenshot",
      "element=%23main",
      "meta=false",
      "data.x.selector=p",
      "iframe",
      "signature=k.mac",
    ].join("&"),
  );
  const names = [...request.query.searchParams.keys()];

  await t.step("the target, its headers and the cache and fetch controls pass", () => {
    assert.deepEqual(names.slice(0, 9), [
      "url",
      "headers.x-api-key",
      "headers.cookie",
      "ttl",
      "stale_ttl",
      "force",
      "prerender",
      "timeout",
      ...[DISCOVERY_QUERY[0]![0]],
    ]);
    assert.equal(request.query.searchParams.get("url"), "https://a.example/p");
    assert.equal(request.query.pathname, "/oembed");
  });
  await t.step(
    "what would change the payload's shape does not; the discovery rule is added",
    () => {
      for (const name of ["embed", "filter", "screenshot", "element", "meta", "iframe", "type"]) {
        assert.ok(!names.includes(name), name);
      }
      assert.ok(!names.includes("data.x.selector"));
      for (const [name, value] of DISCOVERY_QUERY) {
        assert.equal(request.query.searchParams.get(name), value);
      }
    },
  );
  await t.step("the cache scope follows the sizes asked of the provider, not the format", () => {
    assert.equal(request.cacheScope, read("url=x&maxwidth=500&format=json").cacheScope);
    assert.notEqual(request.cacheScope, read("url=x&maxwidth=501").cacheScope);
    assert.notEqual(read("url=x").cacheScope, read("url=x&maxheight=500").cacheScope);
  });
});
