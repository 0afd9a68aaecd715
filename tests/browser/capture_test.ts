import assert from "node:assert/strict";
import { PNG } from "pngjs";
import { decode, poolFor, startCanary } from "./_helpers.ts";
import { html, serve, testConfig } from "../_fixtures.ts";
import { OVERLAY_BAR, OVERLAY_PADDING } from "../../lib/browser/overlay.ts";

const PAGE = `<!doctype html><html><head><style>
  body { margin: 0; background: #ffffff; }
  #box { position: absolute; left: 30px; top: 40px; width: 210px; height: 130px; background: #ff0000; }
  #late { width: 77px; height: 33px; background: #0000ff; display: none; }
  #tall { height: 2400px; background: linear-gradient(#fff, #0f0); }
</style></head><body>
  <div id="box"></div><div id="tall"></div><div id="late"></div>
  <script>setTimeout(() => { document.getElementById("late").style.display = "block"; }, 150);</script>
</body></html>`;

/** A solid 64x64 PNG made here, so the overlay's image background has a known colour. */
function solidPng(rgb: [number, number, number]): Uint8Array<ArrayBuffer> {
  const png = new PNG({ width: 64, height: 64 });
  for (let i = 0; i < png.data.length; i += 4) png.data.set([...rgb, 255], i);
  return new Uint8Array(PNG.sync.write(png));
}

