/**
 * `screenshot.animated` through @microlink/mql: a short video of the page, hosted by linkpeek,
 * described as Microlink documents it, and decodable by Chromium.
 */
import assert from "node:assert/strict";
import mql from "@microlink/mql";
import { launchLoopbackChromium, requireChromium } from "../browser/_helpers.ts";
import type { Any } from "./_mql.ts";
import { startCompat } from "./_target.ts";

const EBML_MAGIC = [0x1a, 0x45, 0xdf, 0xa3];

Deno.test("screenshot.animated records the page as WebM or MP4", async (t) => {
  requireChromium();
  await using compat = await startCompat();
  const endpoint = `${compat.app.origin}/`;
  const viewport = { width: 640, height: 400 };

  let webmUrl = "";
  await t.step("webm: Microlink's media object, the bytes a WebM", async () => {
    const result: Any = await mql(compat.pageUrl, {
      endpoint,
      meta: false,
      viewport,
      screenshot: { animated: { duration: "1s", fps: 10, type: "webm" } },
    } as Any);
    const animated = result.data.screenshot.animated;
    assert.equal(result.data.screenshot.type, "png");
    assert.equal(animated.type, "webm");
    assert.equal(animated.codec, "vp9");
    assert.equal(animated.duration, 1000);
    assert.equal(animated.duration_pretty, "1s");
    assert.equal(animated.fps, 10);
    assert.equal(animated.backend, "screencast");
    assert.equal(animated.width, 640);
    assert.equal(animated.height, 400);
    assert.ok(animated.url.startsWith(`${compat.app.origin}/assets/`), animated.url);
    assert.ok(animated.url.endsWith(".webm"), animated.url);
    const response = await fetch(animated.url);
    assert.equal(response.headers.get("content-type"), "video/webm");
    const bytes = new Uint8Array(await response.arrayBuffer());
    assert.deepEqual([...bytes.subarray(0, 4)], EBML_MAGIC);
    assert.equal(bytes.length, animated.size);
    webmUrl = animated.url;
  });

  await t.step("mp4 by default, served by embed=screenshot.animated.url", async () => {
    const response: Any = await mql.buffer(compat.pageUrl, {
      endpoint,
      meta: false,
      viewport,
      screenshot: { animated: { duration: "1s" } },
      embed: "screenshot.animated.url",
    } as Any);
    assert.equal(response.headers.get("content-type"), "video/mp4");
    const bytes = new Uint8Array(response.body);
    assert.equal(new TextDecoder().decode(bytes.subarray(4, 8)), "ftyp");
  });

  await t.step("out of Microlink's bounds: EINVALQUERY naming the option", async () => {
    const long = await mql(compat.pageUrl, {
      endpoint,
      screenshot: { animated: { duration: "11s" } },
    } as Any).then(() => null, (error: Any) => error);
    assert.equal(long?.code, "EINVALQUERY");
    assert.match(long.description, /screenshot\.animated\.duration/);
  });

  await t.step("Chromium decodes the recording at the viewport's size", async () => {
    const browser = await launchLoopbackChromium(["--autoplay-policy=no-user-gesture-required"]);
    try {
      const tab = await browser.newPage();
      // A page without a CSP of its own (linkpeek's pages forbid media loads).
      await tab.goto(`http://127.0.0.1:${compat.site.port}/page`);
      const size = await tab.evaluate(async (src: string) => {
        const video = document.createElement("video");
        video.muted = true;
        video.crossOrigin = "anonymous";
        const loaded = new Promise((done, fail) => {
          video.onloadeddata = done;
          video.onerror = () => fail(new Error(String(video.error?.message)));
        });
        video.src = src;
        await loaded;
        // The first frames show the page loading: play it through and look at the last one.
        const ended = new Promise((done) => video.onended = done);
        await video.play();
        await ended;
        // The page's dark heading on its white body: frames of the page, not a blank canvas.
        const canvas = document.createElement("canvas");
        canvas.width = video.videoWidth;
        canvas.height = video.videoHeight;
        const context = canvas.getContext("2d")!;
        context.drawImage(video, 0, 0);
        const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
        let dark = 0;
        for (let i = 0; i < pixels.length; i += 4) if (pixels[i]! < 100) dark++;
        return {
          width: video.videoWidth,
          height: video.videoHeight,
          dark,
          seconds: video.duration,
        };
      }, webmUrl);
      assert.equal(size.width, 640);
      assert.equal(size.height, 400);
      assert.ok(size.dark > 50, `${size.dark} dark pixels`);
      // duration=1s: the video lasts about that (MediaRecorder stamps frames as they come)
      assert.ok(size.seconds > 0.7 && size.seconds < 1.5, `${size.seconds} s`);
    } finally {
      await browser.close();
    }
  });
});
