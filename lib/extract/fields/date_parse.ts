/**
 * Date parsing: ISO 8601 (with ms, UTC) from the shapes pages use: ISO strings with any offset
 * form (-05:00, -0500, -05, -500), epoch numbers, "June 29, 2017 2:14 PM ET", "29 June 2017",
 * RFC 2822, "2017/06/29", "2019.02.21", "21.02.2019", "2019年2月21日", and dates inside URL
 * paths. Wall-clock times without a zone are read as UTC. Numeric dates whose day and month
 * could swap (05/06/2019) follow the page's language when the caller knows it.
 */

const MONTHS: Record<string, number> = {
  jan: 0,
  feb: 1,
  mar: 2,
  apr: 3,
  may: 4,
  jun: 5,
  jul: 6,
  aug: 7,
  sep: 8,
  sept: 8,
  oct: 9,
  nov: 10,
  dec: 11,
  // a few non-English month names seen in bylines
  janv: 0,
  févr: 1,
  fevr: 1,
  avr: 3,
  mai: 4,
  juin: 5,
  juil: 6,
  août: 7,
  aout: 7,
  déc: 11,
  ene: 0,
  abr: 3,
  ago: 7,
  dic: 11,
  gen: 0,
  mag: 4,
  giu: 5,
  lug: 6,
  ott: 9,
  mär: 2,
  märz: 2,
  okt: 9,
  dez: 11,
};

// Offsets in minutes for zone names that appear in bylines.
const ZONES: Record<string, number> = {
  utc: 0,
  gmt: 0,
  z: 0,
  et: -300,
  est: -300,
  edt: -240,
  ct: -360,
  cst: -360,
  cdt: -300,
  mt: -420,
  mst: -420,
  mdt: -360,
  pt: -480,
  pst: -480,
  pdt: -420,
  bst: 60,
  cet: 60,
  cest: 120,
  ist: 330,
  jst: 540,
  aest: 600,
};

const MONTH_RE = "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|" +
  "sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?";
// A clock time, then a zone name or a numeric offset ("2:14 PM ET", "18:00:03 -0500").
const TIME_RE =
  "(?:\\s*(?:at|,|-|\\u2013|\\||@)?\\s*(\\d{1,2})[:.h](\\d{2})(?::(\\d{2}))?\\s*([ap]\\.?m\\.?)?" +
  "(?:\\s*\\(?([a-z]{1,4}|[+-]\\d{1,2}(?::?\\d{2})?)\\)?(?![\\w:]))?)?";

// Offsets in every form sites write: Z, +05:30, +0530, -05, and -500 (meaning -05:00).
const ISO_RE =
  /(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{1,2}(?::?\d{2})?(?!\d))?)?/i;
const MDY_RE = new RegExp(
  `\\b${MONTH_RE}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})${TIME_RE}`,
  "i",
);
// "2012 Nov 26" (PubMed, NLM citations)
const YMD_NAME_RE = new RegExp(`\\b(\\d{4})\\s+${MONTH_RE}\\s+(\\d{1,2})\\b`, "i");
const DMY_RE = new RegExp(
  `\\b(\\d{1,2})(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?${MONTH_RE},?\\s+(\\d{4})${TIME_RE}`,
  "i",
);
const YMD_SLASH_RE = /\b(\d{4})[/.](\d{1,2})[/.](\d{1,2})\b/;
const MDY_SLASH_RE = /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/;
const DMY_DOT_RE = /\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b/;
// Chinese and Japanese 年月日, Korean 년월일, with an optional clock time (10:30, 10時30分).
const CJK_RE =
  /(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일]?(?:\s*(\d{1,2})\s*[:時시]\s*(\d{1,2}))?/;
const URL_DATE_RE = /\/((?:19|20)\d{2})[/-](\d{1,2})(?:[/-](\d{1,2}))?(?=[/-]|$)/;
const URL_COMPACT_RE = /\/((?:19|20)\d{2})(\d{2})(\d{2})(?=\/|$)/;

