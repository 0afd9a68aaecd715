/**
 * A YouTube video's caption transcript, as Microlink's url-to-markdown gives it: the creator's
 * captions in the video's language, else the automatic ones. The watch page names its caption
 * tracks in ytInitialPlayerResponse (`captionTracks`, each a timedtext URL); the chosen track is
 * fetched through the guarded fetcher (shared and cached like the platform endpoints) and its
 * cues joined into paragraphs. Any failure is null: the video keeps its usual metadata.
 */
import { decodeHTML, decodeXML } from "entities";
import { decodeHtml } from "../../fetch/decode.ts";
import type { Fetcher } from "../../fetch/types.ts";
import { hostIs } from "./helpers.ts";
import { sharedFetch } from "./shared_fetch.ts";
import { videoId } from "./youtube.ts";

export interface CaptionTrack {
  url: string;
  lang: string;
  /** YouTube's speech recognition made it (kind "asr"). */
  automatic: boolean;
}

export interface Transcript {
  lang: string;
  automatic: boolean;
  paragraphs: string[];
}

/** The track list sits in the player response; real ones are a few KB. */
const MAX_TRACKS_JSON = 256 * 1024;
/** A two-hour talk's timedtext is about 300 KB. */
const MAX_TIMEDTEXT_BYTES = 4 * 1024 * 1024;
const MAX_CUES = 50_000;
/** A paragraph closes at a sentence end once it is this long, or at a pause. */
const PARAGRAPH_CHARS = 600;
const PAUSE_SECONDS = 2.5;

/**
 * The JSON array that starts at `from` (a '['), cut out by a string-aware bracket count: one
 * linear pass, bounded, so a hostile page cannot make it scan more than MAX_TRACKS_JSON.
 */
function jsonArrayAt(text: string, from: number): string | null {
  let depth = 0;
  let inString = false;
  const end = Math.min(text.length, from + MAX_TRACKS_JSON);
  for (let i = from; i < end; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) depth++;
    else if (c === 93 /* ] */ || c === 125 /* } */) {
      if (--depth === 0) return text.slice(from, i + 1);
    }
  }
  return null;
}

/** The caption tracks a watch page offers, with timedtext URLs on YouTube's own hosts only. */
export function captionTracks(html: string): CaptionTrack[] {
  const key = html.indexOf('"captionTracks":');
  if (key < 0) return [];
  const open = html.indexOf("[", key);
  if (open < 0 || open > key + 32) return [];
  const json = jsonArrayAt(html, open);
  if (!json) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  const tracks: CaptionTrack[] = [];
  for (const item of raw.slice(0, 100)) {
    const { baseUrl, languageCode, kind } = (item ?? {}) as Record<string, unknown>;
    if (typeof baseUrl !== "string" || typeof languageCode !== "string") continue;
    const url = URL.parse(baseUrl, "https://www.youtube.com/");
    if (!url || url.protocol !== "https:" || !hostIs(url, "youtube.com")) continue;
    if (url.pathname !== "/api/timedtext") continue;
    tracks.push({ url: url.href, lang: languageCode, automatic: kind === "asr" });
  }
  return tracks;
}

/**
 * The creator's captions first: in the language YouTube recognised speech in (the automatic
 * track's), else the first the creator made; the automatic track when there is no other.
 */
export function pickTrack(tracks: CaptionTrack[]): CaptionTrack | null {
  const automatic = tracks.find((t) => t.automatic);
  const made = tracks.filter((t) => !t.automatic);
  const spoken = automatic?.lang.split("-")[0];
  return made.find((t) => t.lang.split("-")[0] === spoken) ?? made[0] ?? automatic ?? null;
}

interface Cue {
  start: number;
  end: number;
  text: string;
}

const NUMBER = (value: string | undefined, scale: number) => {
  const n = Number(value);
  return Number.isFinite(n) ? n / scale : 0;
};

function attrOf(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
}

