/** `overlay`: the capture drawn inside a browser window frame over a background. */
import { Buffer } from "node:buffer";
import type { OverlayOptions } from "./types.ts";
import { parseBackground } from "./background.ts";

/** Space around the window when a background is painted (CSS px). */
export const OVERLAY_PADDING = 48;
/** Height of the browser frame's title bar (CSS px). */
export const OVERLAY_BAR = 40;

export interface OverlayPage {
  html: string;
  /** Size of the composed page in CSS px. */
  width: number;
  height: number;
}

/** Whether the options ask for any overlay at all. */
export function wantsOverlay(overlay: OverlayOptions | undefined): overlay is OverlayOptions {
  return Boolean(overlay && (overlay.browser || overlay.background));
}

/**
 * A self-contained page (no script) showing the capture at its CSS size, framed.
 * `cssWidth`/`cssHeight` are the capture's pixel size divided by the device scale factor.
 */
export function overlayPage(
  capture: { bytes: Uint8Array; type: "png" | "jpeg"; cssWidth: number; cssHeight: number },
  overlay: OverlayOptions,
): OverlayPage {
  const background = overlay.background ? parseBackground(overlay.background) : null;
  const pad = background ? OVERLAY_PADDING : 0;
  const bar = overlay.browser ? OVERLAY_BAR : 0;
  const dark = overlay.browser === "dark";
  const width = capture.cssWidth + 2 * pad;
  const height = capture.cssHeight + bar + 2 * pad;
  const src = `data:image/${capture.type};base64,${Buffer.from(capture.bytes).toString("base64")}`;
  const frame = overlay.browser
    ? `<div class="bar"><i style="background:#ff5f57"></i><i style="background:#febc2e"></i>` +
      `<i style="background:#28c840"></i><span></span></div>`
    : "";
  const html = `<!doctype html><html><head><meta charset="utf-8"><style>
html,body{margin:0;padding:0;width:${width}px;height:${height}px;overflow:hidden;}
body{background:${background ?? "transparent"};}
.win{position:absolute;left:${pad}px;top:${pad}px;width:${capture.cssWidth}px;
height:${capture.cssHeight + bar}px;overflow:hidden;
${pad ? "border-radius:10px;box-shadow:0 12px 32px rgba(0,0,0,.35);" : ""}
background:${dark ? "#1f1f1f" : "#ffffff"};}
.bar{height:${bar}px;display:flex;align-items:center;gap:8px;padding:0 14px;box-sizing:border-box;
background:${dark ? "#2d2d2f" : "#e9e9eb"};border-bottom:1px solid ${dark ? "#000" : "#d0d0d3"};}
.bar i{display:block;width:12px;height:12px;border-radius:50%;}
.bar span{flex:1;height:22px;margin-left:14px;border-radius:6px;
background:${dark ? "#3c3c3f" : "#ffffff"};}
img{display:block;width:${capture.cssWidth}px;height:${capture.cssHeight}px;}
</style></head><body><div class="win">${frame}<img src="${src}"></div></body></html>`;
  return { html, width, height };
}
