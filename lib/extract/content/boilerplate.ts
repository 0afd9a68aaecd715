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
    "related(?: (?:articles?|stories|posts|content|coverage|links|reading|topics|searches))?\\s*:?$",
    // Ad networks' widgets and a share tool's states, by their labels.
    "(?:from our partners|promoted (?:stories|content|links)|around the web|ad feedback|" +
    "paid partner content|copy link|link copied)$|click here to read more",
    "related\\s*:",
    "see also",
    "more (?:from|on|stories|news|articles|like this|coverage|reading|to read)",
    "(?:the )?(?:story|article) continues (?:below|after)",
    "most (?:popular|read|viewed|shared|commented)",
    "(?:don'?t|do not) miss",
    "trending",
    "recommended(?: for you)?",
    "you (?:may|might) (?:also )?(?:like|enjoy|be interested)",
    "(?:photo|image|imagen|picture|foto|fotografía|bild|bildquelle|abbildung|grafik|video|audio|" +
    "podcast|graphic|illustration)s?" +
    "\\s*(?:credit|source)?s?\\s*:",
    "(?:titel|beitrags|symbol|header|vorschau)bild\\s*:",
    "(?:credit|crédito|source|quelle|fuente|fonte)s?\\s*:",
    // A photo's credit in the corpus's other languages, and a label saying a photo is a stock or
    // an archive one ("Foto di ...", "Symbolbild", "Foto de archivo").
    "foto di .+|(?:symbol|archiv)bild$|foto de archivo$",
    "\\(?(?:photo|image|foto|bild)\\)?\\s*[:©(]",
    "\\(?(?:image|photo|picture|foto|bild)\\s+(?:source|credit|courtesy)s?\\)?$",
    "\\d+ (?:of|/|von|de|sur) \\d+$",
    // A line opening on the copyright sign is a credit, its owner set close ("©Thinkstock").
    "©.*|\\(c\\)\\s*\\d{4}|copyright\\b",
    "all rights reserved",
    // A call to sign up "to" something, not a product's tagline naming a "to-do list".
    "(?:subscribe|sign up|signup|register|log ?in|join)\\b.{0,80}(?:newsletter|free|today|now|account|updates|inbox|to(?!-))",
    // Not a feature's line ("Support for large files: ...").
    "(?:support(?! (?:for|of)\\b)|donate|become a (?:member|subscriber|patron))\\b",
    "share (?:this|on)|share:?$|tweet|follow us",
    // A share bar's buttons and count read as one line ("Share 12 Tweet Pin It").
    "share(?:\\s+\\d+)?\\s+(?:tweet|pin(?: it)?|e-?mail|facebook)\\b",
    // (A word's end read as no letter follows: \\b does not see one after "é".)
    "(?:posted|published|updated|last updated|veröffentlicht|aktualisiert|publié|modifié|" +
    "mis à jour|publicado|actualizado|pubblicato|aggiornato|ultimo aggiornamento|opublikowano|" +
    "zaktualizowano|atualizado)(?![\\p{L}\\p{N}]).{0,60}\\d",
    // A date and a name, set apart by a dash or a bar: "11.12.2019 - Jane Doe".
    "(?:\\d{1,4}[./-]\\d{1,2}[./-]\\d{2,4}|\\p{L}{3,}\\.? \\d{1,2},? \\d{4}|\\d{1,2}\\.? \\p{L}{3,}\\.? \\d{4})" +
    "\\s*[-–|·•]\\s*(?:by |von |par |por )?\\p{Lu}[\\p{L}.'-]+(?:\\s+\\p{Lu}[\\p{L}.'-]+){0,3}$",
    // A paywall's buttons alone on their line.
    "(?:subscribe|sign in|log in|register|give|donate|contribute)(?: now| today| here)?[.!]?$|" +
    "(?:view|see|compare) (?:all )?(?:plans|subscription options|offers)$",
    // Links that skip to the page's content, for keyboard and screen reader users.
    "skip to (?:the )?(?:main )?(?:content|navigation|search|footer)|(?:zum|direkt zum) inhalt" +
    "(?: springen)?$|aller au contenu|(?:saltar|ir) al contenido|przejdź do (?:treści|zawartości)",
    "advertisements?|anzeige|werbung|publicidad|publicité",
    // Share buttons' words (WordPress's "Click to share on X (Opens in new window)").
    "click to (?:share|email|print)\\b|\\(?opens in (?:a )?new (?:window|tab)\\)?$",
    // A print button's words alone on their line, its label repeated before it ("Imprimer
    // Imprimer cette page"), and the like for sending the story on. English "print" alone is a
    // word of code too (a highlighted span of a program).
    "pin (?:this|it)(?: (?:for later|now))?[.!]?$",
    "(?:(?:imprimer|drucken|imprimir)\\s+)?(?:imprimer|drucken|imprimir|stampa|drukuj)(?:\\s+" +
    "(?:(?:cette|diese[ns]?|esta|questa)\\s+)?(?:page|article|artikel|seite|página|pagina|beitrag))?$",
    "print (?:this )?(?:page|article|story|post)$|(?:e-?mail|send) (?:this|to a friend)\\b",
    "(?:artikel|seite|beitrag) (?:drucken|versenden|empfehlen)$",
    "continue reading (?:the main story|below)$|reuse this content|our standards\\s*:",
    // A news page's controls and labels, alone on their line ("Skip Advertisement", "Share full
    // article", "Credit...Jane Doe", "Hide caption", "Gift this article").
    "skip advertisement$|supported by$|share (?:full )?(?:article|story)$|" +
    "(?:read|view|show|hide) (?:all )?(?:\\d+ )?comments$|credit\\.{2,}.*|" +
    "listen\\s*[·•|-]?\\s*\\d+:\\d+(?: min)?$|send any friend a story$|" +
    "want more stories like this\\??$|get the latest (?:news|updates)$|watch the video$|" +
    "(?:hide|toggle|show) caption$|enlarge this image$|expand image$|open in (?:the )?app$|" +
    "continue reading$|(?:gift|save) (?:this )?article$|report an error$|" +
    "corrections? policy$",
    // The same calls and labels in the corpus's other languages, alone on their line.
    "zur (?:startseite|übersicht)$|(?:newsletter|jetzt) (?:abonnieren|bestellen)$|" +
    "mehr (?:artikel|nachrichten|news|videos)$|zum thema$|top-?themen$|meist ?gelesene?$|" +
    "mit material (?:von|der|des) .*|alle angaben ohne gewähr|" +
    "síguenos en|comparte (?:esta|la) (?:noticia|nota|publicación)|más (?:noticias|leídas)$|" +
    "sur le même sujet$|à (?:voir|lire) (?:aussi|également)|envoyer par (?:e-?mail|courriel)|" +
    "réagir$|mis à jour le\\b.{0,40}\\d",
    // Where the page sits in the site: a breadcrumb's label.
    "(?:you are here|sie sind hier|vous êtes ici|usted está en)\\s*:",
    // A news agency's name alone, its credit for the story.
    "\\(?(?:dpa|afp|ap|reuters|efe|ansa|apa|sda|kna|epd|ddp|europa press)\\)?$",
    "(?:tags?|filed under|categories|category|schlagworte|themen|labels)\\s*:",
    // Blogger's lines around a post: its reactions, the pager, its share bar.
    "reactions\\s*:$|\\d+ comments?\\s*:$|(?:newer|older) posts?(?: (?:newer|older) posts?)?(?: home)?$|" +
    "email thisblogthis|share to (?:twitter|facebook|pinterest|x)$",
    "comments?\\s*\\(?\\d*\\)?$",
    "\\d+ comments?$",
    // A feed's counters alone on their line ("44 reactions", "1.2k views").
    "[\\d.,]+k? (?:reactions?|likes?|upvotes?|shares?|views?)$",
    "(?:leave|post|write|add) a (?:comment|reply)",
    "your email address will not be published",
    "(?:previous|next) (?:article|post|story)",
    "back to top",
    "listen to (?:this|the) (?:article|story|podcast)",
    "your browser does not support",
    "rate this (?:article|post|story)",
    "(?:like|share) this:?$|like loading",
    "loading\\.{0,3}$|wird geladen|chargement",
    // A widget's placeholder until its script fills it ("Loading comments...").
    "(?:loading|checking)\\b[^.]{0,40}(?:\\.{3}|…)$",
    // Forum software's lines around posts: an edit note, a fold, a call to join, who reads.
    "(?:last )?edited\\b.{0,60}\\bby\\b",
    "click to (?:expand|collapse|enlarge)\\b",
    "create an account\\b|you need to be a member\\b|recently browsing\\b|no registered users\\b",
    "disclaimer\\s*:",
    "(?:photo|image|picture|illustration)s? (?:by|courtesy|via|from)\\b",
    // A photo's credit line ending on an agency ("Jane Doe / Staff via Getty Images").
    ".{0,80}\\b(?:getty ?images|ap photo|shutterstock|istock(?:photo)?|unsplash|pexels|" +
    "pixabay)\\b[^.]{0,30}$",
    "photograph(?:er)?s?\\s*:",
    "(?:image|photo|figure|abbildung|bild|foto) \\d+\\s*[:.]",
    "\\d+\\s*(?:min(?:ute)?s?|minuten) (?:read|lesezeit|de lecture|de lectura)",
    "(?:lesezeit|lesedauer|reading time|temps de lecture|tiempo de lectura|tempo di lettura|" +
    "tempo de leitura|czas (?:czytania|lektury))\\s*:?|lectura\\s*:\\s*\\d",
    "(?:top|nach oben|haut de page|volver arriba)$",
    // Calls to act, alone on their line or button.
    "(?:learn|see|find out|discover|show|load|view) (?:more|all)$|get started$|shop now|buy now",
    "already (?:have an account|a (?:member|subscriber))",
    "follow .{0,40}\\b(?:on|auf|en|sur|w) (?:twitter|facebook|instagram|x|linkedin|tiktok|youtube)",
    "download (?:the|our) .{0,40}\\bapps?\\b",
    "(?:hazte|sé|become a|werde|devenez) (?:miembro|socio|member|mitglied|membre)",
    "(?:comments are|kommentare sind|les commentaires sont) (?:closed|geschlossen|fermés)",
    "you must be logged in|sie müssen (?:sich )?(?:eingeloggt|angemeldet|einloggen|registriert)",
    "this (?:post|story|article) (?:has been|was) updated|this (?:entry|post) was posted|(?:dieser |der )?beitrag wurde (?:am|von|in)",
    "last (?:modified|reviewed|edited)|zuletzt (?:geändert|aktualisiert)|date last reviewed",
    "zum weiterlesen|weiterführende (?:links|artikel)|puedes ver|mira\\s*:|ver (?:también|más)\\s*:",
    "ten tekst przeczytasz|materiał chroniony prawem|wszelkie prawa zastrzeżone",
    "alle rechte vorbehalten|tous droits réservés|todos los derechos reservados",
    // Forum software's labels around posts (XenForo, vBulletin, phpBB, Discourse).
    "thread starter|start date|reaction score|thread tools|display modes|search forums",
    // Question-and-answer sites' labels above a question.
    "(?:asked|modified|active|answered)\\s+\\d+ (?:years?|months?|days?|hours?|mins?)\\b" +
    ".{0,30}ago$",
    "viewed [\\d.,]+[km]? times$|not the answer you're looking for\\?",
    // A recipe card's call to share ("Tried this recipe? Mention @site ...").
    "tried this recipe\\?",
    // A code block's copy button ("Copy", "Copy code", "Copied!").
    "(?:copy|copied)(?: code| to clipboard)?!?$",
    // A wiki's edit links beside a heading ("[edit]", "[Bearbeiten | Quelltext bearbeiten]") and
    // its tagline ("From Wikipedia, the free encyclopedia").
    "\\[\\s*(?:edit|bearbeiten|modifier|editar|modifica)\\b[^\\]]{0,40}\\]$|" +
    "from wikipedia, the free encyclopedia$",
    "join(?:ed)? date\\s*:|joined\\s*:?$|registered user$|new posts$|posts\\s*:\\s*[\\d.,]+$",
    // The poster's panel beside a post: when they joined, whether they are online
    // ("Registered: 2024-01-27", "Member since Jan 2020", "Offline").
    "(?:registered|member since)\\s*:?\\s*[\\p{L}\\d ,./-]{0,30}$|joined\\s*:.{0,30}$|(?:on|off)line$",
    // A board's rules box and clock under a thread (vBulletin, phpBB): "You may not post
    // replies", "BB code is On", "All times are GMT +1", "« Previous Thread | Next Thread »".
    "you may (?:not )?(?:post|edit|reply)\\b.{0,30}$|(?:bb code|smilies|\\[img\\] code|html code)" +
    " (?:is|are) (?:on|off)$|all times are (?:gmt|utc)\\b|(?:posting|forum) rules$|" +
    "«?\\s*previous thread\\s*\\|\\s*next thread|#\\d{1,6}\\s*\\|\\s*link$",
    // A post's own buttons and counts, alone on their line ("Link to post", "Report post",
    // "Improve this answer", "Replies", "Views").
    "link to (?:this )?(?:post|comment|reply|answer)$|(?:report|quote|reply to) (?:this )?post$",
    "(?:improve|follow) this (?:answer|question|post)$|(?:reply|replies|views)$",
    // The same in the corpus's other languages.
    "le[ae] (?:también|tambem|também|más|mais|más noticias)|lea\\s*:|leia\\s*:",
    "lesen sie (?:auch|mehr|hier)|weiterlesen|mehr zum thema|auch interessant",
    "das könnte sie (?:auch )?interessieren|empfehlungen|verwandte|ähnliche (?:artikel|beiträge)",
    "lire (?:aussi|la suite|plus|également)|à lire aussi|articles? (?:similaires|liés)",
    "(?:artículos|noticias|notas) relacionad[ao]s|te puede interesar|leggi anche",
    "czytaj (?:też|także|również|więcej)|zobacz (?:też|także|również|więcej)|powiązane",
    "(?:mehr anzeigen|voir plus|ver más|leer más)$",
    "(?:beitrag |artikel )?teilen|partager|compartir|compartilhe|udostępnij|permalien|permalink",
    "(?:\\d+ )?(?:kommentare?|commentaires?|comentarios?|komentarze?|responses?)\\s*\\(?\\d*\\)?$",
    "no (?:responses?|comments?) (?:so far|yet)",
    "(?:\\S+ )?is powered by|powered by",
    // Sharing and liking widgets of blog software, in the corpus's languages.
    "teilen sie (?:dies|das|diesen (?:beitrag|artikel))",
    "(?:\\S+ )?(?:bloggers like this|bloggern gefällt das)",
    "(?:gefällt mir|j'aime|me gusta)\\s*:?(?:\\s+(?:wird geladen|chargement|cargando)\\W*)?$",
    // Prompts under the story to comment or to log in first.
    "(?:kommentieren|commenter|comentar|skomentuj)$",
    "(?:du musst|you must|vous devez|debes|musisz) (?:be |être |)?(?:eingeloggt|angemeldet|logged|connecté|iniciar|zalogowany)",
    "(?:le|te) puede(?:n)? interesar",
    // Contributors named under a story ("Additional reporting by ...", "With reporting from").
    "\\(?(?:(?:with )?(?:additional )?reporting (?:by|from)|writing by|editing by)\\b",
    // News sites' labels of a picture or video and of an old story.
    "(?:image|media) (?:copyright|caption|source)|watch\\s*:",
    "this (?:article|story) is (?:more than|over) (?:a|an|\\d+) \\w+ old",
  ].join("|") + ")(?![\\p{L}\\p{N}])",
  "iu",
);

