/**
 * PDF through Mozilla's pdf.js (its legacy build, which runs outside a browser): the text layer
 * of each page becomes a section of paragraphs, a line set in a larger type than the body's a
 * heading; the document information dictionary gives the properties. pdf.js runs on this
 * thread (its "fake worker", loaded statically below; pdf.js 6 has no eval path at all), no
 * fonts loaded, no * network: it is handed the bytes and no URL, so a document can make it fetch nothing. An
 * encrypted document that needs a password is refused.
 */
import type * as Pdfjs from "pdfjs-dist/legacy/build/pdf.mjs";
import { BudgetExceeded } from "../extract/dom/budget.ts";
import { buffersRefused, MAX_BUFFER_BYTES } from "./allocation.ts";
import { MAX_INFLATED_BYTES, streamsCut } from "./decompression.ts";
import { documentHtml, type DocumentProperties, HtmlBody } from "./html.ts";
import { DOCUMENT_LIMITS, DocumentRefused } from "./refused.ts";

let loading: Promise<typeof Pdfjs> | null = null;

/**
 * pdf.js, loaded on a thread's first PDF (static specifiers: `deno compile` still sees them).
 * Its worker's handler is put where pdf.js looks before it would import one by a computed URL.
 * At load it warns that it cannot find @napi-rs/canvas, which only rendering would use: that
 * warning is kept off stderr.
 */
