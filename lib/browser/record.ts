/**
 * `screenshot.animated`: a short video of the page from navigation on. Chromium's screencast
 * sends the tab's frames as JPEG; each is drawn, as it arrives, on a canvas in a blank tab of
 * the same context, whose stream Chromium's own MediaRecorder encodes (WebM VP9 or MP4 H.264).
 * No encoder runs in linkpeek's process, and the blank tab loads nothing.
 */
import type { CDPSession, Page } from "puppeteer-core";
import type { TabOpener } from "./popup_guard.ts";
import type { Deadline } from "../util/deadline.ts";
import { ApiError } from "../util/errors.ts";

export interface AnimatedOptions {
  /** Milliseconds of recording (default 5000, at most 10000). */
  duration?: number;
  fps?: number;
  type?: "mp4" | "webm";
}

export interface RecordedVideo {
  bytes: Uint8Array;
  type: "mp4" | "webm";
  codec: string;
  durationMs: number;
  fps: number;
  width: number;
  height: number;
}

export interface Recording {
  /** Waits until the duration has passed since the start, then returns the encoded video. */
  finish(): Promise<RecordedVideo>;
}

const CODECS = { mp4: "avc1.42E01E", webm: "vp9" } as const;

/** Starts recording `page` (call it before navigating); frames arrive as the tab paints. */
export async function startRecording(
  page: Page,
  job: { options: AnimatedOptions; context: TabOpener; deadline: Deadline },
): Promise<Recording> {
  const { deadline } = job;
  const type = job.options.type ?? "mp4";
  const fps = job.options.fps ?? 30;
  const durationMs = Math.min(job.options.duration ?? 5000, deadline.remaining(3000));
  const codec = CODECS[type];
  const viewport = page.viewport() ?? { width: 1280, height: 800 };
  // A window of its own: each window is visible, so both tabs keep painting and ticking.
  const encoder = await deadline.run(job.context.newPage({ type: "window" }));
  await deadline.run(encoder.evaluate(ENCODER));
  const started = await deadline.run(encoder.evaluate(
    (o) => (globalThis as InTab).encoder.start(o) as boolean,
    {
      mimeType: `video/${type};codecs=${codec}`,
      width: viewport.width,
      height: viewport.height,
      fps,
    },
  ));
  if (!started) {
    await encoder.close().catch(() => {});
    throw new ApiError("EBROWSER", `This Chromium cannot record video/${type}.`);
  }
  const session: CDPSession = await deadline.run(page.createCDPSession());
  // Frames are drawn in arrival order, each acknowledged once drawn: Chromium sends the next
  // only then, so frames never pile up faster than the encoder takes them. A draw that fails
  // (the tab closing) ends nothing else.
  let drawn: Promise<unknown> = Promise.resolve();
  session.on("Page.screencastFrame", (frame) => {
    drawn = drawn.then(() =>
      encoder.evaluate((data) => (globalThis as InTab).encoder.draw(data), frame.data)
    ).catch(() => {}).then(() =>
      session.send("Page.screencastFrameAck", { sessionId: frame.sessionId }).catch(() => {})
    );
  });
  await deadline.run(session.send("Page.startScreencast", {
    format: "jpeg",
    quality: 80,
    maxWidth: viewport.width,
    maxHeight: viewport.height,
  }));
  const startedAt = Date.now();
  return {
    async finish() {
      try {
        const left = durationMs - (Date.now() - startedAt);
        if (left > 0) await deadline.run(new Promise((done) => setTimeout(done, left)));
        await session.send("Page.stopScreencast").catch(() => {});
        await drawn;
        const base64 = await deadline.run(
          encoder.evaluate(() => (globalThis as InTab).encoder.stop() as Promise<string>),
        );
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        return { bytes, type, codec, durationMs, fps, ...viewport };
      } finally {
        await session.detach().catch(() => {});
        await encoder.close().catch(() => {});
      }
    },
  };
}

/** The encoder tab's code, as a string: linkpeek's own type-checking has no DOM library. */
const ENCODER = `globalThis.encoder = {
  start(o) {
    if (!MediaRecorder.isTypeSupported(o.mimeType)) return false;
    const canvas = document.createElement("canvas");
    canvas.width = o.width;
    canvas.height = o.height;
    const context = canvas.getContext("2d");
    context.fillStyle = "#fff";
    context.fillRect(0, 0, o.width, o.height);
    document.body.append(canvas);
    this.canvas = canvas;
    this.chunks = [];
    // A frame every 1/fps s, changed or not: a still page still fills the whole duration.
    const stream = canvas.captureStream(0);
    const track = stream.getVideoTracks()[0];
    this.recorder = new MediaRecorder(stream, { mimeType: o.mimeType });
    this.recorder.ondataavailable = (event) => this.chunks.push(event.data);
    this.recorder.start();
    // Chromium sends a canvas frame only when something was drawn: redraw the latest one.
    this.ticker = setInterval(() => {
      if (this.last) context.drawImage(this.last, 0, 0, o.width, o.height);
      track.requestFrame();
    }, 1000 / o.fps);
    return true;
  },
  async draw(jpegBase64) {
    const bytes = Uint8Array.from(atob(jpegBase64), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: "image/jpeg" }));
    this.canvas.getContext("2d").drawImage(bitmap, 0, 0, this.canvas.width, this.canvas.height);
    this.last?.close();
    this.last = bitmap;
  },
  async stop() {
    clearInterval(this.ticker);
    this.last?.close();
    const stopped = new Promise((done) => this.recorder.onstop = done);
    this.recorder.stop();
    await stopped;
    const bytes = new Uint8Array(await new Blob(this.chunks).arrayBuffer());
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000) {
      binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    }
    return btoa(binary);
  },
};`;

// deno-lint-ignore no-explicit-any
type InTab = any;