function build(
  parts: { y: number; mo: number; d: number; h?: number; mi?: number; s?: number; ms?: number },
  offsetMin = 0,
): string | null {
  const { y, mo, d } = parts;
  if (y < 1900 || y > 2200 || mo < 0 || mo > 11 || d < 1 || d > 31) return null;
  const h = parts.h ?? 0;
  const mi = parts.mi ?? 0;
  const s = parts.s ?? 0;
  if (h > 23 || mi > 59 || s > 60) return null;
  // Reject impossible days (Feb 30) before applying the zone offset.
  if (new Date(Date.UTC(y, mo, d)).getUTCDate() !== d) return null;
  const t = Date.UTC(y, mo, d, h, mi, s, parts.ms ?? 0) - offsetMin * 60_000;
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/** Minutes east of UTC for Z, a numeric offset or a zone name; 0 when unknown. */
function offsetOf(zone: string | undefined): number {
  if (!zone || /^z$/i.test(zone)) return 0;
  const m = /^([+-])(\d{1,2}):?(\d{2})?$/.exec(zone);
  if (!m) return ZONES[zone.toLowerCase()] ?? 0;
  const hours = Number(m[2]);
  const mins = hours * 60 + Number(m[3] ?? 0);
  if (hours > 14 || Number(m[3] ?? 0) > 59) return 0;
  return m[1] === "-" ? -mins : mins;
}

function fromIso(m: RegExpExecArray): string | null {
  const ms = m[7] ? Number(m[7].slice(0, 3).padEnd(3, "0")) : 0;
  return build({
    y: Number(m[1]),
    mo: Number(m[2]) - 1,
    d: Number(m[3]),
    h: m[4] ? Number(m[4]) : 0,
    mi: m[5] ? Number(m[5]) : 0,
    s: m[6] ? Number(m[6]) : 0,
    ms,
  }, offsetOf(m[8]));
}

function clock(h?: string, mi?: string, s?: string, ampm?: string) {
  if (h === undefined) return {};
  let hour = Number(h);
  const pm = ampm && /^p/i.test(ampm);
  if (ampm && hour === 12) hour = pm ? 12 : 0;
  else if (pm) hour += 12;
  return { h: hour, mi: Number(mi ?? 0), s: Number(s ?? 0) };
}

function monthIndex(name: string): number {
  const key = name.toLowerCase().replace(/\.$/, "");
  return MONTHS[key] ?? MONTHS[key.slice(0, 3)] ?? -1;
}

/** Epoch seconds, milliseconds, micro- or nanoseconds to ISO. */
function fromEpoch(n: number): string | null {
  let ms = n;
  if (Math.abs(n) >= 1e16) ms = Math.floor(n / 1e6);
  else if (Math.abs(n) >= 1e14) ms = Math.floor(n / 1e3);
  else if (Math.abs(n) < 1e11) ms = n * 1000;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1970 ? null : d.toISOString();
}

export interface DateOptions {
  /**
   * How to read numeric dates whose day and month could swap (05/06/2019): day first (true),
   * month first (false), or unknown (slashes month first, dots day first).
   */
  dayFirst?: boolean;
}

/** Day, month and year of a numeric date "a?b?y" whose first two parts may be either. */
function ambiguous(a: number, b: number, y: number, dayFirst: boolean): string | null {
  if (a > 12) dayFirst = true;
  else if (b > 12) dayFirst = false;
  return dayFirst ? build({ y, mo: b - 1, d: a }) : build({ y, mo: a - 1, d: b });
}

/** ISO 8601 for a date-ish value found in a page, or null. */
export function toIsoDate(value: unknown, opts: DateOptions = {}): string | null {
  if (typeof value === "number") return Number.isFinite(value) ? fromEpoch(value) : null;
  if (typeof value !== "string") return null;
  const s = value.replace(/\s+/g, " ").trim();
  if (s === "" || s.length > 400) return null;
  if (/^\d{4}$/.test(s)) return build({ y: Number(s), mo: 0, d: 1 });
  if (/^\d{9,19}$/.test(s)) return fromEpoch(Number(s));

  const iso = ISO_RE.exec(s);
  if (iso) return fromIso(iso);

  for (const [re, order] of [[MDY_RE, "mdy"], [DMY_RE, "dmy"]] as const) {
    const m = re.exec(s);
    if (!m) continue;
    const [mon, day] = order === "mdy" ? [m[1]!, m[2]!] : [m[2]!, m[1]!];
    const mo = monthIndex(mon);
    if (mo < 0) continue;
    const offset = offsetOf(m[8]);
    const gmt = /(?:gmt|utc)\s*([+-]\d{2}:?\d{2})/i.exec(s);
    return build(
      { y: Number(m[3]), mo, d: Number(day), ...clock(m[4], m[5], m[6], m[7]) },
      gmt ? offsetOf(gmt[1]) : offset,
    );
  }
  let m = YMD_NAME_RE.exec(s);
  if (m && monthIndex(m[2]!) >= 0) {
    return build({ y: Number(m[1]), mo: monthIndex(m[2]!), d: Number(m[3]) });
  }
  m = CJK_RE.exec(s);
  if (m) {
    const time = m[4] === undefined ? {} : { h: Number(m[4]), mi: Number(m[5]) };
    return build({ y: Number(m[1]), mo: Number(m[2]) - 1, d: Number(m[3]), ...time });
  }
  m = YMD_SLASH_RE.exec(s);
  if (m) return build({ y: Number(m[1]), mo: Number(m[2]) - 1, d: Number(m[3]) });
  m = MDY_SLASH_RE.exec(s);
  if (m) return ambiguous(Number(m[1]), Number(m[2]), Number(m[3]), opts.dayFirst ?? false);
  m = DMY_DOT_RE.exec(s);
  if (m) return ambiguous(Number(m[1]), Number(m[2]), Number(m[3]), opts.dayFirst ?? true);
  return null;
}

/** A date written in a URL's path: /2017/06/29/, /2017-06-29-, /20170629/ or /2017/06/. */
export function dateFromUrl(url: string): string | null {
  const path = URL.parse(url)?.pathname;
  if (path === undefined) return null;
  const m = URL_DATE_RE.exec(path);
  if (m) return build({ y: Number(m[1]), mo: Number(m[2]) - 1, d: Number(m[3] ?? 1) });
  const c = URL_COMPACT_RE.exec(path);
  return c ? build({ y: Number(c[1]), mo: Number(c[2]) - 1, d: Number(c[3]) }) : null;
}
