/**
 * RTF tokenized by rtf-stream-parser's Tokenize (a maintained tokenizer; its own text output
 * keeps no paragraph or table structure), interpreted here: paragraphs, headings by outline
 * level, tables by cells and rows, the \info group's title/author/subject/dates, \'hh bytes in
 * the document's ANSI code page, \uN with its \ucN fallback skipped, and every other destination
 * (fonts, styles, pictures, fields' instructions, headers) left out.
 */
import { Buffer } from "node:buffer";
import { Tokenize } from "rtf-stream-parser";
import { spend } from "../extract/dom/budget.ts";
import { documentHtml, type DocumentProperties, HtmlBody } from "./html.ts";
import { DocumentRefused } from "./refused.ts";

interface Token {
  type: number;
  word?: string;
  param?: number;
  data?: Uint8Array;
}

const GROUP_START = 0;
const GROUP_END = 1;
const CONTROL = 2;
const TEXT = 3;

/** Destinations whose text is not the document's body. */
const SKIPPED = new Set([
  "fonttbl",
  "colortbl",
  "stylesheet",
  "listtable",
  "listoverridetable",
  "revtbl",
  "rsidtbl",
  "generator",
  "pict",
  "object",
  "header",
  "headerl",
  "headerr",
  "headerf",
  "footer",
  "footerl",
  "footerr",
  "footerf",
  "fldinst",
  "listtext",
  "pntext",
  "themedata",
  "colorschememapping",
  "datastore",
  "latentstyles",
  "xmlnstbl",
  "mmathPr",
  "pgdsctbl",
  "ftnsep",
  "ftnsepc",
  "aftnsep",
  "footnote",
  "bkmkstart",
  "bkmkend",
  "nonshppict",
  "shppict",
  "userprops",
  "docvar",
]);
const INFO_TEXT: Record<string, keyof DocumentProperties> = {
  title: "title",
  author: "author",
  subject: "description",
  doccomm: "description",
};

interface Group {
  skip: boolean;
  /** The \info field this group's text fills. */
  info: keyof DocumentProperties | null;
  /** \creatim or \revtim: the date parts read inside it. */
  time: "creatim" | "revtim" | null;
  /** Inside the \info group. */
  inInfo: boolean;
  unicodeSkip: number;
}

/**
 * The tokenizer driven synchronously: its tokens are taken as it pushes them, rather than through
 * a stream's events (which cost three times the work in a worker thread).
 */
class SyncTokenize extends Tokenize {
  constructor(readonly onToken: (token: Token) => void) {
    super();
  }

  override push(token: unknown): boolean {
    if (token !== null) this.onToken(token as Token);
    return true;
  }

  /**
   * Ends the text run being read, if any. The tokenizer carries a run on across line breaks
   * and copies all of it again for each line it continues on: 2.5 MB of one-letter lines held a
   * thread for minutes (no token came out, so no budget check ran).
   */
  endTextRun(): void {
    if (this._mode === 0 && this._token?.type === TEXT) this._flushToken();
  }
}

export function rtfToHtml(bytes: Uint8Array): string {
  // \binN makes the tokenizer allocate N bytes up front: N past the file's size is a lie.
  if (binPastEnd(bytes)) throw new DocumentRefused("corrupt", "rtf \\bin past its end");
  const reader = new RtfReader();
  const tokenizer = new SyncTokenize((token) => reader.token(token));
  let failure: unknown = null;
  const done = (error?: unknown) => {
    if (error) failure ??= error;
  };
  // The tokenizer warns on stderr for each bad digit of a \'hh escape (the byte is kept as
  // read): a 4 MB file of them wrote 2,000,000 lines and spent 23 s doing it. Synchronous, so
  // no other code runs while the warning is muted.
  // deno-lint-ignore no-console
  const warn = console.warn;
  // deno-lint-ignore no-console
  console.warn = () => {};
  try {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let start = 0;
    /** Reads the bytes up to `end`; false once the tokenizer failed. */
    const readTo = (end: number) => {
      tokenizer._transform(buffer.subarray(start, end), "", done);
      start = end;
      if (failure !== null) return false;
      tokenizer.endTextRun();
      return true;
    };
    for (const end of textLineStarts(bytes)) if (!readTo(end)) break;
    if (failure === null && readTo(bytes.length)) tokenizer._flush(done);
  } finally {
    // deno-lint-ignore no-console
    console.warn = warn;
  }
  if (failure !== null) throw failure;
  return reader.html();
}