/**
 * A byline: "By Jane Doe", "Von Hans Müller", "Por ...", "Authors: ...", short and with a
 * name after it.
 */
const BYLINE =
  /^(?:(?:(?:[Pp]osted|[Ee]ingestellt|[Pp]ublicado|[Ww]ritten|[Rr]eported|[Ee]dited|(?:[Mm]edically )?[Rr]eviewed|[Ff]act[- ][Cc]hecked|[Pp]hotographed|[Ii]llustrated) (?:[Bb]y|von|por)|[Bb]y|BY|[Vv]on|[Pp]or|[Pp]ar|[Dd]oor|[Pp]rzez)\s+|(?:[Aa]utor(?:en|in|es)?|[Aa]uthors?|[Aa]uteurs?)\s*:\s*)\p{Lu}[\p{L}.'-]*(?:\s+\p{Lu}[\p{L}.'-]*){0,4}(?![\p{L}])|^\p{Lu}[\p{L}.'-]+(?:\s+\p{Lu}[\p{L}.'-]+){1,3},\s+(?:(?:[Ss]enior|[Ss]taff|[Cc]ontributing|[Ss]pecial|[Ff]reelance|[Ss]cience|[Hh]ealth|[Pp]olitical|[Ff]oreign|[Nn]ews|[Ss]ports)\s+)?(?:[Ww]riter|[Rr]eporter|[Cc]orrespondent|[Ee]ditor|[Cc]ontributor|[Cc]olumnist)s?$/u;

