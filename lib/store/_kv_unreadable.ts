/**
 * The key of a Deno KV value that cannot be read back (its bytes damaged). KV names no key when
 * that happens: a list fails as a whole, at the batch that holds it, so the entry could be
 * neither skipped nor deleted. Two facts of KV's list find it: a list from `cursor` fails iff
 * such a value lies in its range, and keys sort as their parts do (a string part by code point,
 * a shorter string before a longer one it starts). Reached one entry at a time, the damaged key
 * is the one right after the cursor; ranges ending just before or after a guess then spell its
 * string parts out, each character by binary search over the code points.
 */

/** Longer string parts are not searched for: the linkpeek keys this serves are far shorter. */
const MAX_PART_CHARS = 256;
/** Code points a string part may hold: every one but the surrogates (UTF-16 halves). */
const SURROGATES = { first: 0xd800, count: 0x800 };
const CODE_POINTS = 0x110000 - SURROGATES.count;

function character(index: number): string {
  return String.fromCodePoint(index < SURROGATES.first ? index : index + SURROGATES.count);
}

/** Whether listing `selector` from `cursor` meets a value KV cannot read back. */
async function listFails(
  kv: Deno.Kv,
  selector: Deno.KvListSelector,
  options: Deno.KvListOptions,
): Promise<boolean> {
  try {
    for await (const _ of kv.list(selector, options)) { /* each value is read back */ }
    return false;
  } catch (error) {
    if (error instanceof RangeError) return true;
    throw error;
  }
}

/**
 * The first key under `prefix` after `cursor` (a KV list cursor; none: from the start) whose
 * value KV cannot read back, when it is `prefix` and `parts` strings; null when there is none
 * of that shape.
 */
export async function firstUnreadable(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
  parts: number,
  cursor?: string,
): Promise<Deno.KvKey | null> {
  // One entry at a time up to it: the last one read is then the damaged one's neighbour.
  const entries = kv.list({ prefix }, { cursor, batchSize: 1 });
  try {
    for await (const _ of entries) cursor = entries.cursor;
    return null;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  // The damaged key is the first after `cursor`: a list from there ending at `end` fails iff
  // the damaged key sorts before `end`.
  const sortsBefore = (end: Deno.KvKey) => listFails(kv, { prefix, end }, { cursor, limit: 1 });
  const key: Deno.KvKeyPart[] = [...prefix];
  for (let i = 0; i < parts; i++) {
    const part = await stringPart(key, sortsBefore);
    if (part === null) return null;
    key.push(part);
  }
  // Not a key of that shape after all (the search found some other string): not this one's.
  try {
    await kv.get(key);
    return null;
  } catch (error) {
    if (error instanceof RangeError) return key;
    throw error;
  }
}

/** The damaged key's string part after `known` (its first parts), character by character. */
async function stringPart(
  known: Deno.KvKey,
  sortsBefore: (end: Deno.KvKey) => Promise<boolean>,
): Promise<string | null> {
  let text = "";
  while (text.length <= MAX_PART_CHARS) {
    // The part is `text` itself iff the key sorts before the next string after it.
    if (await sortsBefore([...known, `${text}\0`])) return text;
    // Else the next character: the highest whose string `text + c` the key does not sort before.
    // Most keys are ASCII: which half first, then 7 lists a character (else 21).
    let [low, high] = await sortsBefore([...known, `${text}\x80`])
      ? [0, 0x7f]
      : [0x80, CODE_POINTS - 1];
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (await sortsBefore([...known, text + character(middle)])) high = middle - 1;
      else low = middle;
    }
    text += character(low);
  }
  return null;
}
