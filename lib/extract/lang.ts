/** lang: og:locale -> microdata/JSON-LD inLanguage -> <html lang> -> content-language metas. */
import { toLang } from "./languages.ts";
import { type Context, firstOf, itemMeta, ld, meta, type Rule } from "./rules.ts";

export const langRules: Rule[] = [
  meta("og:locale"),
  itemMeta("inlanguage"),
  ({ rec }) => rec.htmlLang,
  ld("inLanguage"),
  meta("content-language"),
  meta("language"),
  meta("dc.language"),
  meta("dcterms.language"),
];

export const lang = (ctx: Context): string | null => firstOf(langRules, (v) => toLang(v), ctx);
