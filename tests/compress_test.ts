import assert from "node:assert/strict";
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from "node:zlib";
import { encode, preferredEncoding } from "../lib/util/compress.ts";
import { testApp, testConfig } from "./_fixtures.ts";

Deno.test("text answers are compressed as the client prefers, small ones are not", async (t) => {
  await using app = await testApp(testConfig());
  const get = (path: string, encoding?: string) =>
    app.handler(
      new Request(`http://localhost${path}`, {
        headers: encoding ? { "accept-encoding": encoding } : {},
      }),
    );

  await t.step("br when the client prefers it (or ties), as Microlink answers", async () => {
    const plain = await (await get("/openapi.json")).text();
    for (const encoding of ["br, gzip;q=0.8", "gzip, deflate, br", "*"]) {
      const response = await get("/openapi.json", encoding);
      assert.equal(response.headers.get("content-encoding"), "br", encoding);
      const packed = new Uint8Array(await response.arrayBuffer());
      assert.ok(packed.length < plain.length / 3, `${packed.length} vs ${plain.length}`);
      assert.equal(new TextDecoder().decode(brotliDecompressSync(packed)), plain);
    }
  });
  await t.step("a large JSON body is gzipped and decodes to the same document", async () => {
    const plain = await (await get("/openapi.json")).text();
    const response = await get("/openapi.json", "br;q=0.5, gzip;q=0.8");
    assert.equal(response.headers.get("content-encoding"), "gzip");
    assert.match(response.headers.get("vary")!, /Accept-Encoding/);
    const zipped = new Uint8Array(await response.arrayBuffer());
    assert.ok(zipped.length < plain.length / 3, `${zipped.length} vs ${plain.length}`);
    assert.equal(new TextDecoder().decode(gunzipSync(zipped)), plain);
  });
  await t.step("not without Accept-Encoding, nor with gzip;q=0", async () => {
    for (const encoding of [undefined, "gzip;q=0", "identity", "br;q=0, gzip;q=0", "*;q=0"]) {
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

Deno.test("preferredEncoding() reads q-values: br on a tie, gzip when br is refused", () => {
  const prefer = (header: string) =>
    preferredEncoding(new Request("http://localhost/", { headers: { "accept-encoding": header } }));
  assert.equal(prefer("gzip"), "gzip");
  assert.equal(prefer("br"), "br");
  assert.equal(prefer("gzip, br"), "br");
  assert.equal(prefer("br;q=0, *"), "gzip");
  assert.equal(prefer("deflate"), null);
  assert.equal(prefer("gzip;q=abc"), null);
});

/** The window a Brotli stream announces in its first bits (RFC 7932, section 9.1). */
function announcedWindowBits(stream: Uint8Array): number {
  let bit = 0;
  const read = (n: number) => {
    let value = 0;
    for (let i = 0; i < n; i++, bit++) value |= ((stream[bit >> 3]! >> (bit & 7)) & 1) << i;
    return value;
  };
  if (read(1) === 0) return 16;
  const n = read(3);
  if (n !== 0) return 17 + n;
  const m = read(3);
  return m === 0 ? 17 : 8 + m;
}

Deno.test("Brotli answers announce a window no bigger than they need, and compress as well", () => {
  const text = (size: number) =>
    new TextEncoder().encode("linkpeek reads pages. ".repeat(size / 22 + 1).slice(0, size));
  for (const size of [1024, 20_000, 262_128, 262_129, 400_000]) {
    const bytes = text(size);
    assert.equal(bytes.length, size);
    const packed = encode(bytes, "br");
    const bits = announcedWindowBits(packed);
    // A decoder sets aside the window it is told: 4 MB by default, for any answer. Quality 1
    // never goes under 18 bits.
    assert.ok((1 << bits) - 16 >= size, `${size}: ${bits} bits`);
    assert.ok(bits === 18 || (1 << (bits - 1)) - 16 < size, `${size}: ${bits} bits`);
    assert.deepEqual(new Uint8Array(brotliDecompressSync(packed)), bytes);
    const wide = brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_MODE]: 1 },
    });
    assert.equal(announcedWindowBits(new Uint8Array(wide)), 22);
    assert.ok(packed.length <= wide.length, `${size}: ${packed.length} vs ${wide.length}`);
  }
});
