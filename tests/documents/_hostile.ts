/**
 * Hostile documents, made here rather than committed: zip bombs, archives of thousands of
 * entries, damaged files, PDFs that lie about their page count or nest objects deeply, XML entity
 * expansion and external entities, EPUB chapters naming remote resources, RTF that claims huge
 * binary runs or nests groups deeply, XML nested 100,000 deep, a PDF stream bomb. Shared by tests/documents/ and bench/documents.ts.
 */
import { zipSync, Zlib } from "fflate";

export interface Hostile {
  name: string;
  /** The path it is served at (its extension is part of some cases). */
  path: string;
  type: string;
  bytes: Uint8Array;
}

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const text = (value: string) => new TextEncoder().encode(value);

/** Bytes of a string whose characters are bytes (latin1): a PDF's binary streams stay as they are. */
export function latin1(value: string): Uint8Array {
  const bytes = new Uint8Array(value.length);
  for (let i = 0; i < value.length; i++) bytes[i] = value.charCodeAt(i);
  return bytes;
}

/** The string whose characters are `bytes` (latin1's inverse), in pieces the call stack takes. */
function fromLatin1(bytes: Uint8Array): string {
  let value = "";
  for (let at = 0; at < bytes.length; at += 8192) {
    value += String.fromCharCode(...bytes.subarray(at, at + 8192));
  }
  return value;
}

/** A PDF from its objects (characters as bytes), with a correct cross-reference table. */
export function pdfOf(objects: string[]): Uint8Array {
  let out = "%PDF-1.7\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return latin1(out);
}

/** A one-line text page's content stream. */
function page(contents: number, resources = "<< /Font << /F1 4 0 R >> >>"): string {
  return `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources ${resources} ` +
    `/Contents ${contents} 0 R >>`;
}

const FONT = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
const stream = (content: string) =>
  `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;

/** The docx parts every case needs but the body. */
function docx(documentXml: string, extra: Record<string, Uint8Array> = {}): Uint8Array {
  return zipSync({
    "[Content_Types].xml": text(
      `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
    ),
    "word/document.xml": text(documentXml),
    ...extra,
  });
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

export function billionLaughs(): string {
  const entities = ['<!ENTITY lol0 "lol">'];
  for (let i = 1; i <= 9; i++) {
    entities.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
  }
  return `<?xml version="1.0"?><!DOCTYPE w:document [${entities.join("")}]>` +
    `<w:document ${W}><w:body><w:p><w:r><w:t>laughs &lol9; end</w:t></w:r></w:p></w:body></w:document>`;
}

/** Every hostile case; `origin` is a loopback server that must never be asked for anything. */
export function hostileDocuments(origin: string): Hostile[] {
  const cases: Hostile[] = [];
  const add = (name: string, path: string, type: string, bytes: Uint8Array) =>
    cases.push({ name, path, type, bytes });

  // The body part inflates to 40 MB of spaces (past the 32 MB bound) from ~40 KB.
  const spaces = new Uint8Array(40 << 20).fill(0x20);
  add("zip bomb entry", "/bomb.docx", DOCX, zipSync({ "word/document.xml": spaces }));
  const many: Record<string, Uint8Array> = { "word/document.xml": text(`<w:document ${W}/>`) };
  for (let i = 0; i < 5000; i++) many[`word/part${i}.xml`] = new Uint8Array();
  add("thousands of entries", "/many.docx", DOCX, zipSync(many, { level: 0 }));
  const sample = docx(
    `<w:document ${W}><w:body><w:p><w:r><w:t>whole</w:t></w:r></w:p></w:body></w:document>`,
  );
  add("truncated zip", "/truncated.docx", DOCX, sample.subarray(0, sample.length >> 1));
  add(
    "corrupt pdf",
    "/corrupt.pdf",
    "application/pdf",
    text(`%PDF-1.7\n${"garbage \x00\xff ".repeat(500)}`),
  );
  add(
    "huge page count",
    "/pages.pdf",
    "application/pdf",
    pdfOf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      `<< /Type /Pages /Kids [${"3 0 R ".repeat(100_000)}] /Count 100000 >>`,
      page(5),
      FONT,
      stream("BT /F1 12 Tf 10 100 Td (one page) Tj ET"),
    ]),
  );
  add(
    "deeply nested objects",
    "/nested.pdf",
    "application/pdf",
    pdfOf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      page(5, `<< /Font << /F1 4 0 R >> /Deep ${"[".repeat(100_000)}${"]".repeat(100_000)} >>`),
      FONT,
      stream(`BT /F1 12 Tf ${"[".repeat(50_000)} 10 100 Td (deep) Tj ET`),
    ]),
  );
  add("billion laughs", "/laughs.docx", DOCX, docx(billionLaughs()));
  add(
    "external entity",
    "/xxe.docx",
    DOCX,
    docx(
      `<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY xxe SYSTEM "${origin}/xxe">]>` +
        `<w:document ${W}><w:body><w:p><w:r><w:t>x &xxe; y</w:t></w:r></w:p></w:body></w:document>`,
    ),
  );
  add("remote resources", "/remote.epub", "application/epub+zip", epubNaming(origin));
  add("rtf binary claim", "/bin.rtf", "application/rtf", text(`{\\rtf1 {\\bin999999999 x}}`));
  add("rtf deep groups", "/deep.rtf", "application/rtf", text(`{\\rtf1 ${"{".repeat(200_000)}x}`));
  add("sheet of sparse cells", "/sparse.xlsx", XLSX, sparseSheet());
  // 2 KB of rows nested in cells, 100,000 deep.
  add("nested sheet", "/nested.xlsx", XLSX, xlsxOf("<row><c>".repeat(100_000)));
  // 64 KB inflating to 64 MB of content.
  add("pdf stream bomb", "/inflates.pdf", "application/pdf", pdfStreamBomb(64));
  return cases;
}