/** An author's label, whatever follows it (a name, a site: "Autor: www.example.pl"). */
const AUTHOR_LABEL =
  /^(?:(?:autor(?:en|in|es|a|zy)?|authors?|auteurs?|verfasser(?:in)?|redaktion|redacción|rédaction)\s*:|(?:redacción|redaktion|rédaction)$|escrito por\s+\p{Lu})/iu;

/**
 * Time zones a dateline names ("10:30 AM EST", "14.00 Uhr MESZ"): by name, as a pattern such as
 * three letters ending in t also read "Part 2" and "Best 10" as dates.
 */
const TIME_ZONES = "(?:[ecmp][sd]t|ak[sd]t|hst|bst|ist|[ew]est|[ecw]et|cest|jst|kst|hkt|sgt|" +
  "a[ecw][sd]t|nz[sd]t|msk|mesz?)";
/**
 * Months and weekdays in the corpus's languages (English, German, French, Spanish, Italian,
 * Portuguese), whole or abbreviated, by name: a pattern of their endings also read headings
 * such as "Tier 1", "Cars 2" or "Beitrag 3" as dates.
 */
const CALENDAR_NAMES = (
  "january february march april may june july august september october november december " +
  "jan feb mar apr jun jul aug sep sept oct nov dec " +
  "januar februar märz mai juni juli oktober dezember okt dez " +
  "janvier février mars avril juin juillet août septembre octobre novembre décembre " +
  "janv févr fév avr juil déc " +
  "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre " +
  "ene abr ago dic " +
  "gennaio febbraio aprile maggio giugno luglio settembre ottobre dicembre " +
  "janeiro fevereiro março maio junho julho setembro outubro novembro dezembro " +
  "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs " +
  "fri sat sun montag dienstag mittwoch donnerstag freitag samstag sonntag sonnabend " +
  "lundi mardi mercredi jeudi vendredi samedi dimanche " +
  "lunes martes miércoles jueves viernes sábado domingo " +
  "lunedì martedì mercoledì giovedì venerdì lunedi martedi mercoledi giovedi venerdi sabato " +
  "domenica segunda terça quarta quinta sexta feira"
).split(" ").join("|");
/**
 * A line that is only a date (and time): "June 13, 2025", "8/1/2025", "Mittwoch, 3. März
 * 2021, 10:30 Uhr".
 */
