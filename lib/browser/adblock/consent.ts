/**
 * Cookie-consent dialogs answered "reject" by DuckDuckGo's autoconsent: its injectable bundle and
 * compact rules, both from the npm package, run in every frame of the page.
 *
 * The bundle runs in an isolated world of its own, not in the page's: the page can neither see
 * nor call the message channel (a CDP binding exposed to that world only) nor tamper with the
 * script. Rules that must read the page's own variables ask for an "eval", which runs in that
 * frame's main world, is time-bounded, and answers only a boolean. Every message is
 * page-influenced input: sizes and counts are capped.
 */
import type { CDPSession, Page, Protocol } from "puppeteer-core";

const WORLD = "linkpeek-autoconsent";
const BINDING = "linkpeekAutoconsent";
/** Messages read per visit (reports arrive on every state change; a frame flood stops here). */
const MAX_MESSAGES = 500;
const MAX_MESSAGE_CHARS = 32 * 1024;
/** Frames that get rules (each init sends them the rule set). */
const MAX_FRAMES = 16;
const EVAL_TIMEOUT_MS = 1000;
/**
 * Its first detection pass is over when nothing was heard for this long after it started with
 * no eval outstanding (the next pass comes 500 ms later; a capture does not wait for it).
 */
const QUIET_MS = 20;
/** Lifecycle states after which autoconsent does nothing more on the page. */
const FINISHED = new Set(["nothingDetected", "done", "optOutSucceeded", "optOutFailed"]);

/** autoconsent's Config: opt out, hide known dialogs early, heuristics as its docs advise. */
const CONFIG = {
  enabled: true,
  autoAction: "optOut",
  disabledCmps: [],
  enablePrehide: true,
  enableCosmeticRules: true,
  enableGeneratedRules: true,
  enableHeuristicDetection: true,
  heuristicMode: "tier2",
  enableFilterList: false,
  detectRetries: 20,
  isMainWorld: false,
  prehideTimeout: 2000,
  logs: {
    lifecycle: false,
    rulesteps: false,
    detectionsteps: false,
    evals: false,
    errors: false,
    messages: false,
    waits: false,
  },
};

/** In the isolated world, before the bundle: its outgoing messages become binding calls. */
const BRIDGE = `(() => {
  const send = globalThis.${BINDING};
  if (typeof send !== "function") return;
  globalThis.autoconsentSendMessage = (message) => {
    try { send(JSON.stringify(message)); } catch {}
    return Promise.resolve();
  };
})();
`;

type CompactRules = { v: number; s: string[]; r: unknown[] };
interface Assets {
  script: string;
  rules: unknown;
  filter: (rules: never, context: { url: string; mainFrame: boolean }) => CompactRules;
}

let assets: Promise<Assets> | null = null;

/** The bundle's text and the rules, read once per process from the package. */
function loadAssets(): Promise<Assets> {
  assets ??= (async () => {
    const [module, { default: rules }] = await Promise.all([
      import("@duckduckgo/autoconsent"),
      import("@duckduckgo/autoconsent/rules/compact-rules.json", { with: { type: "json" } }),
    ]);
    // The IIFE bundle sits beside the package's ES module but is not in its `exports`, so a
    // static `with { type: "text" }` import is refused (ERR_PACKAGE_PATH_NOT_EXPORTED). `deno
    // compile` embeds npm package folders whole in the binary's file system: this read works there.
    const entry = import.meta.resolve("@duckduckgo/autoconsent");
    const script = await Deno.readTextFile(new URL("./autoconsent.playwright.js", entry));
    return { script, rules, filter: module.filterCompactRules as Assets["filter"] };
  })();
  return assets;
}

interface MainFrameState {
  /** The bundle started in the main frame (it asked for its rules). */
  started: boolean;
  /** A consent platform was detected there. */
  detected: boolean;
  lifecycle: string;
  attempts: number;
  /** Main-world evals asked for and not answered yet. */
  evals: number;
  /** When the last message came (performance.now()). */
  heard: number;
}

/**
 * The page's own DevTools session (Page and Runtime already on). A second session would do, but
 * while one is attached Chromium drops the page's emulated media type (mediaType=print).
 */
function pageSession(page: Page): CDPSession {
  const client = (page as unknown as { _client?: () => CDPSession })._client;
  if (typeof client !== "function") throw new Error("puppeteer-core: Page._client() is gone");
  return client.call(page);
}

export interface Consent {
  /**
   * Resolves once the main frame's dialog, if any, has been answered: at once when autoconsent
   * is not running there, after its first detection pass found nothing, or when it finished
   * with the platform it found; at the latest after `maxMs`.
   */
  settled(maxMs: number): Promise<void>;
  /** The platform answered in the main frame, if any (for logs and tests). */
  answered(): string | null;
}

/** autoconsent's binding and bundle, registered on a page before it navigates. */
export interface ConsentInstall {
  mainFrameId: string;
  /** The bundle's Page.addScriptToEvaluateOnNewDocument identifier. */
  scriptId: string;
}

/**
 * Registers the binding and the bundle (~140 KB) on a fresh page: done on the pool's spare page
 * ahead of demand, it takes three round trips off the visit.
 */
export async function installConsent(page: Page): Promise<ConsentInstall> {
  const { script } = await loadAssets();
  const session = pageSession(page);
  // One session answers in order: the three go out at once.
  const [{ frameTree }, , { identifier }] = await Promise.all([
    session.send("Page.getFrameTree"),
    session.send("Runtime.addBinding", { name: BINDING, executionContextName: WORLD }),
    session.send("Page.addScriptToEvaluateOnNewDocument", {
      source: BRIDGE + script,
      worldName: WORLD,
    }),
  ]);
  return { mainFrameId: frameTree.frame.id, scriptId: identifier };
}

