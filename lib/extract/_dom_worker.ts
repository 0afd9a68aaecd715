/// <reference lib="deno.worker" />
/** Custom rules and markdown of a large page, off the main thread (see dom_work.ts). */
import { type DomWork, domWorkSync } from "./dom_work.ts";

self.onmessage = (event: MessageEvent<DomWork>) => {
  self.postMessage(domWorkSync(event.data));
};