const DATE_WORD = "(?:" + CALENDAR_NAMES + "|am|pm|at|um|uhr|de|del|le|à|a|h|on|gmt|utc|last|" +
  "updated|published|posted|modified|aktualisiert|veröffentlicht|stand|data|datum|date|fecha|" +
  "mis à jour|publié|actualizado|publicado|atualizado|pubblicato|aggiornato|gepubliceerd|" +
  "bijgewerkt|publikacja|aktualizacja|opublikowano|zaktualizowano|" + TIME_ZONES +
  ")\\.?(?!\\p{L})";
const DATE_LINE = new RegExp(
  `^(?:(?:${DATE_WORD}|\\d{1,4}(?:[./:-]\\d{1,4}){0,2}(?!\\d)\\.?(?:st|nd|rd|th)?)[\\s,:|·•–-]*){1,8}$`,
  "iu",
);

/** Whether a short line is a byline ("By Jane Doe", "Von Hans Müller for the Agency"). */
export function isByline(text: string): boolean {
  return text.length < 80 && BYLINE.test(text);
}

/** Whether a line of any length opens with chrome words ("Read more:", "Related:"). */
export function startsAsChrome(text: string): boolean {
  return CHROME_LINE.test(text);
}

/** Whether a short block's text reads as chrome (with `bylines`, "By Jane Doe" too). */
export function isChromeText(text: string, bylines = true): boolean {
  if (!text || text.length > SHORT_BLOCK) return false;
  if (CHROME_LINE.test(text)) return true;
  return bylines && text.length < 80 && (BYLINE.test(text) || AUTHOR_LABEL.test(text));
}