/** Takes an installed bundle off a page that is to navigate without autoconsent. */
export async function uninstallConsent(page: Page, installed: ConsentInstall): Promise<void> {
  const session = pageSession(page);
  await Promise.all([
    session.send("Page.removeScriptToEvaluateOnNewDocument", { identifier: installed.scriptId }),
    session.send("Runtime.removeBinding", { name: BINDING }),
  ]);
}

/** Runs autoconsent on a fresh page, before its navigation (installing it unless it is). */
export async function startConsent(
  page: Page,
  installed: ConsentInstall | null = null,
): Promise<Consent> {
  const { rules, filter } = await loadAssets();
  const session = pageSession(page);
  const contexts = new Map<number, { frameId: string; main: boolean }>();
  const state: MainFrameState = {
    started: false,
    detected: false,
    lifecycle: "",
    attempts: 0,
    evals: 0,
    heard: 0,
  };
  let answered: string | null = null;
  let messages = 0;
  let inits = 0;
  let mainFrameId = "";
  let wake = () => {};

  const reply = (contextId: number, message: unknown) =>
    session.send("Runtime.evaluate", {
      expression: `globalThis.autoconsentReceiveMessage?.(${JSON.stringify(message)})`,
      contextId,
    }).catch(() => {});

  /** A rule's snippet, in the main world of the asking frame; only a boolean comes back. */
  const evaluate = async (frameId: string, code: string): Promise<boolean> => {
    const main = [...contexts].find(([, c]) => c.frameId === frameId && c.main)?.[0];
    if (main === undefined) return false;
    const answer = await session.send("Runtime.evaluate", {
      expression: `Promise.resolve(${code}).then((v) => v === true)`,
      contextId: main,
      awaitPromise: true,
      timeout: EVAL_TIMEOUT_MS,
    }).catch(() => null);
    return answer?.result.value === true;
  };

  const onMessage = (payload: string, contextId: number) => {
    if (++messages > MAX_MESSAGES || payload.length > MAX_MESSAGE_CHARS) return;
    const context = contexts.get(contextId);
    if (!context) return;
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(payload);
    } catch {
      return;
    }
    if (!message || typeof message !== "object") return;
    const isMain = context.frameId === mainFrameId;
    if (isMain) state.heard = performance.now();
    switch (message.type) {
      case "init":
        if (++inits > MAX_FRAMES) return;
        if (isMain) state.started = true;
        void reply(contextId, {
          type: "initResp",
          config: CONFIG,
          rules: {
            autoconsent: [],
            compact: filter(rules as never, { url: String(message.url ?? ""), mainFrame: isMain }),
          },
        });
        break;
      case "eval":
        if (typeof message.code !== "string") return;
        if (isMain) state.evals++;
        void evaluate(context.frameId, message.code).then((result) => {
          if (isMain) state.evals--;
          wake();
          return reply(contextId, { type: "evalResp", id: message.id, result });
        });
        return;
      case "report": {
        const reported = message.state as { lifecycle?: unknown; findCmpAttempts?: unknown };
        if (!isMain || !reported || typeof reported !== "object") return;
        state.lifecycle = String(reported.lifecycle ?? "");
        state.attempts = Number(reported.findCmpAttempts) || 0;
        break;
      }
      case "cmpDetected":
      case "popupFound":
        if (isMain) state.detected = true;
        break;
      case "autoconsentDone":
        if (isMain) answered = String(message.cmp ?? "");
        break;
      default:
        return;
    }
    wake();
  };

  session.on("Runtime.executionContextCreated", ({ context }) => {
    const aux = context.auxData as { frameId?: string; isDefault?: boolean } | undefined;
    if (!aux?.frameId || contexts.size > 4 * MAX_FRAMES) return;
    // Only the bundle's world and the frames' main worlds matter here.
    if (context.name !== WORLD && !aux.isDefault) return;
    contexts.set(context.id, { frameId: aux.frameId, main: aux.isDefault === true });
  });
  session.on("Runtime.executionContextDestroyed", ({ executionContextId }) => {
    contexts.delete(executionContextId);
  });
  session.on("Runtime.executionContextsCleared", () => contexts.clear());
  session.on("Runtime.bindingCalled", (event: Protocol.Runtime.BindingCalledEvent) => {
    if (event.name === BINDING) onMessage(event.payload, event.executionContextId);
  });

  mainFrameId = (installed ?? await installConsent(page)).mainFrameId;

  /** 0 when settled, else how long (ms) until it may be; Infinity: until the next message. */
  const pending = (): number => {
    if (!state.started || FINISHED.has(state.lifecycle)) return 0;
    if (state.detected) return Infinity;
    if (state.attempts >= 2) return 0;
    if (state.lifecycle !== "started" || state.evals > 0) return Infinity;
    return Math.max(0, state.heard + QUIET_MS - performance.now());
  };

  return {
    settled: (maxMs) =>
      new Promise<void>((resolve) => {
        let quiet: ReturnType<typeof setTimeout> | undefined;
        const timer = setTimeout(finish, maxMs);
        function finish() {
          clearTimeout(timer);
          clearTimeout(quiet);
          wake = () => {};
          resolve();
        }
        wake = () => {
          clearTimeout(quiet);
          const wait = pending();
          if (wait === 0) finish();
          else if (wait !== Infinity) quiet = setTimeout(() => wake(), wait);
        };
        wake();
      }),
    answered: () => answered,
  };
}
