import assert from "node:assert/strict";
import { mediaDuration, mp4MoovOffset } from "../../lib/media/duration/mod.ts";
import * as fx from "./_fixtures.ts";

function near(actual: number | null, expected: number, label = "") {
  assert.ok(actual !== null, `${label}: expected ~${expected}s, got null`);
  assert.ok(Math.abs(actual - expected) < 0.1, `${label}: expected ~${expected}s, got ${actual}`);
}

const PREFIX = 65536;

Deno.test("mediaDuration() reads MP3 durations", async (t) => {
  await t.step("CBR from bitrate and total size, ID3 tag excluded", () => {
    const file = fx.mp3Cbr(500, 5000); // 500 x 417 bytes at 128 kbit/s
    const expected = (500 * 417 * 8) / 128000;
    near(mediaDuration({ bytes: file.subarray(0, PREFIX), totalSize: file.length }), expected);
  });
  await t.step("CBR without a total size is unknown", () => {
    assert.equal(mediaDuration({ bytes: fx.mp3Cbr(20), totalSize: null }), null);
  });
  for (const header of ["Xing", "Info", "VBRI"] as const) {
    await t.step(`${header} frame count wins over size`, () => {
      const file = fx.mp3Vbr(2000, header); // 2000 x 1152 samples at 44.1 kHz
      near(mediaDuration({ bytes: file, totalSize: 10_000_000 }), (2000 * 1152) / 44100, header);
    });
  }
});

Deno.test("mediaDuration() reads MP4 mvhd", async (t) => {
  await t.step("version 0, moov first", () => {
    near(mediaDuration({ bytes: fx.mp4({ timescale: 1000, duration: 12345 }) }), 12.345);
  });
  await t.step("version 1 (64-bit)", () => {
    const file = fx.mp4({ timescale: 90000, duration: 90000 * 3725.5, version: 1 });
    near(mediaDuration({ bytes: file }), 3725.5);
  });
  await t.step("M4A by brand", () => {
    const file = fx.mp4({ timescale: 44100, duration: 44100 * 61, brand: "M4A " });
    near(mediaDuration({ bytes: file }), 61);
  });
  await t.step("moov after a large mdat: null from the prefix, found at mp4MoovOffset", () => {
    const file = fx.mp4({ timescale: 600, duration: 600 * 42, moovLast: true, mdatBytes: 200_000 });
    const prefix = file.subarray(0, PREFIX);
    assert.equal(mediaDuration({ bytes: prefix, totalSize: file.length }), null);
    const offset = mp4MoovOffset(prefix, file.length);
    assert.ok(offset !== null && offset > PREFIX, `offset ${offset}`);
    near(mediaDuration({ bytes: file.subarray(offset, offset + PREFIX), type: "mp4" }), 42);
  });
  await t.step("mp4MoovOffset() is null when the prefix holds moov", () => {
    const file = fx.mp4({ timescale: 600, duration: 600 });
    assert.equal(mp4MoovOffset(file, file.length), null);
  });
});

Deno.test("mediaDuration() reads WebM Segment Info Duration", async (t) => {
  await t.step("default TimecodeScale (ms), float64", () => {
    near(mediaDuration({ bytes: fx.webm({ duration: 8123 }) }), 8.123);
  });
  await t.step("explicit TimecodeScale, float32", () => {
    // 100 us ticks: 123456 ticks = 12.3456 s
    near(
      mediaDuration({
        bytes: fx.webm({ duration: 123456, timecodeScale: 100_000, float32: true }),
      }),
      12.3456,
    );
  });
  await t.step("truncated before Info is unknown", () => {
    assert.equal(mediaDuration({ bytes: fx.webm({ duration: 8123 }).subarray(0, 60) }), null);
  });
});

Deno.test("mediaDuration() reads Ogg durations", async (t) => {
  await t.step("Vorbis: last granule over sample rate, whole file", () => {
    const file = fx.ogg({ codec: "vorbis", rate: 44100, lastGranule: 44100 * 10 });
    near(mediaDuration({ bytes: file, totalSize: file.length }), 10);
  });
  await t.step("Opus: granule minus pre-skip over 48 kHz, from the tail", () => {
    const file = fx.ogg({ codec: "opus", preSkip: 312, lastGranule: 48000 * 5 + 312, pages: 30 });
    const prefix = file.subarray(0, 4096);
    const tail = file.subarray(file.length - 8192);
    assert.equal(mediaDuration({ bytes: prefix, totalSize: file.length }), null);
    near(mediaDuration({ bytes: prefix, totalSize: file.length, tail }), 5);
  });
  await t.step("Vorbis prefix only: estimate from nominal bitrate and size", () => {
    const file = fx.ogg({ codec: "vorbis", nominalBitrate: 128000, lastGranule: 1 });
    near(mediaDuration({ bytes: file.subarray(0, 100), totalSize: 160_000 }), 10);
  });
});

Deno.test("mediaDuration() reads WAV data size over byte rate", async (t) => {
  await t.step("sized data chunk after a LIST chunk", () => {
    const file = fx.wav(3.25);
    near(mediaDuration({ bytes: file.subarray(0, PREFIX), totalSize: file.length }), 3.25);
  });
  await t.step("streamed (size 0xffffffff) uses the total size", () => {
    const file = fx.wav(2, { streamed: true });
    near(mediaDuration({ bytes: file.subarray(0, PREFIX), totalSize: file.length }), 2);
    assert.equal(mediaDuration({ bytes: file.subarray(0, PREFIX), totalSize: null }), null);
  });
});

Deno.test("mediaDuration() reads FLAC STREAMINFO", () => {
  near(mediaDuration({ bytes: fx.flac(96000, 96000 * 200 + 48000) }), 200.5);
});

Deno.test("mediaDuration() returns null for images, garbage and empty input", () => {
  assert.equal(mediaDuration({ bytes: fx.png(2, 2), totalSize: 100 }), null);
  assert.equal(mediaDuration({ bytes: fx.latin1("RIFF\0\0\0\0WAVEjunk"), totalSize: 100 }), null);
  assert.equal(mediaDuration({ bytes: new Uint8Array(), type: "mp3", totalSize: 100 }), null);
});