/** A whole date written in numbers: 8/1/2025, 2025-08-01, 01.08.25. */
const NUMERIC_DATE = /\d{1,4}([./-])\d{1,2}\1\d{2,4}/;
const NAMED = /\p{L}{3}/u;

/**
 * Whether a line holds a date (and time) and nothing else: a named month or day, or a whole
 * numeric date (a section number "4.4.1" or a score "11-10" is none).
 */
export function isDateLine(text: string): boolean {
  if (text.length > 60 || !/\d/.test(text)) return false;
  return (NAMED.test(text) || NUMERIC_DATE.test(text)) && DATE_LINE.test(text);
}

/**
 * Names of a block of chrome when they head it: "Related posts", "More from ...", "Most
 * popular", "Recommended for you", "Comments", "Tags". A container whose first line is one of
 * these is that block, whatever else it holds.
 */
const SECTION_HEAD = new RegExp(
  "^(?:" + [
    "related\\b",
    "(?:you (?:may|might) (?:also )?(?:like|enjoy|be interested))",
    "(?:more|latest|top|popular|trending|recommended|recent|other|similar|further|related) " +
    "(?:from|on|in|stories|news|articles?|posts?|reads?|reading|videos?|like this|" +
    "headlines|content|coverage|links|topics|guides|resources)\\b",
    "(?:most (?:popular|read|viewed|shared|commented|recent))",
    "(?:popular|trending|recommended|recent posts|latest|top stories|editor'?s picks)\\s*:?$",
    "(?:(?:don'?t|do not) miss|also read|read (?:more|next|also)|see also|what to read next)",
    "(?:comments?|leave a (?:comment|reply)|join the conversation)",
    // WordPress's count over the comments: "3 Responses to ...", "One thought on ...".
    "(?:\\d+|one|two|three|four|five) (?:thoughts?|responses?|comments?|replies)(?: (?:on|to)\\b|$)",
    "(?:tags?|filed under|share (?:this|the)|follow us|about the author)\\b",
    "(?:lesen sie (?:auch|mehr)|mehr zum thema|auch interessant|weitere (?:artikel|beiträge|" +
    "nachrichten|themen)|das könnte sie|empfehlungen|meistgelesen|kommentare|ähnliche)",
    "(?:à lire aussi|lire aussi|sur le même sujet|articles? (?:similaires|liés|récents)|" +
    "les plus lus|commentaires)",
    "(?:noticias relacionadas|(?:artículos|notas) relacionad[ao]s|te puede interesar|lo más " +
    "(?:leído|visto)|más (?:noticias|leídas)|comentarios|leia (?:também|mais))",
    "(?:czytaj (?:też|także|również|więcej)|zobacz (?:też|także|również)|najczęściej|" +
    "powiązane|komentarze|polecane|warte przeczytania)",
    "(?:audios? et )?vidéos sur le (?:même )?sujet",
    "mehr (?:aus|von|vom) \\p{L}+",
    "(?:también )?te recomendamos|recomendado para ti|nos articles recommandés|" +
    "(?:nos )?recommandations|vous aimerez aussi|à découvrir (?:aussi|également)",
    "(?:ti )?potrebbe interessarti|articoli correlati|leggi anche",
    "(?:热门推荐|相关阅读|相关新闻|相关文章|推荐阅读|热点新闻)",
  ].join("|") + ")(?![\\p{L}\\p{N}])",
  "iu",
);

