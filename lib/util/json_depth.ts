/**
 * JSON that pages, targets and caller code hand linkpeek is parsed only when it nests at most so
 * deep. V8 parses any depth, but structured clone (the DOM workers' messages), the extractors'
 * recursive walks and many clients' parsers overflow on a value nested thousands deep: a
 * 500 EFATAL for any request to such a page before. Too deep reads as not JSON.
 */

/** Levels of arrays and objects page JSON (JSON-LD, a page's state, a manifest) may nest. */
export const PAGE_JSON_DEPTH = 256;

/**
 * Deepest nesting of arrays and objects in JSON text, in one pass (brackets inside strings do
 * not count); it stops once past `max`.
 */
export function jsonDepth(text: string, max: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest && (deepest = depth) > max) return deepest;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return deepest;
}

/** JSON.parse, throwing a SyntaxError for text nested deeper than `maxDepth` levels. */
export function parseJson(text: string, maxDepth: number = PAGE_JSON_DEPTH): unknown {
  if (jsonDepth(text, maxDepth) > maxDepth) {
    throw new SyntaxError(`JSON nested deeper than ${maxDepth} levels`);
  }
  return JSON.parse(text);
}
