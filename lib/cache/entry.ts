/** A cached answer and its byte form in the store: [4-byte meta length][meta JSON][body]. */
import type { ErrorCode } from "../errors.ts";

export interface Entry {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | string;
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
}

interface Meta {
  v: 1;
  status: number;
  headers: Record<string, string>;
  createdAt: number;
  ttlMs: number;
  text: boolean;
  error: CachedError | null;
}

export function encodeEntry(stored: StoredEntry): Uint8Array {
  const entry = stored.entry;
  const body = entry === null
    ? new Uint8Array()
    : typeof entry.body === "string"
    ? new TextEncoder().encode(entry.body)
    : entry.body;
  const meta: Meta = {
    v: 1,
    status: entry?.status ?? 0,
    headers: entry?.headers ?? {},
    createdAt: stored.createdAt,
    ttlMs: stored.ttlMs,
    text: typeof entry?.body === "string",
    error: stored.error,
  };
  const head = new TextEncoder().encode(JSON.stringify(meta));
  const bytes = new Uint8Array(4 + head.length + body.length);
  new DataView(bytes.buffer).setUint32(0, head.length);
  bytes.set(head, 4);
  bytes.set(body, 4 + head.length);
  return bytes;
}

/** Null for bytes that are not an entry of this version (treated as a miss). */
export function decodeEntry(bytes: Uint8Array): StoredEntry | null {
  try {
    const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0);
    const meta = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length))) as Meta;
    if (meta.v !== 1) return null;
    const raw = bytes.subarray(4 + length);
    const entry: Entry | null = meta.error ? null : {
      status: meta.status,
      headers: meta.headers,
      body: meta.text ? new TextDecoder().decode(raw) : raw,
      createdAt: meta.createdAt,
    };
    return { entry, error: meta.error, createdAt: meta.createdAt, ttlMs: meta.ttlMs };
  } catch {
    return null;
  }
}