/** An EPUB whose chapter names remote images, a stylesheet, a frame and an XInclude. */
function epubNaming(origin: string): Uint8Array {
  return zipSync({
    mimetype: [text("application/epub+zip"), { level: 0 }],
    "META-INF/container.xml": text(
      `<?xml version="1.0"?><container xmlns="urn:oasis:names:tc:opendocument:xmlns:container">` +
        `<rootfiles><rootfile full-path="OPS/book.opf"/></rootfiles></container>`,
    ),
    "OPS/book.opf": text(
      `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" ` +
        `xmlns:dc="http://purl.org/dc/elements/1.1/"><metadata><dc:title>Remote</dc:title>` +
        `</metadata><manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>` +
        `</manifest><spine><itemref idref="c1"/></spine></package>`,
    ),
    "OPS/c1.xhtml": text(
      `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" ` +
        `xmlns:xi="http://www.w3.org/2001/XInclude"><head><link rel="stylesheet" ` +
        `href="${origin}/style.css"/></head><body><p>Chapter text stays.</p>` +
        `<img src="${origin}/image.png"/><iframe src="${origin}/frame"></iframe>` +
        `<xi:include href="${origin}/include.xml"/><svg><image href="${origin}/svg.png"/></svg>` +
        `<p style="background:url(${origin}/bg.png)">Second paragraph.</p></body></html>`,
    ),
  });
}

/** 300 rows, each with one cell in the last column: 4.9 million cells once laid out. */
function sparseSheet(): Uint8Array {
  const rows = Array.from(
    { length: 300 },
    (_, i) => `<row r="${i + 1}"><c r="XFD${i + 1}"><v>1</v></c></row>`,
  ).join("");
  return xlsxOf(rows);
}

