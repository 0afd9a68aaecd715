/// <reference lib="deno.worker" />
/** Decodes and quantises off the main thread: a big JPEG takes seconds in pure JS. */
import { imagePalette } from "./palette.ts";

self.onmessage = (event: MessageEvent<Uint8Array>) => {
  self.postMessage(imagePalette(event.data));
};
