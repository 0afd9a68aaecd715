/**
 * The response cache around one computation: HIT from the store, MISS computes (identical
 * concurrent requests in this process compute once), BYPASS (`force`) recomputes, STALE
 * (`staleTtl`) answers from the store and refreshes in the background.
 *
 * A computation is abandoned (its `abandoned` signal aborts) once every caller waiting for it
 * went away (`signal`: its client disconnected, or its own wait ran out); a STALE refresh waits
 * for it until the end, so it is never abandoned. An abandoned computation's error is not cached.
 *
 * Errors: target-side failures (ETIMEOUT, EFETCH, EMAXREDIRECTS, EFORBIDDENURL) are cached for
 * one minute (never longer than ttl) and re-thrown on a hit with x-cache-status/x-cache-ttl in
 * the ApiError's headers; every other error (query, auth, rate, browser, Redis) is never cached.
 */
import { ApiError, type ErrorCode, isApiError } from "../util/errors.ts";
import { log } from "../util/log.ts";
import { ClientGone, ClientWait } from "../util/client_gone.ts";
import type { Store } from "../store/types.ts";
import { decodeEntry, encodeEntry, type Entry, type StoredEntry } from "./entry.ts";
import { abortable } from "../util/deadline.ts";

export type CacheStatus = "MISS" | "HIT" | "BYPASS" | "STALE";

export const ERROR_TTL_MS = 60_000;
/** How far ahead of this clock an entry's stamp may be and still count as made now. */
const CLOCK_SKEW_MS = 60_000;
export const CACHEABLE_ERRORS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "ETIMEOUT",
  "EFETCH",
  "EMAXREDIRECTS",
  "EFORBIDDENURL",
]);

export interface CachedOptions {
  store: Store;
  /** From cacheKey(). */
  key: string;
  ttlMs: number;
  /** null/undefined: no stale serving; 0: always serve the copy and refresh it. */
  staleTtlMs?: number | null;
  force?: boolean;
  /**
   * Awaited before anything is answered or computed (e.g. authorize()): the store read runs
   * while it is pending, so a request pays one shared-state round trip instead of two.
   * Its rejection is what cached() rejects with.
   */
  gate?: Promise<unknown>;
  /**
   * Bounds how long this caller waits for a computation it joined (e.g. its deadline's run()):
   * that one was started with another request's deadline, or none left. One it starts itself is
   * bounded by `compute`'s own deadline (arming a second timer of the same end would cost every
   * request for nothing).
   */
  wait?: <T>(work: Promise<T>) => Promise<T>;
  /**
   * Aborts when this caller goes away (its client disconnected): it stops waiting, and leaves
   * the computation it waits for, which is abandoned once all its callers left.
   */
  signal?: AbortSignal;
  /**
   * Makes the answer; createdAt defaults to when it finished. `abandoned` aborts (with a
   * ClientGone) when no caller waits for it any more: the work should stop.
   */
  compute: (abandoned: AbortSignal) => Promise<Omit<Entry, "createdAt"> & { createdAt?: number }>;
}

export interface CachedResult {
  entry: Entry;
  status: CacheStatus;
  /** Milliseconds the answer stays cached (x-cache-ttl). */
  ttlLeftMs: number;
  /** The background refresh a STALE answer started (settles, never rejects); null otherwise. */
  refresh: Promise<void> | null;
}

/** Errors of one caller's own making (see callersOwn): answered, never cached. */
const callersOwnErrors = new WeakSet<object>();

/**
 * Marks `error` as caused by what only this caller asked (e.g. a `timeout` shorter than the
 * service's, which is not part of the key): it is not cached for the requests after it.
 */
export function callersOwn<E extends object>(error: E): E {
  callersOwnErrors.add(error);
  return error;
}

function cacheable(error: unknown): error is ApiError {
  return isApiError(error) && CACHEABLE_ERRORS.has(error.code) && !callersOwnErrors.has(error);
}

/** One computation under way, and how many callers wait for it. */
interface Flight {
  done: Promise<StoredEntry>;
  /** Aborted when its last caller left: the computation's `abandoned`. */
  abandon: AbortController;
  waiters: number;
}