/** Whether the first line of a block names it as chrome. */
export function isChromeHeading(text: string): boolean {
  return text.length <= 60 && SECTION_HEAD.test(text);
}

/**
 * A sponsor's label over its block: an advertiser's pitch beside a story (on a listing or a
 * forum, sponsored entries are among the page's items).
 */
const SPONSOR_HEAD =
  /^(?:(?:sponsored|paid|partner) (?:content|post|story|links?)|sponsored by\b|sponsored\s*:?$)/i;

/** Whether the first line of a block labels it as a sponsor's. */
export function isSponsorHeading(text: string): boolean {
  return text.length <= 60 && SPONSOR_HEAD.test(text);
}

/**
 * Appeals a line makes anywhere in it, not only at its start: to subscribe to a newsletter,
 * support the journalism, become a member, get the app, follow the site. A line that makes one
 * (short enough to be no paragraph of the story) is the publisher's, not the author's.
 */
const APPEAL = new RegExp(
  [
    "(?:sign up|subscribe|register) (?:for|to) (?:our|the) (?:free )?(?:daily |weekly )?newsletters?",
    "support (?:our|independent|quality|local) (?:journalism|reporting|newsroom)",
    "become a (?:member|subscriber|patron|supporter)\\b",
    "download (?:the|our) [^.]{0,40}\\bapps?\\b",
    // The publisher's app: "Install our travel app", "Download ... to your phone", a QR code.
    "(?:install|download) (?:and subscribe to )?(?:the |our )?[^.]{0,50}\\b(?:app|marketplace)\\b" +
    "[^.]{0,40}\\b(?:phone|device|pocket)\\b|scan (?:this|the) qr code",
    "follow (?:us|me|the [^.]{1,30}) on (?:twitter|facebook|instagram|linkedin|tiktok|youtube)",
    // Sign-ups and sales calls closing a post: "Sign up here", "Book a free demo".
    "sign up (?:here|now|today|below)\\s*[.!]?$|" +
    "sign up to (?:receive|get) (?:our|updates|emails?|news|the latest)",
    "(?:book|request|schedule) (?:a|your) (?:free )?(?:[\\p{L}-]+ ){0,2}" +
    "(?:demo|quote|consultation)\\b",
    "(?:bestellen|abonnieren) sie [^.]{0,40}\\b(?:abo|abonnement|einzelheft|ausgabe)\\b",
    // A magazine's call to order its issue: "Jetzt die aktuelle Ausgabe bestellen!",
    // "Order the current issue now".
    "jetzt (?:die|das|den|unser\\w*) [^.!]{0,40}\\b(?:ausgabe|heft|abo|abonnement)\\w* " +
    "(?:bestellen|sichern|abonnieren|kaufen)|order (?:the|our) (?:current|latest|new) issue",
    // A reader asked whether they like the site, before an appeal to pay for it.
    "(?:gefällt|gefallen) (?:dir|ihnen|euch) (?:unser|unsere|dieser|dieses|diese)\\b",
    "(?:like|enjoy|enjoying|enjoyed|love) (?:reading )?(?:our|this) (?:magazine|journalism|" +
    "content|site|blog|newsletter|podcast|work|articles?)\\?",
    "(?:hazte|sé) (?:miembro|socio)|suscríbete|abonnez-vous|unterstützen sie (?:uns|unseren)",
    "(?:this|our) (?:journalism|reporting) (?:is|relies|depends)",
    // Appeals for readers' money: "Will you support our journalism?", "Please consider making a
    // contribution today", "Financial contributions from our readers ...".
    // (Not "Would you support a ban?": the support asked for is the publisher's.)
    "(?:will|would|can|could) you (?:please )?(?:consider )?(?:support(?:ing)?|help(?:ing)? " +
    "(?:fund|sustain|keep)|donat(?:e|ing) to|contribut(?:e|ing) to) (?:us|our\\b|" +
    "[^.?!]{0,40}\\b(?:journalism|reporting|newsroom|mission|coverage)\\b)",
    "please (?:consider )?(?:support(?:ing)? us|donating|contributing|(?:mak|giv)(?:e|ing) a " +
    "(?:[\\p{L}-]+ ){0,2}(?:donation|contribution|gift))\\b",
    "(?:financial )?contributions? from (?:our )?readers\\b",
    "abonnieren sie (?:unser|unseren|unsere|jetzt|den)\\b",
    "unterstützen sie (?:unabhängigen |kritischen |guten )?journalismus|abo abschließen",
    // Paywall notes in the corpus's other languages.
    "nur für (?:abonnenten|abonnentinnen|abonnent\\*innen)|réservé aux abonnés|" +
    "(?:exclusivo|solo) para suscriptores|riservato agli abbonati",
    "(?:ihnen|dir) hat (?:der|dieser|unser) (?:artikel|beitrag|text) gefallen",
    // Newsletter boxes: the call, the terms of signing up, the thanks.
    "get (?:the|our) [^.]{0,40}\\bnewsletter",
    "(?:delivered|sent) (?:straight |directly |right )?to your inbox",
    "(?:have you )?got a (?:story|news tip)\\?",
    // How to reach the reporter, under the story ("Contact the reporter at ...").
    "(?:contact|reach|e-?mail) (?:the )?(?:reporter|author|writer)s?\\b[^.]{0,20}\\b(?:at|via)\\b|" +
    "can be reached (?:at|via) \\S+@",
    "by (?:signing up|subscribing|clicking)[^.]{0,80}\\b(?:agree|consent|privacy policy|terms)",
    "thanks? (?:you )?for (?:signing up|subscribing)",
    // Notes to readers of the publisher's app.
    "click here to (?:get|download|sign up|subscribe|watch|listen)\\b",
    "you(?:'re| are) (?:on|using|reading this (?:on|in)) (?:the|our) [^.]{0,40}\\bapp\\b,? " +
    "(?:click|tap) here",
    // Calls for readers' letters under the story.
    "we(?:'d| would)? (?:want|like|love) to hear (?:what you think|from you|your thoughts)",
    // A caption ending on its photo's credit ("... daily briefings. Photo: Jane Doe/AFP").
    "\\b(?:photo|foto|photograph|bild|image|picture)s?\\s*(?:credit)?\\s*:\\s*[^:.!?]{2,60}$",
    // Calls to take the site's own quiz or assessment ("Take our quick quiz to discover ...").
    "\\btake (?:our|the) (?:free |quick |short |online )?[^.]{0,40}\\b(?:quiz|assessment|self-test)\\b",
    // A product to try, closing a post.
    "\\btry (?:it|us) (?:for )?free for \\d+ days\\b",
    // Affiliate and advertising disclosures.
    "we (?:may )?(?:earn|receive|get) (?:a )?(?:small )?(?:commission|compensation)",
    "(?:may )?contains? affiliate links|as an amazon associate|enthält affiliate-links",
    "advertisers do not influence|advertising on (?:our|this) site helps",
    // Paywall teasers in place of the rest of the story.
    "(?:exclusive|available) (?:only )?to [^.]{0,30}\\b(?:subscribers|members)\\b",
    "unlock this (?:article|story)",
    "(?:read|continue reading) (?:the rest of )?this (?:article|story)[^.]{0,30}\\bsubscribe",
    // Disclaimers of a blog's guest authors.
    "the views expressed (?:by|in) [^.]{0,80}" +
    "(?:are (?:their|his|her|the authors?'?s?) own|do not necessarily)",
  ].join("|"),
  "iu",
);

