/// <reference lib="deno.worker" />
/** Technology detection off the main thread (see technologies.ts); the rules load once. */
import { type DetectInput, detectTechnologies } from "./wappalyzer.ts";

self.onmessage = (event: MessageEvent<DetectInput>) => {
  try {
    self.postMessage({ ok: true, technologies: detectTechnologies(event.data) });
  } catch (error) {
    self.postMessage({
      ok: false,
      message: error instanceof Error ? error.message : String(error),
    });
  }
};
