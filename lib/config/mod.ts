import type { TrustedTarget } from "../guard/types.ts";
import { parseTrustedTargets } from "../guard/trusted.ts";
import denoJson from "../../deno.json" with { type: "json" };
import { type LogLevel, parseLogLevel } from "../util/log.ts";
import { parseProxy, type ProxySpec } from "../fetch/proxy_client.ts";

export const VERSION: string = denoJson.version;
export const REPO_URL = "https://github.com/linkpeek/linkpeek";

/**
 * Every setting, resolved once at start-up: nothing downstream reads the environment (the log
 * reads LOG_LEVEL at import only so that CLIs honour it; loadConfig() sets it again).
 */
export interface Config {
  port: number;
  listenHost: string;
  /** Hosts that select the pro endpoint; null means "first label is `pro`". */
  proHosts: string[] | null;
  proPort: number | null;
  publicUrl: string;
  dataDir: string;
  redisUrl: string | null;
  trustedTargets: TrustedTarget[];
  trustedProxies: string[];
  freeDailyLimit: number;
  cacheMaxBytes: number;
  chromiumPath: string | null;
  fetchTimeoutMs: number;
  requestTimeoutMs: number;
  /** Time one image's palette may take to decode (PALETTE_TIMEOUT_MS); past it, no palette. */
  paletteTimeoutMs: number;
  maxBodyBytes: number;
  userAgent: string;
  metricsToken: string | null;
  /** Lighthouse runs at once (LIGHTHOUSE_RUNS); one more is EBUSY. */
  lighthouseRuns: number;
  /** Browser pages open at once (BROWSER_PAGES); visits beyond wait in the queue. */
  browserPages: number;
  /** Visits waiting for a page (BROWSER_QUEUE); one more is EBUSY. */
  browserQueue: number;
  /** A renderer's resident memory past this (BROWSER_PAGE_MEMORY_MB) gets it killed. */
  browserPageMemoryMb: number;
  /** The heap cap of a document-conversion thread (DOCUMENT_HEAP_MB); past it, not converted. */
  documentHeapMb: number;
  /**
   * How long a lone request's page work may run on the main thread before it moves to a worker
   * (DOM_ALONE_SLICE_MS); 0: page work over WORKER_THRESHOLD always runs on a worker.
   */
  domAloneSliceMs: number;
  /** Lines below this level are not written (LOG_LEVEL). */
  logLevel: LogLevel;
  /** Ports linkpeek listens on (API, pro, Redis's); never exempt from the guard. Those opened at
   * run time (the browser's egress proxies) are the fetcher's `ownPorts`, not the config's. */
  ownPorts: readonly number[];
  /** EGRESS_PROXY: every outbound connection through this proxy (a request's `proxy` wins). */
  egressProxy: ProxySpec | null;
  /** Web origins whose pages may call /mcp: PUBLIC_URL's and MCP_ALLOWED_ORIGINS. */
  mcpOrigins: string[];
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  }
  return value;
}

function list(env: Env, name: string): string[] {
  return (env[name] ?? "").split(",").map((s) => s.trim()).filter(Boolean);
}

/** Redis is never a target, even when TRUSTED_TARGETS covers its address. */
function redisPort(redisUrl: string | undefined): number[] {
  if (!redisUrl) return [];
  const url = URL.parse(redisUrl);
  if (url) return [Number(url.port || 6379)];
  throw new Error(`REDIS_URL must be a URL like redis://127.0.0.1:6379, got "${redisUrl}"`);
}

/** PUBLIC_URL's origin and MCP_ALLOWED_ORIGINS, each an origin like https://app.example. */
function mcpOrigins(env: Env, publicUrl: string): string[] {
  const origins = list(env, "MCP_ALLOWED_ORIGINS").map((raw) => {
    const origin = URL.parse(raw)?.origin;
    if (!origin || origin === "null") {
      throw new Error(
        `MCP_ALLOWED_ORIGINS must list origins like https://app.example, got "${raw}"`,
      );
    }
    return origin;
  });
  return [...new Set([new URL(publicUrl).origin, ...origins])];
}

/** Reads the contract's environment variables; throws a readable Error on a bad value. */
export function loadConfig(env: Env = Deno.env.toObject()): Config {
  const port = int(env, "PORT", 3000);
  const proPort = env.PRO_PORT ? int(env, "PRO_PORT", 0, 1) : null;
  const proHosts = list(env, "PRO_HOSTS");
  const publicUrl = (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, "");
  return {
    port,
    listenHost: env.LISTEN_HOST || "0.0.0.0",
    proHosts: proHosts.length ? proHosts.map((h) => h.toLowerCase()) : null,
    proPort,
    publicUrl,
    dataDir: env.DATA_DIR || "./data",
    redisUrl: env.REDIS_URL || null,
    trustedTargets: parseTrustedTargets(env.TRUSTED_TARGETS ?? ""),
    trustedProxies: list(env, "TRUSTED_PROXIES"),
    freeDailyLimit: int(env, "FREE_DAILY_LIMIT", 50),
    cacheMaxBytes: int(env, "CACHE_MAX_BYTES", 256 * 1024 * 1024),
    chromiumPath: env.CHROMIUM_PATH || null,
    fetchTimeoutMs: int(env, "FETCH_TIMEOUT_MS", 10_000, 1),
    requestTimeoutMs: int(env, "REQUEST_TIMEOUT_MS", 28_000, 1),
    paletteTimeoutMs: int(env, "PALETTE_TIMEOUT_MS", 5000, 1),
    maxBodyBytes: int(env, "MAX_BODY_BYTES", 5 * 1024 * 1024, 1),
    userAgent: env.USER_AGENT || `linkpeek/${VERSION} (+${REPO_URL})`,
    metricsToken: env.METRICS_TOKEN || null,
    lighthouseRuns: int(env, "LIGHTHOUSE_RUNS", 1, 1),
    browserPages: int(env, "BROWSER_PAGES", 3, 1),
    browserQueue: int(env, "BROWSER_QUEUE", 16),
    browserPageMemoryMb: int(env, "BROWSER_PAGE_MEMORY_MB", 1024, 128),
    documentHeapMb: int(env, "DOCUMENT_HEAP_MB", 256, 16),
    // Room for the page work of most pages up to ALONE_LIMIT (~8 ms), far under the 100 ms the
    // event loop may be held.
    domAloneSliceMs: int(env, "DOM_ALONE_SLICE_MS", 20),
    logLevel: parseLogLevel(env.LOG_LEVEL),
    ownPorts: [port, ...(proPort ? [proPort] : []), ...redisPort(env.REDIS_URL)],
    egressProxy: env.EGRESS_PROXY
      ? parseProxy(env.EGRESS_PROXY, (why) => new Error(`EGRESS_PROXY ${why}`))
      : null,
    mcpOrigins: mcpOrigins(env, publicUrl),
  };
}
