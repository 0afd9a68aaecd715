/** `function` payloads as Microlink's clients send them: plain, br#, gz#, lz#; bounded. */
import assert from "node:assert/strict";
import { brotliCompressSync, gzipSync } from "node:zlib";
import LZString from "lz-string";
import {
  functionSource,
  MAX_FUNCTION_SOURCE,
  requiredModule,
} from "../../lib/params/function_code.ts";
import { ApiError } from "../../lib/util/errors.ts";

const CODE = "({ page }) => page.title()";
const invalidFunction = (pattern: RegExp) => (error: unknown) =>
  error instanceof ApiError && error.code === "EINVALFUNCTION" && error.status === 400 &&
  pattern.test(error.message);

Deno.test("functionSource() decodes each alias and checks syntax", () => {
  assert.equal(functionSource(CODE), CODE);
  assert.equal(functionSource(`br#${brotliCompressSync(CODE).toString("base64url")}`), CODE);
  assert.equal(functionSource(`gz#${gzipSync(CODE).toString("base64")}`), CODE);
  assert.equal(functionSource(`lz#${LZString.compressToEncodedURIComponent(CODE)}`), CODE);
  assert.throws(() => functionSource("() => {{{"), invalidFunction(/syntax error/));
  assert.throws(
    () => functionSource(`gz#${gzipSync("() => {").toString("base64url")}`),
    invalidFunction(/syntax error/),
  );
});

Deno.test("functionSource() refuses broken and oversized payloads", () => {
  for (const bad of ["br#", "br#!!!!", "gz#AAAA", "lz#", `br#${"A".repeat(100)}`]) {
    assert.throws(
      () => functionSource(bad),
      invalidFunction(/not a valid (br|gz|lz) payload/),
      bad,
    );
  }
  // A bomb: 64 MiB of spaces in ~65 KB of gzip never reaches memory whole.
  const bomb = gzipSync(new Uint8Array(64 * 1024 * 1024).fill(32), { level: 9 });
  assert.throws(
    () => functionSource(`gz#${bomb.toString("base64url")}`),
    invalidFunction(/more than 256 KiB/),
  );
  const long = `() => ${JSON.stringify("x".repeat(MAX_FUNCTION_SOURCE))}`;
  assert.throws(
    () => functionSource(`br#${brotliCompressSync(long).toString("base64url")}`),
    invalidFunction(/not a valid br payload|longer than/),
  );
});

Deno.test("functionSource() refuses code that loads npm packages, naming the package", () => {
  const refused = {
    "() => require('cheerio')": "cheerio",
    '() => { const { kebabCase } = require("lodash@4.17.21"); return 1 }': "lodash@4.17.21",
    "async () => (await import('npm:cheerio')).load": "npm:cheerio",
    "() => import(`node:fs`)": "node:fs",
  };
  for (const [source, name] of Object.entries(refused)) {
    assert.equal(requiredModule(source), name, source);
    assert.throws(
      () => functionSource(source),
      invalidFunction(new RegExp(`"${name}".*nothing is installed`)),
      source,
    );
  }
  // Modules the page loads are the page's business: not refused.
  const inPage = `({ page }) => page.evaluate(() => import("https://cdn.example.invalid/x.js"))`;
  assert.equal(functionSource(inPage), inPage);
});