/** In-flight computations per store and key: the single-flight table. */
const flights = new WeakMap<Store, Map<string, Flight>>();

/** Callers waiting for computations under way on `store` (for tests and diagnostics). */
export function waiting(store: Store): number {
  let count = 0;
  for (const running of flights.get(store)?.values() ?? []) count += running.waiters;
  return count;
}

/**
 * Waits for the computation of `options.key`, the one under way or a new one. `leave` aborts
 * when this caller stops waiting (it then rejects with leave's reason); once every caller left,
 * the computation is abandoned and leaves the table (a caller after it starts a new one). No
 * `leave`: a caller that waits until the end (a STALE refresh).
 */
function flight(options: CachedOptions, leave?: AbortSignal): Promise<StoredEntry> {
  if (leave?.aborted) return Promise.reject(leave.reason);
  let table = flights.get(options.store);
  if (!table) flights.set(options.store, table = new Map());
  let running = table.get(options.key);
  if (!running) {
    const abandon = new AbortController();
    const started: Flight = { abandon, waiters: 0, done: null! };
    started.done = computeAndStore(options, abandon.signal).finally(() => {
      if (table.get(options.key) === started) table.delete(options.key);
    });
    table.set(options.key, started);
    running = started;
  }
  const joined = running;
  joined.waiters++;
  if (!leave) return joined.done;
  const left = () => {
    if (--joined.waiters > 0) return;
    if (table.get(options.key) === joined) table.delete(options.key);
    joined.abandon.abort(new ClientGone());
  };
  leave.addEventListener("abort", left, { once: true });
  joined.done.then(
    () => leave.removeEventListener("abort", left),
    () => leave.removeEventListener("abort", left),
  );
  return abortable(joined.done, leave);
}

async function computeAndStore(
  options: CachedOptions,
  abandoned: AbortSignal,
): Promise<StoredEntry> {
  let stored: StoredEntry;
  try {
    const made = await options.compute(abandoned);
    const entry: Entry = { ...made, createdAt: made.createdAt ?? Date.now() };
    stored = { entry, error: null, createdAt: entry.createdAt, ttlMs: options.ttlMs };
  } catch (error) {
    // Given up for want of callers: says nothing of the target.
    if (cacheable(error) && !abandoned.aborted) {
      const cachedError = { code: error.code, message: error.message, headers: error.headers };
      const ttlMs = Math.min(ERROR_TTL_MS, options.ttlMs);
      await save(options, { entry: null, error: cachedError, createdAt: Date.now(), ttlMs });
    }
    throw error;
  }
  await save(options, stored);
  return stored;
}

