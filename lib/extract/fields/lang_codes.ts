/** Language normaliser: "en-US", "en_GB", "eng", "English" -> ISO 639-1 ("en"). */

const ISO_639_1 = new Set(
  ("aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv " +
    "cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr " +
    "ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw " +
    "ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv " +
    "ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr " +
    "ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi " +
    "yo za zh zu").split(" "),
);

// ISO 639-2/3 codes (bibliographic and terminology) of the languages the web mostly uses.
const THREE_TO_ONE: Record<string, string> = {
  eng: "en",
  spa: "es",
  fra: "fr",
  fre: "fr",
  deu: "de",
  ger: "de",
  ita: "it",
  por: "pt",
  rus: "ru",
  jpn: "ja",
  zho: "zh",
  chi: "zh",
  cmn: "zh",
  kor: "ko",
  ara: "ar",
  nld: "nl",
  dut: "nl",
  pol: "pl",
  tur: "tr",
  swe: "sv",
  dan: "da",
  nor: "no",
  nob: "nb",
  nno: "nn",
  fin: "fi",
  ces: "cs",
  cze: "cs",
  ell: "el",
  gre: "el",
  heb: "he",
  hin: "hi",
  ukr: "uk",
  vie: "vi",
  tha: "th",
  ind: "id",
  msa: "ms",
  may: "ms",
  ron: "ro",
  rum: "ro",
  hun: "hu",
  cat: "ca",
  bul: "bg",
  hrv: "hr",
  srp: "sr",
  slk: "sk",
  slo: "sk",
  slv: "sl",
  est: "et",
  lav: "lv",
  lit: "lt",
  fas: "fa",
  per: "fa",
  urd: "ur",
  ben: "bn",
  tam: "ta",
  tel: "te",
  mar: "mr",
  guj: "gu",
  kan: "kn",
  mal: "ml",
  pan: "pa",
  eus: "eu",
  baq: "eu",
  glg: "gl",
  isl: "is",
  ice: "is",
  gle: "ga",
  cym: "cy",
  wel: "cy",
  afr: "af",
  swa: "sw",
  tgl: "tl",
  sqi: "sq",
  alb: "sq",
  hye: "hy",
  arm: "hy",
  kat: "ka",
  geo: "ka",
  kaz: "kk",
  aze: "az",
  uzb: "uz",
  bel: "be",
  mkd: "mk",
  mac: "mk",
  lat: "la",
  epo: "eo",
  bos: "bs",
  mlt: "mt",
};

const NAMES: Record<string, string> = {
  english: "en",
  spanish: "es",
  español: "es",
  french: "fr",
  français: "fr",
  german: "de",
  deutsch: "de",
  italian: "it",
  italiano: "it",
  portuguese: "pt",
  português: "pt",
  russian: "ru",
  русский: "ru",
  japanese: "ja",
  日本語: "ja",
  chinese: "zh",
  中文: "zh",
  korean: "ko",
  dutch: "nl",
  polish: "pl",
  polski: "pl",
  turkish: "tr",
  arabic: "ar",
};

/** ISO 639-1 code for a language tag or name, or null when it names no language. */
export function toLang(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const s = value.trim().toLowerCase();
  if (s === "") return null;
  if (Object.hasOwn(NAMES, s)) return NAMES[s]!;
  const primary = s.split(/[-_\s,;]/)[0]!;
  if (primary.length === 2) return ISO_639_1.has(primary) ? primary : null;
  if (primary.length === 3) {
    return Object.hasOwn(THREE_TO_ONE, primary) ? THREE_TO_ONE[primary]! : null;
  }
  return null;
}
