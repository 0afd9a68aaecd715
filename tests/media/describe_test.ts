import assert from "node:assert/strict";
import { describeMedia } from "../../lib/media/describe.ts";
import * as fx from "./_fixtures.ts";

Deno.test("describeMedia() fills type, size and dimensions for an image", () => {
  const bytes = fx.png(1200, 630);
  assert.deepEqual(
    describeMedia({
      url: "https://a.example/og.png",
      bytes,
      contentType: "image/png",
      totalSize: 48213,
    }),
    {
      url: "https://a.example/og.png",
      type: "png",
      size: 48213,
      size_pretty: "48.2 kB",
      width: 1200,
      height: 630,
    },
  );
});

Deno.test("describeMedia() adds duration for audio", () => {
  const file = fx.wav(4);
  const media = describeMedia({
    url: "https://a.example/a",
    bytes: file.subarray(0, 65536),
    contentType: "audio/wav",
    totalSize: file.length,
  });
  assert.equal(media.type, "wav");
  assert.equal(media.duration, 4);
  assert.equal(media.duration_pretty, "4s");
  assert.equal(media.width, null);
});

Deno.test("describeMedia() keeps unknown members null after a HEAD (no bytes)", () => {
  assert.deepEqual(
    describeMedia({
      url: "https://a.example/v.mp4",
      bytes: new Uint8Array(),
      contentType: "video/mp4",
      totalSize: null,
    }),
    {
      url: "https://a.example/v.mp4",
      type: "mp4",
      size: null,
      size_pretty: null,
      width: null,
      height: null,
      duration: null,
      duration_pretty: null,
    },
  );
});

Deno.test("describeMedia() trusts bytes over a wrong content type", () => {
  const media = describeMedia({
    url: "https://a.example/x.jpg",
    bytes: fx.gif(5, 6),
    contentType: "image/jpeg",
    totalSize: 999,
  });
  assert.deepEqual([media.type, media.width, media.height, media.size_pretty], [
    "gif",
    5,
    6,
    "999 B",
  ]);
});