const BACKSLASH = 0x5c;
const [CR, LF, OPEN, CLOSE] = [0x0d, 0x0a, 0x7b, 0x7d];

/** Where a line that starts with text begins: a text run read so far ends there (endTextRun). */
function* textLineStarts(bytes: Uint8Array): Generator<number> {
  for (let at = 1; at < bytes.length; at++) {
    const previous = bytes[at - 1];
    if (previous !== LF && previous !== CR) continue;
    const byte = bytes[at];
    if (byte !== LF && byte !== CR && byte !== OPEN && byte !== CLOSE && byte !== BACKSLASH) {
      yield at;
    }
  }
}
const [B, I, N] = [0x62, 0x69, 0x6e];
const isDigit = (byte: number | undefined) => byte !== undefined && byte >= 0x30 && byte <= 0x39;

/**
 * Whether any `\binN` claims more bytes than the file holds: one pass over the bytes, with no
 * copy of them as text (a second document's worth of memory in a worker with a heap cap).
 */
function binPastEnd(bytes: Uint8Array): boolean {
  for (let at = bytes.indexOf(BACKSLASH); at >= 0; at = bytes.indexOf(BACKSLASH, at + 1)) {
    if (bytes[at + 1] !== B || bytes[at + 2] !== I || bytes[at + 3] !== N) continue;
    let claim = 0;
    let end = at + 4;
    // Past the file's length is enough to know: the count stops growing there.
    while (isDigit(bytes[end]) && claim <= bytes.length) claim = claim * 10 + bytes[end++]! - 0x30;
    if (end > at + 4 && claim > bytes.length) return true;
  }
  return false;
}

class RtfReader {
  readonly #body = new HtmlBody();
  readonly #properties: DocumentProperties = {};
  readonly #stack: Group[] = [];
  #group: Group = { skip: false, info: null, time: null, inInfo: false, unicodeSkip: 1 };
  #decoder = new TextDecoder("windows-1252");
  #paragraph = "";
  #outline: number | null = null;
  #inTable = false;
  #row: string[] = [];
  #rows: string[][] = [];
  #pendingSkip = 0;
  #nextIsDestination = false;
  #dates: Partial<Record<"creatim" | "revtim", number[]>> = {};
  #started = false;