/** A failed write costs a future miss, not this answer. `ttlMs`: how long the store keeps it. */
async function save(
  options: CachedOptions,
  stored: StoredEntry,
  ttlMs = stored.ttlMs,
): Promise<void> {
  try {
    await options.store.setCache(options.key, { value: encodeEntry(stored), ttlMs });
  } catch (error) {
    log.warn("cache write failed", {
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

function unpack(
  stored: StoredEntry,
  status: CacheStatus,
  ttlLeftMs: number,
  refresh: Promise<void> | null,
): CachedResult {
  if (stored.entry) return { entry: stored.entry, status, ttlLeftMs, refresh };
  const error = stored.error!;
  throw new ApiError(error.code, error.message, {
    headers: { ...error.headers, "x-cache-status": status, "x-cache-ttl": String(ttlLeftMs) },
  });
}

/**
 * Decoded entries by their stored bytes. A store that keeps hot entries in memory hands back
 * the same bytes each time, so a hit decodes once; the memo goes with the bytes.
 */
const decoded = new WeakMap<Uint8Array, StoredEntry | null>();

/**
 * A stored record that is not an entry (garbage, cut short, written by something else) is a
 * miss: the computation overwrites it, so its warning is logged once.
 */
function decodeOnce(bytes: Uint8Array, key: string): StoredEntry | null {
  let stored = decoded.get(bytes);
  if (stored !== undefined) return stored;
  decoded.set(bytes, stored = decodeEntry(bytes));
  if (!stored) {
    log.warn("damaged cache entry: recomputed", { key, bytes: bytes.byteLength });
  }
  return stored;
}

/**
 * This caller's computation: its own, or the identical one under way; a joined one that failed
 * for its starter's own reason (callersOwn) is run again, once, for this caller.
 */
async function computeFor(
  options: CachedOptions,
  joined: boolean,
  leave: AbortSignal,
): Promise<StoredEntry> {
  try {
    return await flight(options, leave);
  } catch (error) {
    if (!joined || !callersOwnErrors.has(Object(error))) throw error;
    return await flight(options, leave);
  }
}

/** Computes (or joins the identical computation under way): a MISS, or a BYPASS with force. */
async function fresh(options: CachedOptions, status: "MISS" | "BYPASS"): Promise<CachedResult> {
  let stored: StoredEntry;
  // What the computation failed with, to tell it from this caller's wait running out.
  let failure: { error: unknown } | null = null;
  // This caller stops waiting when its client goes away, or its own wait runs out.
  using leave = new ClientWait(options.signal);
  try {
    const joined = flights.get(options.store)?.has(options.key) ?? false;
    const computing = computeFor(options, joined, leave.signal).catch((error) => {
      failure = { error };
      throw error;
    });
    // A computation this caller started runs under its own deadline already (compute's).
    stored = await (options.wait && joined ? options.wait(computing) : computing);
  } catch (error) {
    // A wait that ran out left nothing cached: x-cache-ttl 0.
    const computed = (failure as { error: unknown } | null)?.error === error;
    throw missed(error, { status, ttlMs: computed ? options.ttlMs : 0 });
  } finally {
    leave.leave();
  }
  return unpack(stored, status, stored.ttlMs, null);
}

/**
 * A failed computation's error as this caller's answer: it says MISS (or BYPASS), and how long
 * it stays cached (0 when it is not), as a HIT on it does. Each caller gets its own copy:
 * concurrent callers share one computation and may differ in status.
 */
function missed(error: unknown, options: { status: CacheStatus; ttlMs: number }): unknown {
  if (!isApiError(error)) return error;
  const ttlMs = cacheable(error) ? Math.min(ERROR_TTL_MS, options.ttlMs) : 0;
  return new ApiError(error.code, error.message, {
    headers: { ...error.headers, "x-cache-status": options.status, "x-cache-ttl": String(ttlMs) },
    status: error.status,
    cause: error.cause ?? error,
  });
}

export async function cached(options: CachedOptions): Promise<CachedResult> {
  if (options.force) {
    await options.gate;
    return await fresh(options, "BYPASS");
  }
  const read = options.store.getCache(options.key);
  if (options.gate) {
    // The gate's failure wins over a failed read, which must not go unhandled meanwhile.
    read.catch(() => {});
    await options.gate;
  }
  const bytes = await read;
  const stored = bytes ? decodeOnce(bytes, options.key) : null;
  const now = Date.now();
  // Stamped later than now by more than instances' clocks differ: made under a clock that was
  // wrong, its age is unknown (else it would live its ttl plus however far the clock was off).
  if (stored && stored.createdAt <= now + CLOCK_SKEW_MS) {
    const madeAt = Math.min(stored.createdAt, now);
    // The shorter of the stored lifetime and this request's ttl decides freshness.
    const expiresAt = madeAt + Math.min(stored.ttlMs, options.ttlMs);
    if (now < expiresAt) {
      // Written again with its payload's length, for the rest of its life: its check (a parse)
      // is paid once, not on every hit.
      if (stored.unsized) await save(options, stored, madeAt + stored.ttlMs - now);
      const staleAfter = options.staleTtlMs;
      if (staleAfter === null || staleAfter === undefined || now - madeAt < staleAfter) {
        return unpack(stored, "HIT", expiresAt - now, null);
      }
      const refresh = flight(options).then(() => {}, (error) => {
        log.warn("background refresh failed", {
          error: error instanceof Error ? error.message : String(error),
        });
      });
      return unpack(stored, "STALE", expiresAt - now, refresh);
    }
  }
  return await fresh(options, "MISS");
}