/** A one-sheet workbook of `sheetData` (the rows), with `sharedStrings` (the <si> items). */
export function xlsxOf(sheetData: string, sharedStrings?: string): Uint8Array {
  const rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
  return zipSync({
    "xl/workbook.xml": text(
      `<workbook xmlns:r="${rel}"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    "xl/_rels/workbook.xml.rels": text(
      `<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>`,
    ),
    "xl/worksheets/sheet1.xml": text(`<worksheet><sheetData>${sheetData}</sheetData></worksheet>`),
    ...(sharedStrings ? { "xl/sharedStrings.xml": text(`<sst>${sharedStrings}</sst>`) } : {}),
  });
}

/**
 * A one-page PDF that draws the same form `draws` times, the form `formBytes` of drawing
 * operators and one letter of text: pdf.js reads the form again at each draw (its text is not
 * cached), so the page is `draws` × `formBytes` of operators to interpret.
 */
export function pdfFormBomb(draws: number, formBytes: number): Uint8Array {
  const form = "q Q\n".repeat(formBytes / 4) + "BT /F1 1 Tf (a) Tj ET";
  const content = "/X Do\n".repeat(draws);
  return pdfOf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    page(4, "<< /XObject << /X 5 0 R >> >>"),
    stream(content),
    `<< /Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << /Font << /F1 6 0 R >> >> ` +
    `/Length ${form.length} >>\nstream\n${form}\nendstream`,
    FONT,
  ]);
}

/**
 * A one-page PDF of one letter in a Type3 font whose glyph draws the same form `draws` times, the
 * form `formBytes` of operators that draw nothing: pdf.js reads the glyph (and the form at each
 * draw) when it loads the font, before the page gives any text.
 */
export function pdfType3Bomb(draws: number, formBytes: number): Uint8Array {
  const form = "BX EX\n".repeat(formBytes / 6);
  return pdfOf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    page(4, "<< /Font << /T3 5 0 R >> >>"),
    stream("BT /T3 12 Tf 10 100 Td (a) Tj ET"),
    "<< /Type /Font /Subtype /Type3 /FontBBox [0 0 10 10] /FontMatrix [0.001 0 0 0.001 0 0] " +
    "/CharProcs << /a 6 0 R >> /Encoding << /Type /Encoding /Differences [97 /a] >> " +
    "/FirstChar 97 /LastChar 97 /Widths [1000] /Resources << /XObject << /X 7 0 R >> >> >>",
    stream("0 0 d0\n" + "/X Do\n".repeat(draws)),
    `<< /Type /XObject /Subtype /Form /BBox [0 0 10 10] /Length ${form.length} >>\n` +
    `stream\n${form}\nendstream`,
  ]);
}

/**
 * A one-page PDF whose contents are one stream of `streamBytes` of operators that draw nothing,
 * listed `times` over: pdf.js joins them into one content stream with no text in it.
 */
export function pdfBlankContents(times: number, streamBytes: number): Uint8Array {
  return pdfOf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << >> ` +
    `/Contents [${"4 0 R ".repeat(times)}] >>`,
    stream("q Q\n".repeat(streamBytes / 4)),
  ]);
}

/** A one-page PDF of `lines` lines of one letter, its content stream deflated (44 KB for 3 M). */
export function pdfLetterLines(lines: number): Uint8Array {
  const chunk = text("(a)' ".repeat(100_000));
  return deflatedPage((push) => {
    push(text("BT /F1 1 Tf "));
    for (let done = 0; done < lines; done += 100_000) push(chunk);
    push(text(" ET"));
  });
}

/**
 * A one-page PDF whose content stream is LZW codes that each repeat the longest sequence so far:
 * `codes` 12-bit codes (1.5 bytes each) decode to some 3,800 spaces apiece once the table is full.
 */
export function pdfLzwBomb(codes: number): Uint8Array {
  const out: number[] = [];
  let pending = 0;
  let bits = 0;
  const put = (code: number, length: number) => {
    pending = (pending << length) | code;
    bits += length;
    while (bits >= 8) {
      out.push((pending >>> (bits - 8)) & 255);
      bits -= 8;
    }
    pending &= (1 << bits) - 1;
  };
  // The decoder's state, as pdf.js keeps it (early change 1): the code width grows with the table.
  let nextCode = 258;
  let width = 9;
  const emit = (code: number, first = false) => {
    put(code, width);
    if (first) return;
    nextCode++;
    const next = nextCode + 1;
    if ((next & (next - 1)) === 0) width = Math.min(Math.log2(next) + 1, 12);
  };
  emit(0x20, true);
  for (let i = 0; i < codes; i++) emit(Math.min(nextCode, 4095));
  put(257, width);
  if (bits) put(0, 8 - bits);
  const stream = fromLatin1(Uint8Array.from(out));
  return pdfOf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    page(4, "<< >>"),
    `<< /Length ${stream.length} /Filter /LZWDecode >>\nstream\n${stream}\nendstream`,
  ]);
}

/**
 * A one-page PDF whose content stream (through `filter`) inflates from about `mb` KB to `mb` MB
 * of spaces, then a line of text.
 */
export function pdfStreamBomb(mb: number, filter = "/FlateDecode"): Uint8Array {
  const spaces = new Uint8Array(1 << 20).fill(0x20);
  return deflatedPage((push) => {
    for (let i = 0; i < mb; i++) push(spaces);
    push(text(" BT /F1 12 Tf 10 100 Td (after the spaces) Tj ET"));
  }, filter);
}

/**
 * A one-page PDF (its font F1) whose content stream is what `write` pushes, deflated at level 9
 * and declared as `filter`.
 */
function deflatedPage(
  write: (push: (chunk: Uint8Array) => void) => void,
  filter = "/FlateDecode",
): Uint8Array {
  const parts: Uint8Array[] = [];
  const zlib = new Zlib({ level: 9 }, (chunk) => parts.push(chunk));
  write((chunk) => zlib.push(chunk));
  zlib.push(new Uint8Array(), true);
  const stream = parts.map(fromLatin1).join("");
  return pdfOf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    page(4, "<< /Font << /F1 5 0 R >> >>"),
    `<< /Length ${stream.length} /Filter ${filter} >>\nstream\n${stream}\nendstream`,
    FONT,
  ]);
}