  token(token: Token): void {
    spend();
    if (!this.#started) {
      if (token.type === CONTROL && token.word === "rtf") this.#started = true;
      else if (token.type !== GROUP_START) throw new DocumentRefused("corrupt", "not rtf");
    }
    if (token.type === GROUP_START) {
      this.#stack.push(this.#group);
      if (this.#stack.length > 1000) throw new DocumentRefused("too-large", "rtf nests too deep");
      this.#group = { ...this.#group };
      this.#nextIsDestination = true;
      return;
    }
    const first = this.#nextIsDestination;
    this.#nextIsDestination = false;
    if (token.type === GROUP_END) {
      this.#group = this.#stack.pop() ?? this.#group;
      return;
    }
    if (token.type === CONTROL) this.#control(token, first);
    else this.#text(token.data ?? new Uint8Array());
  }

  #control({ word = "", param, data }: Token, first: boolean): void {
    const group = this.#group;
    if (word === "*" && first) {
      group.skip = true;
      return;
    }
    if (first && SKIPPED.has(word)) group.skip = true;
    if (first && word === "info") {
      group.skip = true;
      group.inInfo = true;
      return;
    }
    if (first && group.inInfo && Object.hasOwn(INFO_TEXT, word)) {
      // A later \author or \doccomm does not replace the first one.
      group.info = INFO_TEXT[word]!;
      if (this.#properties[group.info]) group.info = null;
      return;
    }
    if (first && (word === "creatim" || word === "revtim")) {
      group.time = word;
      this.#dates[word] = [];
      return;
    }
    if (group.time && ["yr", "mo", "dy", "hr", "min"].includes(word)) {
      this.#dates[group.time]!.push(param ?? 0);
      return;
    }
    if (word === "ansicpg" && param) {
      try {
        this.#decoder = new TextDecoder(`windows-${param}`);
      } catch {
        // An unknown code page keeps windows-1252.
      }
    }
    if (word === "uc") group.unicodeSkip = param ?? 1;
    // The tokenizer hands \'hh over as a control word carrying its byte.
    if (word === "'") return this.#text(data ?? new Uint8Array());
    if (group.skip) return;
    if (word === "u" && param !== undefined) {
      this.#append(String.fromCharCode(param < 0 ? param + 65536 : param));
      this.#pendingSkip = group.unicodeSkip;
      return;
    }
    switch (word) {
      case "par":
        return this.#endParagraph();
      case "line":
      case "tab":
        return this.#append(" ");
      case "pard":
        this.#outline = null;
        this.#inTable = false;
        return;
      case "outlinelevel":
        this.#outline = param ?? 0;
        return;
      case "intbl":
        this.#inTable = true;
        return;
      case "cell":
        this.#row.push(this.#paragraph);
        this.#paragraph = "";
        return;
      case "row":
        this.#rows.push(this.#row);
        this.#row = [];
        return;
      case "emdash":
        return this.#append("\u2014");
      case "endash":
        return this.#append("\u2013");
      case "lquote":
        return this.#append("\u2018");
      case "rquote":
        return this.#append("\u2019");
      case "ldblquote":
        return this.#append("\u201c");
      case "rdblquote":
        return this.#append("\u201d");
      case "bullet":
        return this.#append("\u2022");
      case "~":
        return this.#append("\u00a0");
      case "{":
      case "}":
      case "\\":
        return this.#append(word);
    }
  }

  #text(data: Uint8Array): void {
    let bytes = data;
    if (this.#pendingSkip > 0) {
      const skipped = Math.min(this.#pendingSkip, bytes.length);
      this.#pendingSkip -= skipped;
      bytes = bytes.subarray(skipped);
    }
    if (!bytes.length) return;
    const group = this.#group;
    const text = this.#decoder.decode(bytes);
    if (group.info) {
      const key = group.info;
      this.#properties[key] = (this.#properties[key] ?? "") + text;
      return;
    }
    if (!group.skip) this.#paragraph += text;
  }

  #append(text: string): void {
    if (!this.#group.skip) this.#paragraph += text;
  }

  #endParagraph(): void {
    if (!this.#inTable) this.#flushTable();
    const text = this.#paragraph;
    this.#paragraph = "";
    if (this.#inTable) return;
    const level = this.#outline;
    this.#body.block(level !== null && level < 6 ? `h${level + 1}` : "p", text);
  }

  #flushTable(): void {
    if (this.#row.length) this.#rows.push(this.#row);
    if (this.#rows.length) this.#body.table(this.#rows);
    this.#rows = [];
    this.#row = [];
  }

  html(): string {
    this.#endParagraph();
    this.#flushTable();
    const date = rtfDate(this.#dates.revtim) ?? rtfDate(this.#dates.creatim);
    return documentHtml({ ...this.#properties, date }, this.#body);
  }
}

/** \yr \mo \dy \hr \min as an ISO date; undefined when the year is absent or zero. */
function rtfDate(parts: number[] | undefined): string | undefined {
  const [year, month = 1, day = 1, hour = 0, minute = 0] = parts ?? [];
  if (!year) return undefined;
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute));
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
