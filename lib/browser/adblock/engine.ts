/**
 * The Ghostery filter engine (EasyList, EasyPrivacy, uBlock's lists, cookie-notice lists and
 * Ghostery's tracker list), loaded once per process on first use. The engine is the serialized
 * one `@browserless/goto` ships (`src/engine.bin`, what Microlink runs): nothing is downloaded at
 * run time. A serialized engine is read only by the adblocker release that wrote it; this one
 * deserializes with @ghostery/adblocker 2.15.0 and is refused by 2.16 and later (pinned in
 * deno.json, checked by tests/browser/adblock/engine_test.ts).
 */
import type { FiltersEngine } from "@ghostery/adblocker";

export interface EngineLoad {
  /** Import of the file and deserialization, in ms. */
  ms: number;
  /** Size of the serialized engine. */
  bytes: number;
}

let loading: Promise<FiltersEngine> | null = null;
let measured: EngineLoad | null = null;

/** The shared engine; the first call loads it (a failed load is not retried). */
export function loadEngine(): Promise<FiltersEngine> {
  loading ??= (async () => {
    const started = performance.now();
    const [{ FiltersEngine }, { default: bytes }] = await Promise.all([
      import("@ghostery/adblocker"),
      import("@browserless/goto/src/engine.bin", { with: { type: "bytes" } }),
    ]);
    const engine = FiltersEngine.deserialize(bytes);
    measured = { ms: performance.now() - started, bytes: bytes.length };
    return engine;
  })();
  return loading;
}

/** What the load cost, once it happened (for bench:screenshot). */
export function engineLoad(): EngineLoad | null {
  return measured;
}
