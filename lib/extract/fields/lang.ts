/** lang: og:locale -> microdata/JSON-LD inLanguage -> <html lang> -> content-language metas. */
import { toLang } from "./lang_codes.ts";
import { type Context, firstOf, itemMeta, ld, meta, type Rule, rulesFor } from "./rules.ts";

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

export const normaliseLang = (value: unknown): string | null => toLang(value);

export const lang = (ctx: Context): string | null =>
  firstOf(rulesFor(ctx, "lang", langRules), normaliseLang, ctx);
