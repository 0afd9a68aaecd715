import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { testApp, testConfig } from "./_fixtures.ts";

Deno.test("text answers are gzipped when the client accepts it, small ones are not", async (t) => {
  await using app = await testApp(testConfig());
  const get = (path: string, encoding?: string) =>
    app.handler(
      new Request(`http://localhost${path}`, {
        headers: encoding ? { "accept-encoding": encoding } : {},
      }),
    );

  await t.step("a large JSON body is gzipped and decodes to the same document", async () => {
    const plain = await (await get("/openapi.json")).text();
    const response = await get("/openapi.json", "br, gzip;q=0.8");
    assert.equal(response.headers.get("content-encoding"), "gzip");
    assert.match(response.headers.get("vary")!, /Accept-Encoding/);
    const zipped = new Uint8Array(await response.arrayBuffer());
    assert.ok(zipped.length < plain.length / 3, `${zipped.length} vs ${plain.length}`);
    assert.equal(new TextDecoder().decode(gunzipSync(zipped)), plain);
  });
  await t.step("not without Accept-Encoding, nor with gzip;q=0", async () => {
    for (const encoding of [undefined, "gzip;q=0", "identity"]) {
      const response = await get("/openapi.json", encoding);
      assert.equal(response.headers.get("content-encoding"), null);
      JSON.parse(await response.text());
    }
  });
  await t.step("a small error envelope is sent as it is", async () => {
    const response = await get("/?url=foo", "gzip");
    assert.equal(response.headers.get("content-encoding"), null);
    assert.equal((await response.json()).code, "EINVALURL");
    assert.equal(response.headers.get("vary"), "Accept, Accept-Encoding");
  });
});