function loadPdfjs(): Promise<typeof Pdfjs> {
  loading ??= (async () => {
    // deno-lint-ignore no-console
    const warn = console.warn;
    // deno-lint-ignore no-console
    console.warn = () => {};
    try {
      const [pdfjs, worker] = await Promise.all([
        import("pdfjs-dist/legacy/build/pdf.mjs"),
        import("pdfjs-dist/legacy/build/pdf.worker.mjs"),
      ]);
      (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
      return pdfjs;
    } finally {
      // deno-lint-ignore no-console
      console.warn = warn;
    }
  })();
  return loading;
}

export interface PdfResult {
  html: string;
  pages: number;
}

interface Line {
  text: string;
  size: number;
  y: number;
}

export async function pdfToHtml(
  bytes: Uint8Array,
  check: () => void = () => {},
): Promise<PdfResult> {
  const pdfjs = await loadPdfjs();
  // A stream cut or a buffer refused at its bound (in a document worker, see boundDecompression
  // and boundBuffers) while this document is read: it is refused rather than read in part. A
  // worker reads one document at a time.
  const cutBefore = streamsCut();
  const refusedBefore = buffersRefused();
  const refuseCut = () => {
    if (streamsCut() !== cutBefore) {
      throw new DocumentRefused(
        "too-large",
        `pdf has a stream that inflates past ${MAX_INFLATED_BYTES} bytes`,
      );
    }
    if (buffersRefused() !== refusedBefore) {
      throw new DocumentRefused(
        "too-large",
        `pdf has a stream that decodes past ${MAX_BUFFER_BYTES} bytes`,
      );
    }
  };
  const task = pdfjs.getDocument({
    // pdf.js detaches the buffer it is given: it gets a copy.
    data: bytes.slice(),
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    disableAutoFetch: true,
    disableStream: true,
    stopAtErrors: false,
    verbosity: 0,
  });
  try {
    const doc = await task.promise.catch((error: unknown) => {
      // The budget ran out while it opened (see boundClock): pdf.js tells that as its failure.
      check();
      const name = error instanceof Error ? error.name : "";
      if (name === "PasswordException") {
        throw new DocumentRefused("encrypted", "pdf needs a password");
      }
      throw new DocumentRefused("corrupt", `pdf does not open: ${name || "unknown error"}`);
    });
    if (doc.numPages > DOCUMENT_LIMITS.maxParts) {
      throw new DocumentRefused("too-large", `pdf has ${doc.numPages} pages`);
    }
    const properties = await pdfProperties(pdfjs, doc);
    const pages: Line[][] = [];
    for (let number = 1; number <= doc.numPages; number++) {
      check();
      const page = await doc.getPage(number);
      const items = await pageItems(page, check);
      // No page.cleanup(): it drops the fonts and resources pages share, to parse them again.
      refuseCut();
      pages.push(linesOf(items));
    }
    refuseCut();
    return { html: documentHtml(properties, pagesToHtml(pages, check)), pages: doc.numPages };
  } catch (error) {
    if (error instanceof DocumentRefused || error instanceof BudgetExceeded) throw error;
    check();
    // A refused buffer may surface as pdf.js's own failure.
    refuseCut();
    // What pdf.js reports while reading (a stack overflow on nested objects, a bad stream).
    const message = error instanceof Error ? error.message : String(error);
    throw new DocumentRefused("corrupt", `pdf does not read: ${message}`);
  } finally {
    await task.destroy();
  }
}

interface TextItem {
  str?: string;
  hasEOL?: boolean;
  transform?: number[];
  height?: number;
}

/**
 * A page's text items, the budget checked at each chunk pdf.js streams. Its evaluator runs a page
 * on promise callbacks alone, so no timer fires and no check between pages runs until the page
 * ends: a page drawing one small text form 100,000 times held its thread for hours, busy long
 * after it was replaced. Past the budget, check() throws here; in a document worker the bounded
 * clock (boundClock) has stopped pdf.js by then.
 */
async function pageItems(page: Pdfjs.PDFPageProxy, check: () => void): Promise<TextItem[]> {
  const reader = page.streamTextContent().getReader();
  const items: TextItem[] = [];
  let tooMany = false;
  while (true) {
    const { value, done } = await reader.read();
    if (done) break;
    check();
    // Past the bound, read to the page's end without keeping anything: a page left unread holds
    // pdf.js at the stream's backpressure, and the document's destroy() waited for it forever.
    if (tooMany) continue;
    for (const item of (value as { items: TextItem[] }).items) items.push(item);
    tooMany = items.length > MAX_PAGE_ITEMS;
    if (tooMany) items.length = 0;
  }
  if (tooMany) {
    throw new DocumentRefused("too-large", `pdf has a page of more than ${MAX_PAGE_ITEMS} texts`);
  }
  return items;
}

/**
 * Text items one page may give (a dense real page gives a few thousand): each holds some 100
 * bytes of heap until the page's lines are made, and 3 million, from a 44 KB PDF of one-letter
 * lines, took the thread past its heap cap.
 */
const MAX_PAGE_ITEMS = 100_000;

function linesOf(items: TextItem[]): Line[] {
  const lines: Line[] = [];
  let current: Line | null = null;
  for (const item of items) {
    if (typeof item.str !== "string") continue;
    const size = Math.abs(item.transform?.[3] ?? item.height ?? 0);
    const y = item.transform?.[5] ?? 0;
    if (item.str !== "" || !current) {
      current ??= { text: "", size: 0, y };
      current.text += item.str;
      if (item.str.trim()) current.size = Math.max(current.size, size);
    }
    if (item.hasEOL && current) {
      lines.push(current);
      current = null;
    }
  }
  if (current) lines.push(current);
  return lines.filter((line) => line.text.trim() !== "");
}

/**
 * Lines join into a paragraph while they are set in the same size and close below each other;
 * a line set clearly larger than the body's most common size is a heading of its own.
 */
function pagesToHtml(pages: Line[][], check: () => void): HtmlBody {
  const sizes = new Map<number, number>();
  for (const line of pages.flat()) {
    const size = Math.round(line.size);
    sizes.set(size, (sizes.get(size) ?? 0) + line.text.length);
  }
  const bodySize = [...sizes].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  const body = new HtmlBody();
  for (const lines of pages) {
    check();
    body.raw("<section>\n");
    const paragraph: Line[] = [];
    const flush = () => {
      body.block("p", paragraph.map((line) => line.text).join(" "));
      paragraph.length = 0;
    };
    for (const line of lines) {
      if (bodySize > 0 && line.size >= bodySize * 1.15) {
        flush();
        body.block(line.size >= bodySize * 1.4 ? "h1" : "h2", line.text);
        continue;
      }
      const previous = paragraph.at(-1);
      const joins = previous !== undefined && Math.abs(previous.size - line.size) < 0.5 &&
        previous.y - line.y > 0 && previous.y - line.y <= line.size * 1.5;
      if (!joins) flush();
      paragraph.push(line);
    }
    flush();
    body.raw("</section>\n");
  }
  return body;
}

async function pdfProperties(
  pdfjs: typeof Pdfjs,
  doc: Pdfjs.PDFDocumentProxy,
): Promise<DocumentProperties> {
  const { info } = await doc.getMetadata().catch(() => ({ info: {} }));
  const fields = (info ?? {}) as Record<string, unknown>;
  const text = (key: string) => typeof fields[key] === "string" ? fields[key] as string : undefined;
  const date = (key: string) => {
    const parsed = pdfjs.PDFDateString.toDateObject(text(key) ?? "");
    return parsed ? parsed.toISOString() : undefined;
  };
  return {
    title: text("Title"),
    author: text("Author"),
    description: text("Subject"),
    date: date("ModDate") ?? date("CreationDate"),
    lang: text("Language"),
  };
}
