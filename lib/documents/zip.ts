/**
 * A zip archive read under hard bounds, for the zipped document formats (OOXML, ODF, EPUB): the
 * central directory is read once (at most MAX_ENTRIES entries), and an entry is inflated only
 * when asked for, in small input chunks, stopping as soon as its output passes the entry bound
 * or the archive's total bound. A declared size is never trusted (a zip bomb lies about it).
 */
import { Inflate } from "fflate";
import { spend } from "../extract/dom/budget.ts";
import { DocumentRefused } from "./refused.ts";
import { concatBytes } from "../util/bytes.ts";

export interface ZipLimits {
  /** Entries in the central directory; more is refused (thousands of entries). */
  maxEntries: number;
  /** Bytes one entry may inflate to. */
  maxEntryBytes: number;
  /** Bytes all entries read from one archive may inflate to, together. */
  maxTotalBytes: number;
}

export const ZIP_LIMITS: ZipLimits = {
  maxEntries: 2000,
  maxEntryBytes: 32 * 1024 * 1024,
  maxTotalBytes: 96 * 1024 * 1024,
};

interface Entry {
  method: number;
  compressedSize: number;
  /** Offset of the entry's local header. */
  offset: number;
}

/** Input fed to the inflater at a time: deflate's ~1000:1 ratio bounds the overshoot to ~4 MB. */
const CHUNK = 4096;
const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;

export function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

export class ZipArchive {
  readonly #bytes: Uint8Array;
  readonly #view: DataView;
  readonly #entries = new Map<string, Entry>();
  readonly #limits: ZipLimits;
  #inflated = 0;

  constructor(bytes: Uint8Array, limits: ZipLimits = ZIP_LIMITS) {
    this.#bytes = bytes;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.#limits = limits;
    this.#readDirectory();
  }

  get names(): string[] {
    return [...this.#entries.keys()];
  }

  has(name: string): boolean {
    return this.#entries.has(name);
  }

  /** The entry's text (UTF-8), or null when the archive has no such entry. */
  text(name: string): string | null {
    const bytes = this.bytes(name);
    return bytes && new TextDecoder().decode(bytes);
  }

  /** The entry's bytes, inflated under the bounds; null when absent. */
  bytes(name: string): Uint8Array | null {
    const entry = this.#entries.get(name);
    if (!entry) return null;
    const view = this.#view;
    if (
      entry.offset + 30 > this.#bytes.length ||
      view.getUint32(entry.offset, true) !== LOCAL_SIGNATURE
    ) {
      throw new DocumentRefused("corrupt", `zip entry ${name} has no local header`);
    }
    const start = entry.offset + 30 + view.getUint16(entry.offset + 26, true) +
      view.getUint16(entry.offset + 28, true);
    const data = this.#bytes.subarray(start, start + entry.compressedSize);
    if (entry.method === 0) return this.#count(name, data.slice(), data.length);
    if (entry.method !== 8) {
      throw new DocumentRefused("unsupported", `zip entry ${name} uses method ${entry.method}`);
    }
    return this.#inflate(name, data);
  }

  #inflate(name: string, data: Uint8Array): Uint8Array {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const inflater = new Inflate((chunk) => {
      size += chunk.length;
      this.#count(name, chunk, size);
      chunks.push(chunk);
    });
    try {
      for (let at = 0; at < data.length; at += CHUNK) {
        spend();
        inflater.push(data.subarray(at, at + CHUNK), at + CHUNK >= data.length);
      }
    } catch (error) {
      if (error instanceof DocumentRefused) throw error;
      if (error instanceof Error && error.name === "BudgetExceeded") throw error;
      throw new DocumentRefused("corrupt", `zip entry ${name} does not inflate`);
    }
    return concatBytes(chunks);
  }

  /** Counts inflated bytes against the bounds (before they are kept). */
  #count(name: string, chunk: Uint8Array, entrySize: number): Uint8Array {
    this.#inflated += chunk.length;
    if (entrySize > this.#limits.maxEntryBytes || this.#inflated > this.#limits.maxTotalBytes) {
      throw new DocumentRefused("too-large", `zip entry ${name} inflates past its bound`);
    }
    return chunk;
  }

  #readDirectory(): void {
    const bytes = this.#bytes;
    const view = this.#view;
    // The end record is in the last 64 KB + 22 bytes (its comment is at most 64 KB).
    let eocd = -1;
    for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 65_557); at--) {
      if (view.getUint32(at, true) === EOCD_SIGNATURE) {
        eocd = at;
        break;
      }
    }
    if (eocd < 0) throw new DocumentRefused("corrupt", "zip has no end of central directory");
    const count = view.getUint16(eocd + 10, true);
    if (count > this.#limits.maxEntries) {
      throw new DocumentRefused("too-large", `zip has ${count} entries`);
    }
    let at = view.getUint32(eocd + 16, true);
    const names = new TextDecoder();
    for (let i = 0; i < count; i++) {
      if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL_SIGNATURE) {
        throw new DocumentRefused("corrupt", "zip central directory is damaged");
      }
      const nameLength = view.getUint16(at + 28, true);
      const extraLength = view.getUint16(at + 30, true);
      const commentLength = view.getUint16(at + 32, true);
      const name = names.decode(bytes.subarray(at + 46, at + 46 + nameLength));
      this.#entries.set(name, {
        method: view.getUint16(at + 10, true),
        compressedSize: view.getUint32(at + 20, true),
        offset: view.getUint32(at + 42, true),
      });
      at += 46 + nameLength + extraLength + commentLength;
    }
  }
}

/** A path inside the archive, resolved against the folder of the entry that names it. */
export function resolveEntry(base: string, href: string): string {
  const bare = href.split("#")[0]!.split("?")[0]!;
  let path = bare;
  try {
    path = decodeURIComponent(bare);
  } catch {
    // A malformed escape is read as written.
  }
  const parts = path.startsWith("/") ? [] : base.split("/").slice(0, -1);
  for (const part of path.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== "." && part !== "") parts.push(part);
  }
  return parts.join("/");
}
