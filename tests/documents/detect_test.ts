/** The format of a document target: bytes first, then the declared type, then the extension. */
import assert from "node:assert/strict";
import { zipSync } from "fflate";
import { detectDocument } from "../../lib/documents/detect.ts";

const FIXTURES = new URL("../fixtures/documents/", import.meta.url);
const read = (name: string) => Deno.readFileSync(new URL(name, FIXTURES));
const text = (value: string) => new TextEncoder().encode(value);
const detect = (bytes: Uint8Array, contentType: string | null, url = "http://a.invalid/x") =>
  detectDocument({ bytes, contentType, url });

Deno.test("every fixture is known by its bytes alone, whatever it is served as", () => {
  for (const format of ["pdf", "docx", "xlsx", "pptx", "odt", "rtf", "epub"]) {
    assert.equal(detect(read(`sample.${format}`), "text/html"), format);
    assert.equal(detect(read(`sample.${format}`), null), format);
  }
});

Deno.test("a zip that is no supported document is not one, whatever its type says", () => {
  const ods = zipSync({
    mimetype: [text("application/vnd.oasis.opendocument.spreadsheet"), { level: 0 }],
    "content.xml": text("<x/>"),
  });
  assert.equal(detect(ods, "application/vnd.oasis.opendocument.text"), null);
  assert.equal(
    detect(zipSync({ "a.txt": text("a") }), "application/zip", "http://a.invalid/x.docx"),
    null,
  );
});

Deno.test("bytes that say nothing: the declared type, then the extension when it is generic", () => {
  const damaged = text("PK\x03\x04 not really a zip");
  assert.equal(detect(damaged, "application/vnd.oasis.opendocument.text"), "odt");
  assert.equal(detect(damaged, "application/octet-stream", "http://a.invalid/f.xlsx"), "xlsx");
  assert.equal(detect(damaged, null, "http://a.invalid/f.epub"), "epub");
  // A declared type that is not generic is believed over the extension.
  assert.equal(detect(text("<!doctype html>"), "text/html", "http://a.invalid/f.pdf"), null);
  assert.equal(detect(text("plain"), "text/plain", "http://a.invalid/f.docx"), null);
  assert.equal(detect(text("<!doctype html>"), "text/html"), null);
});