/**
 * Cues of a timedtext answer: the default format (`<text start dur>`, seconds; its text
 * HTML-escaped once more inside the XML) and format 3 (`<p t d>`, milliseconds, words in <s>).
 */
export function parseTimedText(xml: string): Cue[] {
  const cues: Cue[] = [];
  // indexOf from tag to tag, never a regex that could rescan: one pass over a hostile answer.
  const opening = /<(text|p)(?=[\s>])([^<>]*)>/g;
  for (let match = opening.exec(xml); match && cues.length < MAX_CUES; match = opening.exec(xml)) {
    const [whole, tag, attrs = ""] = match;
    const close = xml.indexOf(`</${tag}>`, match.index + whole.length);
    if (close < 0) break;
    const inner = xml.slice(match.index + whole.length, close);
    opening.lastIndex = close;
    const seconds = tag === "text";
    const start = seconds ? NUMBER(attrOf(attrs, "start"), 1) : NUMBER(attrOf(attrs, "t"), 1000);
    const length = seconds ? NUMBER(attrOf(attrs, "dur"), 1) : NUMBER(attrOf(attrs, "d"), 1000);
    const words = inner.replace(/<[^<>]*>/g, "");
    const text = (seconds ? decodeHTML(decodeXML(words)) : decodeXML(words))
      .replace(/\s+/g, " ").trim();
    if (text) cues.push({ start, end: start + length, text });
  }
  return cues;
}

/** Cues joined into paragraphs: a pause, or a sentence's end once the paragraph is long. */
export function paragraphsOf(cues: Cue[]): string[] {
  const paragraphs: string[] = [];
  let current: string[] = [];
  let length = 0;
  let lastEnd = -Infinity;
  const close = () => {
    if (current.length) paragraphs.push(current.join(" "));
    current = [];
    length = 0;
  };
  for (const cue of cues) {
    if (length && cue.start - lastEnd >= PAUSE_SECONDS) close();
    current.push(cue.text);
    length += cue.text.length + 1;
    lastEnd = Math.max(lastEnd, cue.end);
    if (length >= PARAGRAPH_CHARS && /[.!?…。？！]["”’)]?$/.test(cue.text)) close();
  }
  close();
  return paragraphs;
}

export interface TranscriptOptions {
  fetcher: Fetcher;
  signal?: AbortSignal;
}

async function loadTranscript(track: CaptionTrack, opts: TranscriptOptions) {
  if (opts.signal?.aborted) return null;
  const result = await opts.fetcher.fetch(track.url, {
    headers: { accept: "text/xml, application/xml;q=0.9, */*;q=0.1" },
    maxBytes: MAX_TIMEDTEXT_BYTES,
    signal: opts.signal,
  });
  if (result.statusCode !== 200 || result.truncated) return null;
  const cues = parseTimedText(decodeHtml(result.body, result.headers["content-type"] ?? null));
  const paragraphs = paragraphsOf(cues);
  return paragraphs.length
    ? { lang: track.lang, automatic: track.automatic, paragraphs } satisfies Transcript
    : null;
}

/** Is `pageUrl` one YouTube video (watch, youtu.be, shorts, embed, live)? */
export function isVideoPage(pageUrl: string): boolean {
  const page = URL.parse(pageUrl);
  return page !== null && hostIs(page, "youtube.com", "youtu.be", "youtube-nocookie.com") &&
    videoId(page) !== null;
}

/** The transcript of the video whose watch page (at `pageUrl`) is `html`, or null. */
export function fetchTranscript(
  pageUrl: string,
  html: string,
  opts: TranscriptOptions,
): Promise<Transcript | null> {
  if (!isVideoPage(pageUrl)) return Promise.resolve(null);
  const track = pickTrack(captionTracks(html));
  if (!track) return Promise.resolve(null);
  return sharedFetch(opts.fetcher, track.url, () => loadTranscript(track, opts));
}
