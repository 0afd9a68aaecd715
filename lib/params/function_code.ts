/**
 * `function` as Microlink reads it: plain source, or compressed with its alias in front (`br#`,
 * `gz#` as base64url, `lz#` as lz-string's URI-safe form; `@microlink/function` always sends
 * one). The source is decoded within a size bound and checked for syntax here, so a bad one is
 * EINVALFUNCTION before any traffic leaves; it is compiled, never run, in this process.
 */
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import LZString from "lz-string";
import { ApiError } from "../util/errors.ts";

/** Decoded source larger than this is refused (the plain form is capped at 32 KiB). */
export const MAX_FUNCTION_SOURCE = 256 * 1024;
/** lz-string output can grow with the square of its input: its input is kept small. */
const MAX_LZ_INPUT = 16 * 1024;

function invalid(message: string): ApiError {
  return new ApiError("EINVALFUNCTION", `The parameter \`function\` ${message}`);
}

function fromBase64(text: string): Uint8Array {
  const standard = text.replace(/-/g, "+").replace(/_/g, "/").replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(standard)) throw new Error("not base64");
  const binary = atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, "="));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function decompress(alias: string, payload: string): string {
  const bounded = { maxOutputLength: MAX_FUNCTION_SOURCE };
  try {
    if (alias === "lz") {
      if (payload.length > MAX_LZ_INPUT) throw new Error("too long");
      const text = LZString.decompressFromEncodedURIComponent(payload);
      if (!text) throw new Error("empty");
      return text;
    }
    const bytes = fromBase64(payload);
    const out = alias === "br" ? brotliDecompressSync(bytes, bounded) : gunzipSync(bytes, bounded);
    if (out.length === 0) throw new Error("empty");
    return new TextDecoder("utf-8", { fatal: true }).decode(out);
  } catch {
    throw invalid(
      `is not a valid ${alias} payload: it was truncated or re-encoded on its way, or it ` +
        `decodes to more than ${MAX_FUNCTION_SOURCE / 1024} KiB.`,
    );
  }
}

/**
 * A package the code loads (`require("cheerio")`, `require('lodash@4')`, `import("npm:x")`),
 * or null. Microlink installs npm packages at run time; linkpeek downloads nothing while it
 * runs and its sandbox may not read a file, so such code is refused up front rather than left
 * to fail with "require is not defined". A dynamic import of a URL is not one: code for the page
 * (`page.evaluate(() => import("https://..."))`) may load modules there.
 */
export function requiredModule(source: string): string | null {
  const required = /\brequire\s*\(\s*(["'`])([^"'`\n]{1,214})\1\s*\)/.exec(source);
  if (required) return required[2]!;
  const imported = /\bimport\s*\(\s*(["'`])((?:npm|node|jsr):[^"'`\n]{1,214})\1\s*\)/.exec(
    source,
  );
  return imported ? imported[2]! : null;
}

/** The function's source: decoded when compressed, refused when it is not valid JavaScript. */
export function functionSource(text: string): string {
  const compressed = /^(br|gz|lz)#/.exec(text);
  const source = compressed ? decompress(compressed[1]!, text.slice(3)) : text;
  if (source.length > MAX_FUNCTION_SOURCE) {
    throw invalid(`is longer than ${MAX_FUNCTION_SOURCE / 1024} KiB.`);
  }
  try {
    // Compiled only, to find syntax errors; the page runs it.
    new Function(`return (${source}\n);`);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw invalid(`has a syntax error: ${why.slice(0, 200)}`);
  }
  const module = requiredModule(source);
  if (module !== null) {
    throw invalid(
      `loads the module "${module.slice(0, 100)}": linkpeek runs functions without npm ` +
        `packages or other modules (nothing is installed or read at run time). Use the page ` +
        `(page.evaluate) or return the data and process it on your side.`,
    );
  }
  return source;
}
