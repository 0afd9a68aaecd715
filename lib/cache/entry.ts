/**
 * A cached answer and its byte form in the store: [4-byte meta length][meta JSON][payload].
 * Version 2 keeps how the payload was made as fields; version 1 entries (the same facts as
 * `x-fetch-mode`/`x-fetch-time` headers) are still read. Bytes that are not a whole entry of a
 * known version (garbage, a meta of the wrong shape, a payload cut short) decode to null; so do
 * those written before entries recorded their payload's length that cannot be told whole.
 */
import { ERROR_STATUS, type ErrorCode } from "../util/errors.ts";
import type { FetchMode } from "../util/payload_types.ts";

export interface Entry {
  /** The payload: its JSON text as stored (a caller may cache bytes instead). */
  payload: Uint8Array | string;
  /** How the payload was made (x-fetch-mode, x-fetch-time): a HIT reports the same. */
  fetchMode: FetchMode;
  fetchTimeMs: number;
  /** Epoch ms when the answer was made (x-timestamp). */
  createdAt: number;
}

/** A target-side error remembered briefly instead of an answer. */
export interface CachedError {
  code: ErrorCode;
  message: string;
  headers: Record<string, string>;
}

export interface StoredEntry {
  entry: Entry | null;
  error: CachedError | null;
  createdAt: number;
  /** The lifetime it was stored with. */
  ttlMs: number;
  /** Read from an entry of no recorded payload length (older): checked by parsing (see whole). */
  unsized?: true;
}

interface Meta {
  v: 2;
  fetchMode: FetchMode;
  fetchTimeMs: number;
  createdAt: number;
  ttlMs: number;
  text: boolean;
  error: CachedError | null;
  /** The payload's byte length, so that an entry cut short is told from a whole one. */
  size?: number;
}

/** Version 1: the fetch mode and time as the headers of a fake HTTP answer. */
interface MetaV1 extends Omit<Meta, "v" | "fetchMode" | "fetchTimeMs"> {
  v: 1;
  headers: Record<string, string>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeEntry(stored: StoredEntry): Uint8Array {
  const entry = stored.entry;
  const body = entry === null
    ? new Uint8Array()
    : typeof entry.payload === "string"
    ? encoder.encode(entry.payload)
    : entry.payload;
  const meta: Meta = {
    v: 2,
    fetchMode: entry?.fetchMode ?? "skipped",
    fetchTimeMs: entry?.fetchTimeMs ?? 0,
    createdAt: stored.createdAt,
    ttlMs: stored.ttlMs,
    text: typeof entry?.payload === "string",
    error: stored.error,
    size: body.length,
  };
  const head = encoder.encode(JSON.stringify(meta));
  const bytes = new Uint8Array(4 + head.length + body.length);
  new DataView(bytes.buffer).setUint32(0, head.length);
  bytes.set(head, 4);
  bytes.set(body, 4 + head.length);
  return bytes;
}

/** A version 1 meta read as version 2. */
function upgrade(meta: Meta | MetaV1): Meta | null {
  if (meta.v === 2) return meta;
  if (meta.v !== 1) return null;
  const { headers, ...rest } = meta;
  const mode = headers["x-fetch-mode"];
  return {
    ...rest,
    v: 2,
    fetchMode: mode === "fetch" || mode === "prerender" ? mode : "skipped",
    fetchTimeMs: Number(headers["x-fetch-time"] ?? 0) || 0,
  };
}

const FETCH_MODES: ReadonlySet<unknown> = new Set<FetchMode>([
  "fetch",
  "prerender",
  "skipped",
  "fetch-proxy",
  "prerender-proxy",
]);

function isCachedError(value: unknown): value is CachedError {
  if (typeof value !== "object" || value === null) return false;
  const { code, message, headers } = value as Record<string, unknown>;
  return typeof code === "string" && Object.hasOwn(ERROR_STATUS, code) &&
    typeof message === "string" && typeof headers === "object" && headers !== null &&
    Object.values(headers).every((v) => typeof v === "string");
}

/** Every field of a meta as this version writes it (a meta from elsewhere may be anything). */
function wellFormed(meta: Meta): boolean {
  return FETCH_MODES.has(meta.fetchMode) && Number.isFinite(meta.fetchTimeMs) &&
    Number.isFinite(meta.createdAt) && Number.isFinite(meta.ttlMs) &&
    typeof meta.text === "boolean" &&
    (meta.error === null || isCachedError(meta.error));
}

/**
 * Whether the payload is all there. Entries record its length (`size`). One written before they
 * did is whole if it is what the cache wrote: nothing after an error, or a JSON text of an
 * object or array (a part of one, cut short, never parses). Bytes of no recorded length cannot be
 * told whole: a miss, written again with their length.
 */
function whole(meta: Meta, payload: Uint8Array): boolean {
  if (meta.size !== undefined) return meta.size === payload.byteLength;
  if (meta.error) return payload.byteLength === 0;
  if (!meta.text) return false;
  try {
    const value = JSON.parse(decoder.decode(payload));
    return typeof value === "object" && value !== null;
  } catch {
    return false;
  }
}

/** Null for bytes that are not a whole entry of a known version (treated as a miss). */
export function decodeEntry(bytes: Uint8Array): StoredEntry | null {
  try {
    const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0);
    if (4 + length > bytes.byteLength) return null;
    const meta = upgrade(JSON.parse(decoder.decode(bytes.subarray(4, 4 + length))));
    const raw = bytes.subarray(4 + length);
    if (!meta || !wellFormed(meta) || !whole(meta, raw)) return null;
    const entry: Entry | null = meta.error ? null : {
      payload: meta.text ? decoder.decode(raw) : raw,
      fetchMode: meta.fetchMode,
      fetchTimeMs: meta.fetchTimeMs,
      createdAt: meta.createdAt,
    };
    const stored: StoredEntry = {
      entry,
      error: meta.error,
      createdAt: meta.createdAt,
      ttlMs: meta.ttlMs,
    };
    if (meta.size === undefined) stored.unsized = true;
    return stored;
  } catch {
    return null;
  }
}
