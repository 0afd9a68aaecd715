/**
 * Short blocks whose words give them away as chrome, whatever their markup: captions and
 * credits, bylines and datelines, "Read more"/"Related" lines, appeals to subscribe or donate,
 * copyright lines, sharing prompts. Only blocks this short are judged by their words: a long
 * paragraph that mentions subscribing is still prose. A phrase ends at a word's end ("Most
 * reads ..." is no "Most read" list).
 */
export const SHORT_BLOCK = 160;

const CHROME_LINE = new RegExp(
  "^(?:" + [
    "read (?:more|next|also|the full)",
    "related(?: (?:articles?|stories|posts|content|coverage|links|reading))?\\s*:?$",
    "related\\s*:",
    "see also",
    "more (?:from|on|stories|news|articles|like this)",
    "most (?:popular|read|viewed|shared|commented)",
    "(?:don'?t|do not) miss",
    "trending",
    "recommended(?: for you)?",
    "you (?:may|might) (?:also )?(?:like|enjoy|be interested)",
    "(?:photo|image|picture|foto|bild|video|graphic|illustration)s?\\s*(?:credit)?\\s*:",
    "(?:credit|source|quelle|fuente)s?\\s*:",
    "\\(?(?:photo|image|foto|bild)\\)?\\s*[:©(]",
    "\\d+ (?:of|/|von|de|sur) \\d+$",
    "©|\\(c\\)\\s*\\d{4}|copyright\\b",
    "all rights reserved",
    "(?:subscribe|sign up|signup|register|log ?in|join)\\b.{0,80}(?:newsletter|free|today|now|account|updates|inbox|to)",
    "(?:support|donate|become a (?:member|subscriber|patron))\\b",
    "share (?:this|on)|share:?$|tweet|follow us",
    "(?:posted|published|updated|last updated|veröffentlicht|aktualisiert|publié|publicado)\\b.{0,60}\\d",
    "advertisement|anzeige|werbung|publicidad|publicité",
    "(?:tags?|filed under|categories|category|schlagworte|themen)\\s*:",
    "comments?\\s*\\(?\\d*\\)?$",
    "\\d+ comments?$",
    "(?:leave|post|write|add) a (?:comment|reply)",
    "(?:previous|next) (?:article|post|story)",
    "back to top",
    // The same in the corpus's other languages.
    "le[ae] (?:también|tambem|também|más|mais|más noticias)|lea\\s*:|leia\\s*:",
    "lesen sie (?:auch|mehr|hier)|weiterlesen|mehr zum thema|auch interessant",
    "das könnte sie (?:auch )?interessieren|empfehlungen|verwandte|ähnliche (?:artikel|beiträge)",
    "lire (?:aussi|la suite|plus|également)|à lire aussi|articles? (?:similaires|liés)",
    "(?:artículos|noticias|notas) relacionad[ao]s|te puede interesar|leggi anche",
    "czytaj (?:też|także|również|więcej)|zobacz (?:też|także|również)|powiązane",
    "(?:beitrag |artikel )?teilen|partager|compartir|compartilhe|udostępnij|permalien|permalink",
    "(?:\\d+ )?(?:kommentare?|commentaires?|comentarios?|komentarze?|responses?)\\s*\\(?\\d*\\)?$",
    "no (?:responses?|comments?) (?:so far|yet)",
    "(?:\\S+ )?is powered by|powered by",
  ].join("|") + ")(?![\\p{L}\\p{N}])",
  "iu",
);

/** A byline: "By Jane Doe", "Von Hans Müller", "Por ...", short and with a name after it. */
const BYLINE =
  /^(?:by|von|por|par|di|door|przez)\s+\p{Lu}[\p{L}.'-]*(?:\s+\p{Lu}[\p{L}.'-]*){0,4}\b/u;

/** Whether a short block's text reads as chrome. */
export function isChromeText(text: string): boolean {
  if (!text || text.length > SHORT_BLOCK) return false;
  return CHROME_LINE.test(text) || (text.length < 80 && BYLINE.test(text));
}
