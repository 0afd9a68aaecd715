import assert from "node:assert/strict";
import {
  kindOfType,
  sniffMedia,
  typeFromBytes,
  typeFromContentType,
  typeFromUrl,
} from "../../lib/media/sniff.ts";
import * as fx from "./_fixtures.ts";

Deno.test("typeFromBytes() names each format by its magic bytes", () => {
  const cases: [Uint8Array, string][] = [
    [fx.png(2, 2), "png"],
    [fx.jpeg(8, 8), "jpg"],
    [fx.gif(4, 4), "gif"],
    [fx.webp("VP8L", 10, 10), "webp"],
    [fx.svg('width="10" height="10"'), "svg"],
    [fx.ico([[16, 16]]), "ico"],
    [fx.bmp(3, 3), "bmp"],
    [fx.avif(10, 10), "avif"],
    [fx.mp3Cbr(3), "mp3"],
    [fx.mp3Cbr(3, 0).subarray(10), "mp3"], // a bare frame, no ID3 tag
    [fx.wav(0.1), "wav"],
    [fx.flac(44100, 100), "flac"],
    [fx.ogg({ codec: "vorbis", lastGranule: 10 }), "ogg"],
    [fx.ogg({ codec: "opus", lastGranule: 10 }), "opus"],
    [fx.webm({ duration: 1000 }), "webm"],
    [fx.mp4({ timescale: 1000, duration: 1 }), "mp4"],
    [fx.mp4({ timescale: 1000, duration: 1, brand: "M4A " }), "m4a"],
    [fx.mp4({ timescale: 1000, duration: 1, brand: "qt  " }), "mov"],
    [fx.latin1("%PDF-1.7\n"), "pdf"],
  ];
  for (const [bytes, type] of cases) assert.equal(typeFromBytes(bytes), type, type);
});

Deno.test("typeFromBytes() returns null for HTML and empty input", () => {
  assert.equal(typeFromBytes(fx.latin1("<!doctype html><html><body><svg></svg>")), null);
  assert.equal(typeFromBytes(new Uint8Array()), null);
  assert.equal(typeFromBytes(fx.latin1("hello world")), null);
});

Deno.test("typeFromContentType() ignores parameters and case", () => {
  assert.equal(typeFromContentType("Image/JPEG; charset=binary"), "jpg");
  assert.equal(typeFromContentType("audio/x-m4a"), "m4a");
  assert.equal(typeFromContentType("image/vnd.microsoft.icon"), "ico");
  assert.equal(typeFromContentType("application/octet-stream"), null);
  assert.equal(typeFromContentType(null), null);
});

Deno.test("typeFromUrl() reads the path extension only", () => {
  assert.equal(typeFromUrl("https://a.example/x/photo.JPEG?w=1#y"), "jpg");
  assert.equal(typeFromUrl("https://a.example/song.mp3"), "mp3");
  assert.equal(typeFromUrl("https://a.example/page.html"), null);
  assert.equal(typeFromUrl("https://a.example/x?file=a.png"), null);
  assert.equal(typeFromUrl("not a url"), null);
});

Deno.test("sniffMedia() prefers bytes, then content type, then extension", () => {
  assert.deepEqual(
    sniffMedia({ bytes: fx.png(1, 1), contentType: "image/jpeg", url: "https://a.example/a.gif" }),
    { type: "png", kind: "image" },
  );
  assert.deepEqual(
    sniffMedia({
      bytes: new Uint8Array(),
      contentType: "video/mp4",
      url: "https://a.example/a.gif",
    }),
    { type: "mp4", kind: "video" },
  );
  assert.deepEqual(
    sniffMedia({ contentType: "application/octet-stream", url: "https://a.example/a.flac" }),
    { type: "flac", kind: "audio" },
  );
  assert.deepEqual(sniffMedia({ url: "https://a.example/" }), { type: null, kind: "other" });
  assert.equal(kindOfType("pdf"), "pdf");
});