/**
 * The publisher's lines known by how they open, apart from APPEAL: one test at the start
 * rather than at every position of the line.
 */
const APPEAL_OPENINGS = new RegExp(
  "^(?:" + [
    // The publisher's app.
    "install [^.]{0,50}\\bapp$",
    "(?:download|install) and subscribe to\\b",
    // Calls for tips.
    "(?:have|got) a (?:news )?tip\\b",
    // Where the printed paper ran the story ("A version of this article appears in print on ...").
    "a version of this (?:article|story|review|column) appear(?:s|ed) in print\\b",
    // A longer disclaimer or copyright notice under the story (short ones are chrome lines).
    "disclaimer\\s*:|copyright\\s*(?:©|\\(c\\))|©\\s*(?:copyright|\\d{4})",
    // A longer caption opening with its picture's label ("Abbildung: ... (links) ...").
    "(?:photo|image|picture|foto|bild|abbildung|grafik)s?\\s*:",
    "cr[ée]dits? photos?\\s*:",
    // A story's filing line: its date and its people, set apart by bullets.
    "[^•·|]{0,40}\\d[^•·|]{0,40}[•·|][^•·|]{0,60}\\b(?:written )?by\\b[^.]{0,80}$",
    // Prompts to the reader closing a post: to comment ("What do you think? ..."), to get in
    // touch ("Want to discuss this further? Contact ...").
    "what do you think\\?",
    "(?:want|need|looking|interested|ready|have (?:a |any )?questions?)\\b[^?]{0,100}\\?\\s*" +
    "(?:contact|call|email|reach out|get in touch|talk to)\\b",
  ].join("|") + ")",
  "iu",
);