Deno.test("visit() captures real PNG, JPEG, element, full-page, overlay and PDF", async (t) => {
  const blue = solidPng([0, 0, 255]);
  await using canary = startCanary();
  await using site = serve({
    "/": () => html(PAGE),
    "/bg.png": () => new Response(blue, { headers: { "content-type": "image/png" } }),
  });
  await using pool = poolFor(testConfig({ trustPorts: [site.port] }));
  const url = `${site.origin}/`;

  await t.step("png at the viewport size, dimensions read from the bytes", async () => {
    const result = await pool.visit(url, {
      screenshot: { type: "png" },
      viewport: { width: 800, height: 600, deviceScaleFactor: 1 },
    });
    const shot = result.screenshot!;
    assert.equal(result.statusCode, 200);
    assert.equal(result.url, url);
    assert.equal(shot.type, "png");
    assert.deepEqual([shot.width, shot.height], [800, 600]);
    const image = decode(shot.bytes);
    assert.deepEqual([image.width, image.height], [800, 600]);
    assert.deepEqual(image.pixel(100, 100), [255, 0, 0, 255]); // inside #box
    const [r, g, b] = image.pixel(5, 5); // top of the white-to-green gradient
    assert.ok(r > 250 && g > 250 && b > 250, `expected white, got ${r},${g},${b}`);
  });

  await t.step("jpeg honours quality and deviceScaleFactor", async () => {
    const result = await pool.visit(url, {
      screenshot: { type: "jpeg", quality: 50 },
      viewport: { width: 400, height: 300, deviceScaleFactor: 2 },
    });
    const shot = result.screenshot!;
    assert.equal(shot.type, "jpeg");
    assert.deepEqual([shot.bytes[0], shot.bytes[1]], [0xff, 0xd8]);
    assert.deepEqual([shot.width, shot.height], [800, 600]);
    const image = decode(shot.bytes);
    assert.deepEqual([image.width, image.height], [800, 600]);
    const [r, g, b] = image.pixel(200, 200);
    assert.ok(r > 230 && g < 30 && b < 30, `expected red, got ${r},${g},${b}`);
  });

  await t.step("element capture equals the element's box, waiting until visible", async () => {
    // The 210x130 box at the default device's 2x.
    const box = await pool.visit(url, { screenshot: { element: "#box" } });
    assert.deepEqual([box.screenshot!.width, box.screenshot!.height], [420, 260]);
    assert.deepEqual(decode(box.screenshot!.bytes).pixel(210, 130), [255, 0, 0, 255]);
    // #late is display:none until a timer shows it.
    const late = await pool.visit(url, {
      screenshot: { element: "#late" },
      viewport: { width: 800, height: 600, deviceScaleFactor: 2 },
    });
    assert.deepEqual([late.screenshot!.width, late.screenshot!.height], [154, 66]);
    assert.deepEqual(decode(late.screenshot!.bytes).pixel(70, 30), [0, 0, 255, 255]);
  });

  await t.step("fullPage is taller than the viewport", async () => {
    const result = await pool.visit(url, {
      screenshot: { fullPage: true },
      viewport: { width: 800, height: 600, deviceScaleFactor: 1 },
      waitForTimeout: 300, // #late adds its 33px
    });
    assert.equal(result.screenshot!.width, 800);
    assert.equal(result.screenshot!.height, 2400 + 33);
  });

  await t.step("overlay adds the frame and background around the viewport", async () => {
    const framed = await pool.visit(url, {
      screenshot: { overlay: { browser: "dark", background: "#00ff00" } },
      viewport: { width: 640, height: 400, deviceScaleFactor: 1 },
    });
    const shot = framed.screenshot!;
    assert.deepEqual(
      [shot.width, shot.height],
      [640 + 2 * OVERLAY_PADDING, 400 + OVERLAY_BAR + 2 * OVERLAY_PADDING],
    );
    const image = decode(shot.bytes);
    assert.deepEqual(image.pixel(4, 4), [0, 255, 0, 255]); // background
    // The capture sits under the bar: #box starts at (30, 40) of the page.
    assert.deepEqual(
      image.pixel(OVERLAY_PADDING + 100, OVERLAY_PADDING + OVERLAY_BAR + 100),
      [255, 0, 0, 255],
    );
    const frameOnly = await pool.visit(url, {
      screenshot: { overlay: { browser: "light" } },
      viewport: { width: 640, height: 400, deviceScaleFactor: 1 },
    });
    assert.deepEqual(
      [frameOnly.screenshot!.width, frameOnly.screenshot!.height],
      [640, 400 + OVERLAY_BAR],
    );
  });

  await t.step("an image URL background loads through the guard like everything else", async () => {
    const viewport = { width: 320, height: 200, deviceScaleFactor: 1 };
    const pictured = await pool.visit(url, {
      screenshot: { overlay: { background: `${site.origin}/bg.png` } },
      viewport,
    });
    assert.deepEqual(decode(pictured.screenshot!.bytes).pixel(4, 4), [0, 0, 255, 255]);
    assert.ok(site.seen.some((s) => s.path === "/bg.png"));
    // A forbidden background is simply not painted; the capture still succeeds.
    const refused = await pool.visit(url, {
      screenshot: { overlay: { background: `${canary.origin}/bg.png` } },
      viewport,
    });
    assert.equal(refused.screenshot!.width, 320 + 2 * OVERLAY_PADDING);
    assert.equal(canary.connections, 0);
  });

  await t.step("an invalid overlay background is EINVALOVERLAYBG naming it", async () => {
    await assert.rejects(
      pool.visit(url, { screenshot: { overlay: { background: "red;}body{x:url(//a)" } } }),
      (error: Error & { code?: string }) =>
        error.code === "EINVALOVERLAYBG" && error.message.includes("overlay.background"),
    );
  });

  await t.step("pdf bytes start with %PDF and html is the rendered DOM", async () => {
    const result = await pool.visit(url, {
      pdf: { format: "A4", landscape: true, margin: "1cm" },
      html: true,
    });
    const head = new TextDecoder().decode(result.pdf!.bytes.subarray(0, 5));
    assert.equal(head, "%PDF-");
    assert.ok(result.pdf!.bytes.length > 500);
    assert.match(result.html!, /<div id="box"><\/div>/);
    assert.equal(result.screenshot, undefined);
  });

  await t.step("device presets set the viewport; viewport fields override them", async () => {
    const phone = await pool.visit(url, { screenshot: true, device: "iphone-15" });
    assert.deepEqual([phone.screenshot!.width, phone.screenshot!.height], [393 * 3, 659 * 3]);
    const wide = await pool.visit(url, {
      screenshot: true,
      device: "Galaxy S9",
      viewport: { deviceScaleFactor: 1 },
    });
    assert.deepEqual([wide.screenshot!.width, wide.screenshot!.height], [360, 740]);
    await assert.rejects(
      pool.visit(url, { screenshot: true, device: "Nokia 3310" }),
      (error: Error & { code?: string }) =>
        error.code === "EINVALQUERY" && error.message.includes("Nokia 3310"),
    );
  });
});
