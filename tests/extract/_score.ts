/**
 * The corpus scorer: a TypeScript port of the matching and tallying rules of `score.mjs`, the
 * scorer that ships with the team's extraction corpus (the source of tests/fixtures/corpus), so
 * tests and the benchmark judge alike and a clone needs nothing beside the repository.
 *
 * Only fields a case's `expected` lists are scored. Text fields compare after Unicode NFC and
 * whitespace collapsing, exactly; `lang` also case-insensitively; dates to the UTC day; URL
 * fields as absolute URLs (resolved against the case URL, fragment dropped, one trailing "/"
 * ignored); an expected null matches null, undefined or "". Fields flagged
 * `offline_unreproducible` (values upstream read over the network) are also counted apart.
 */

export const FIELDS = [
  "title",
  "description",
  "author",
  "publisher",
  "date",
  "lang",
  "image",
  "logo",
  "url",
  "audio",
  "video",
] as const;
export type Field = (typeof FIELDS)[number];

const URL_FIELDS = new Set<string>(["url", "image", "logo", "audio", "video"]);

export interface CaseMeta {
  url: string;
  expected: Record<string, unknown>;
  flags?: { offline_unreproducible?: Record<string, string> };
}

export interface FieldScore {
  n: number;
  ok: number;
  nFlagged: number;
  okFlagged: number;
  accuracy: number;
}

export interface Mismatch {
  case: string;
  field: string;
  flagged: boolean;
  expected: unknown;
  actual: unknown;
}

export interface ScoreReport {
  cases: number;
  fields: Partial<Record<Field, FieldScore>>;
  overall: {
    n: number;
    ok: number;
    micro: number;
    excluding_flagged: { n: number; ok: number; micro: number };
  };
  mismatches: Mismatch[];
}

const isEmpty = (v: unknown) =>
  v === null || v === undefined || (typeof v === "string" && v.trim() === "");
const normText = (v: unknown) => String(v).normalize("NFC").replace(/\s+/g, " ").trim();

function normUrl(v: unknown, base: string): string {
  try {
    const u = new URL(String(v).trim(), base);
    u.hash = "";
    if (u.pathname.length > 1 && u.pathname.endsWith("/")) u.pathname = u.pathname.slice(0, -1);
    return u.href;
  } catch {
    return normText(v);
  }
}

function normDate(v: unknown): string | null {
  const d = new Date(typeof v === "number" ? v : String(v).trim());
  return Number.isNaN(d.getTime()) ? null : d.toISOString().slice(0, 10);
}

/** Does `actual` count as `expected` for `field` on a page fetched from `base`? */
export function matches(field: string, expected: unknown, actual: unknown, base: string): boolean {
  // media fields may come as objects ({ url, type, size, ... }): compare their url
  if (URL_FIELDS.has(field) && actual && typeof actual === "object") {
    actual = (actual as { url?: unknown }).url;
  }
  if (expected === null) return isEmpty(actual);
  if (isEmpty(actual)) return false;
  if (URL_FIELDS.has(field)) return normUrl(expected, base) === normUrl(actual, base);
  if (field === "date") {
    const e = normDate(expected);
    const a = normDate(actual);
    return e && a ? e === a : normText(expected) === normText(actual);
  }
  if (field === "lang") return normText(expected).toLowerCase() === normText(actual).toLowerCase();
  return normText(expected) === normText(actual);
}

/** Scores `outputs` (case name -> fields) against each case's expected values. */
export function score(
  cases: { name: string; meta: CaseMeta }[],
  outputs: Record<string, Record<string, unknown> | undefined>,
): ScoreReport {
  const tally = new Map<Field, FieldScore>();
  const mismatches: Mismatch[] = [];
  for (const { name, meta } of cases) {
    const out = outputs[name];
    const failed = !out || typeof out !== "object" || "_error" in out;
    for (const [field, expected] of Object.entries(meta.expected)) {
      if (!(FIELDS as readonly string[]).includes(field)) continue;
      const actual = failed ? undefined : out[field];
      const good = !failed && matches(field, expected, actual, meta.url);
      const flagged = !!meta.flags?.offline_unreproducible?.[field];
      const s = tally.get(field as Field) ??
        { n: 0, ok: 0, nFlagged: 0, okFlagged: 0, accuracy: 0 };
      tally.set(field as Field, s);
      s.n++;
      if (good) s.ok++;
      if (flagged) {
        s.nFlagged++;
        if (good) s.okFlagged++;
      }
      if (!good) mismatches.push({ case: name, field, flagged, expected, actual: actual ?? null });
    }
  }
  const fields: ScoreReport["fields"] = {};
  let n = 0, ok = 0, exN = 0, exOk = 0;
  for (const f of FIELDS) {
    const s = tally.get(f);
    if (!s) continue;
    s.accuracy = s.ok / s.n;
    fields[f] = s;
    n += s.n;
    ok += s.ok;
    exN += s.n - s.nFlagged;
    exOk += s.ok - s.okFlagged;
  }
  return {
    cases: cases.length,
    fields,
    overall: {
      n,
      ok,
      micro: n ? ok / n : 0,
      excluding_flagged: { n: exN, ok: exOk, micro: exN ? exOk / exN : 0 },
    },
    mismatches,
  };
}

/** Accuracy of a field leaving out the values flagged offline-unreproducible. */
export function exclAccuracy(f: FieldScore): number {
  const n = f.n - f.nFlagged;
  return n ? (f.ok - f.okFlagged) / n : 1;
}