/** Whether a text makes one of the publisher's appeals (APPEAL anywhere, or its openings). */
function appeals(text: string): boolean {
  return APPEAL_OPENINGS.test(text) || APPEAL.test(text);
}

/** Longest paragraph read as an appeal for the readers' support. */
export const APPEAL_BOX = 1200;
/** Where an appeal for support opens its paragraph. */
export const APPEAL_OPENING = 200;
/** What an appeal asks for: money, membership, a subscription. */
const SUPPORT =
  /\b(?:support|donat\w*|contribut\w*|unterstütz\w*|spende\w*|membership|mitglied\w*|abonn\w*|subscri\w*|paywall|bezahlschranke|soutien|soutenir|apoy\w*)\b/iu;

/**
 * A paragraph longer than a line that opens with one of the publisher's appeals ("Like our
 * magazine? We chose to have no paywall ...") and asks for the readers' support in it.
 */
export function isAppealBox(text: string): boolean {
  return text.length <= APPEAL_BOX && opensWithAppeal(text) && SUPPORT.test(text);
}

/** Whether a text's first APPEAL_OPENING characters make one of the publisher's appeals. */
export function opensWithAppeal(text: string): boolean {
  return appeals(text.slice(0, APPEAL_OPENING));
}

/** Longest line read for an appeal anywhere in it. */
export const APPEAL_LINE = 320;

/** Whether a line (at most APPEAL_LINE characters) makes one of the publisher's appeals. */
export function isAppeal(text: string): boolean {
  return text.length <= APPEAL_LINE && appeals(text);
}

/**
 * An author's bio under the story: a name, then what the person writes for a living ("Jane
 * Doe is a writer and editor who covers ...", "John Roe is the paper's Europe correspondent").
 */
const BIO = new RegExp(
  // One the story names "Mr Danielevsky" (news style) is one of its people, not its author.
  "^(?!(?:Mr|Mrs|Ms|Miss|Mx)\\.?\\s)" +
    "\\(?\\p{Lu}[\\p{L}.'-]*(?:\\s+\\p{Lu}[\\p{L}.'-]*){1,4},?\\s+is\\s+" +
    // A tool's role is no person's: "a fast text editor".
    "(?:a|an|the|our)\\s+(?:[\\p{L}'’-]+,?\\s+){0,6}?" +
    "(?<!(?:text|code|video|photo|image|html|source)\\s)(?:writer|editor|journalist|reporter|" +
    "correspondent|contributor|columnist|freelancer|blogger|author)s?(?![\\p{L}])",
  "u",
);

/** Longest line read as an author's bio. */
export const BIO_LINE = 650;

/**
 * A person introduced by name and role ("Jane Doe is the Founder & Principal Consultant at
 * ...", "(John Roe is an Associate Attorney at ...)"): in prose, a sentence of the story; set
 * off from it, wholly in parentheses or in italics, the author's bio.
 */
const INTRODUCED = /^\(?\p{Lu}[\p{L}.'-]*(?:\s+\p{Lu}[\p{L}.'-]*){1,4},?\s+is\s+(?:a|an|the)\s/u;

/** Whether a line set off from the story (see INTRODUCED) introduces its author. */
export function introducesPerson(text: string): boolean {
  return text.length <= BIO_LINE && INTRODUCED.test(text);
}

/** Whether a line (at most BIO_LINE characters) is an author's bio. */
export function isAuthorBio(text: string): boolean {
  return text.length <= BIO_LINE && BIO.test(text);
}
