/**
 * Hostile documents' bounds, converter by converter, each made here: a refusal ("too-large") in
 * a few milliseconds of work, where the old readers spent the whole request's budget on a file
 * of a few kilobytes (nested XML looked into once per enclosing element) or read a document in
 * part without saying so (a part past the parser's node cap), or inflated a PDF's stream whole
 * outside the worker's heap cap.
 */
import assert from "node:assert/strict";
import { zipSync } from "fflate";
import { convertDocument } from "../../lib/documents/convert.ts";
import { BoundedDecompressionStream } from "../../lib/documents/decompression.ts";
import type { DocumentFormat } from "../../lib/documents/detect.ts";
import { DocumentRefused } from "../../lib/documents/refused.ts";
import { DocumentWorkers } from "../../lib/documents/workers.ts";
import {
  pdfBlankContents,
  pdfFormBomb,
  pdfLetterLines,
  pdfLzwBomb,
  pdfStreamBomb,
  pdfType3Bomb,
  xlsxOf as xlsx,
} from "./_hostile.ts";
import { q, serve, testApp, testConfig } from "../_fixtures.ts";

const text = (value: string) => new TextEncoder().encode(value);

/** An EPUB of one chapter whose body is `body`. */
function epubOf(body: string): Uint8Array {
  return zipSync({
    mimetype: [text("application/epub+zip"), { level: 0 }],
    "META-INF/container.xml": text(
      `<container><rootfiles><rootfile full-path="OPS/book.opf"/></rootfiles></container>`,
    ),
    "OPS/book.opf": text(
      `<package><manifest><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/>` +
        `</manifest><spine><itemref idref="c"/></spine></package>`,
    ),
    "OPS/c.xhtml": text(`<html><body>${body}</body></html>`),
  });
}
const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

function docx(body: string): Uint8Array {
  return zipSync({
    "word/document.xml": text(`<w:document ${W}><w:body>${body}</w:body></w:document>`),
  });
}

/**
 * The refusal's reason and message, within a budget far past what the bounded readers need: the
 * old ones ran the budget out (BudgetExceeded) or converted the document in part.
 */
async function refusal(format: DocumentFormat, bytes: Uint8Array): Promise<DocumentRefused> {
  const outcome = await convertDocument(format, bytes, { endsAt: Date.now() + 10_000 }).then(
    (converted) => `converted (${converted.html.length} characters of HTML)`,
    (error: unknown) => error,
  );
  assert.ok(outcome instanceof DocumentRefused, `not refused: ${String(outcome)}`);
  return outcome;
}

Deno.test("nested XML in a few kilobytes is refused, not looked into once per level", async () => {
  const cases: Array<[DocumentFormat, string, Uint8Array]> = [
    ["xlsx", "rows in cells", xlsx("<row><c>".repeat(100_000))],
    [
      "xlsx",
      "shared strings in strings",
      xlsx(`<row><c t="s"><v>0</v></c></row>`, "<si>".repeat(50_000)),
    ],
    [
      "docx",
      "tables in cells",
      docx("<w:tbl><w:tr><w:tc><w:p><w:r><w:t>x</w:t></w:r></w:p>".repeat(20_000)),
    ],
    ["docx", "paragraphs in a cell", docx("<w:tbl><w:tr><w:tc>" + "<w:p>".repeat(100_000))],
  ];
  for (const [format, name, bytes] of cases) {
    assert.ok(bytes.length < 4096, `${name}: ${bytes.length} bytes`);
    const refused = await refusal(format, bytes);
    assert.equal(refused.reason, "too-large", `${name}: ${refused.message}`);
    assert.match(refused.message, /nests deeper than 256 elements/, name);
  }
});

/** Words for nested cases: none is part of another. */
const WORDS = ["alpha", "bravo", "charlie", "delta", "echo"];

/** `open(word)` for each word, nested, then `close` as many times. */
function nested(open: (word: string) => string, close: string): string {
  return WORDS.map(open).join("") + close.repeat(WORDS.length);
}

function pptx(slide: string): Uint8Array {
  const rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
  return zipSync({
    "ppt/presentation.xml": text(
      `<p:presentation xmlns:r="${rel}"><p:sldIdLst><p:sldId r:id="rId1"/></p:sldIdLst>` +
        `</p:presentation>`,
    ),
    "ppt/_rels/presentation.xml.rels": text(
      `<Relationships><Relationship Id="rId1" Target="slides/slide1.xml"/></Relationships>`,
    ),
    "ppt/slides/slide1.xml": text(`<p:sld><p:cSld><p:spTree>${slide}</p:spTree></p:cSld></p:sld>`),
  });
}

function odt(body: string): Uint8Array {
  return zipSync({
    mimetype: [text("application/vnd.oasis.opendocument.text"), { level: 0 }],
    "content.xml": text(
      `<office:document-content><office:body><office:text>${body}</office:text></office:body>` +
        `</office:document-content>`,
    ),
  });
}

Deno.test("text in nested tables, paragraphs and strings is read once", async () => {
  // The old readers looked for rows, cells, paragraphs and runs at every depth, and read a
  // nested one's text again for each one around it: "echo" came out five times.
  // Each case: its format, its bytes, and how many nested structures hold the words.
  const cases: Array<[DocumentFormat, Uint8Array, number]> = [
    [
      "docx",
      docx(
        nested(
          (w) => `<w:tbl><w:tr><w:tc><w:p><w:r><w:t>${w}</w:t></w:r></w:p>`,
          "</w:tc></w:tr></w:tbl>",
        ),
      ),
      1,
    ],
    [
      "odt",
      odt(
        nested(
          (w) => `<table:table><table:table-row><table:table-cell><text:p>${w}</text:p>`,
          "</table:table-cell></table:table-row></table:table>",
        ),
      ),
      1,
    ],
    [
      "pptx",
      pptx(
        `<p:graphicFrame>${
          nested((w) =>
            `<a:tbl><a:tr><a:tc><a:p><a:r><a:t>${w}</a:t></a:r></a:p>`, "</a:tc></a:tr></a:tbl>")
        }</p:graphicFrame><p:sp>${
          nested((w) => `<a:p><a:r><a:t>${w}</a:t></a:r>`, "</a:p>")
        }</p:sp>`,
      ),
      2,
    ],
    [
      "xlsx",
      xlsx(
        `<row><c t="s"><v>0</v></c><c t="s"><v>1</v></c><c t="inlineStr"><is>` +
          `${nested((w) => `<t>${w}`, "</t>")}</is></c></row>`,
        `${nested((w) => `<si><t>${w}</t>`, "</si>")}<si>${nested((w) => `<t>${w}`, "</t>")}</si>`,
      ),
      3,
    ],
  ];
  for (const [format, bytes, structures] of cases) {
    const { html } = await convertDocument(format, bytes);
    const body = html.slice(html.indexOf("<main"));
    const counts = WORDS.map((word) => body.split(word).length - 1);
    assert.deepEqual(counts, WORDS.map(() => structures), `${format}: ${body}`);
  }
});

Deno.test("80 tables nested in 10 KB of docx are read, their text once", async () => {
  // 100 KB of text a table, each in the previous one's cell: the old reader made a row of each
  // table's text and every table's inside it, 320 MB of rows, and stopped at its thread's heap
  // cap (no answer until the deadline, the thread replaced).
  const paragraph = (n: number) => `[${n}]${"a".repeat(100_000)}`;
  const tables = Array.from(
    { length: 80 },
    (_, n) => `<w:tbl><w:tr><w:tc><w:p><w:r><w:t>${paragraph(n)}</w:t></w:r></w:p>`,
  ).join("") + "</w:tc></w:tr></w:tbl>".repeat(80);
  const bytes = docx(tables);
  assert.ok(bytes.length < 16_384, `${bytes.length} bytes`);
  await using workers = new DocumentWorkers({ heapMb: 256 });
  const outcome = await workers.convert("docx", bytes, {
    endsAt: Date.now() + 20_000,
    whole: true,
  });
  assert.ok(outcome.ok, outcome.ok ? "" : `${outcome.failure}: ${outcome.message}`);
  const { html } = outcome.converted;
  for (const n of [0, 40, 79]) assert.equal(html.split(paragraph(n)).length - 1, 1, `table ${n}`);
  assert.deepEqual(workers.stats(), { busy: 0, queued: 0, workers: 1, replaced: 0 });
});

Deno.test("text of escaped characters is refused at the output budget, not past the heap cap", async () => {
  // 8 MB of "&" in a paragraph or a chapter, 30 MB in a title, each in 8-31 KB: the escaper the
  // old converters used appended to a string once per "&", 264 MB of heap for 8 MB, and the
  // thread stopped at its heap cap (no answer until the deadline, the thread replaced).
  const amps = (mb: number) => "&".repeat(mb << 20);
  const epub = epubOf(`<p>${amps(8)}</p>`);
  const titled = zipSync({
    "word/document.xml": text(`<w:document ${W}><w:body><w:p/></w:body></w:document>`),
    "docProps/core.xml": text(
      `<cp:coreProperties><dc:title>${amps(30)}</dc:title></cp:coreProperties>`,
    ),
  });
  const cases: Array<[string, DocumentFormat, Uint8Array]> = [
    ["paragraph", "docx", docx(`<w:p><w:r><w:t>${amps(8)}</w:t></w:r></w:p>`)],
    ["chapter", "epub", epub],
    ["title", "docx", titled],
  ];
  await using workers = new DocumentWorkers({ heapMb: 256 });
  for (const [name, format, bytes] of cases) {
    assert.ok(bytes.length < 40_000, `${name}: ${bytes.length} bytes`);
    const outcome = await workers.convert(format, bytes, {
      endsAt: Date.now() + 20_000,
      whole: true,
    });
    assert.ok(!outcome.ok, `${name} was converted`);
    assert.equal(outcome.failure, "too-large", `${name}: ${outcome.message}`);
    assert.deepEqual(workers.stats(), { busy: 0, queued: 0, workers: 1, replaced: 0 }, name);
  }
  // Under the budget, text and attributes are escaped as before.
  const { html } = await convertDocument(
    "docx",
    zipSync({
      "word/document.xml": text(
        `<w:document ${W}><w:body><w:p><w:r><w:t>a &amp; b &lt; c &gt; "d"</w:t></w:r></w:p>` +
          `</w:body></w:document>`,
      ),
      "docProps/core.xml": text(
        `<cp:coreProperties><dc:title>T &amp; "q"</dc:title><dc:creator>"A" &lt;a&gt;</dc:creator>` +
          `</cp:coreProperties>`,
      ),
    }),
  );
  assert.ok(html.includes(`<title>T &amp; "q"</title>`), html);
  assert.ok(html.includes(`<meta name="author" content="&quot;A&quot; &lt;a&gt;">`), html);
  assert.ok(html.includes(`<p>a &amp; b &lt; c &gt; "d"</p>`), html);
});

Deno.test("a part past the parser's node cap is refused, never read in part", async () => {
  // 200,000 cells (under the 250,000-cell budget) in 600,000 nodes: the old reader kept the
  // first 500,000 nodes and answered with two thirds of the sheet.
  const row = `<row>${"<c><v>1</v></c>".repeat(100)}</row>`;
  const refused = await refusal("xlsx", xlsx(row.repeat(2000)));
  assert.equal(refused.reason, "too-large", refused.message);
  assert.match(refused.message, /more than 500000 nodes/);
  // A million shared strings in 42 KB: the old reader dropped half of them.
  const strings = await refusal(
    "xlsx",
    xlsx(`<row><c t="s"><v>999999</v></c></row>`, "<si><t>a</t></si>".repeat(1_000_000)),
  );
  assert.equal(strings.reason, "too-large", strings.message);
});

Deno.test("a row repeating one long shared string is refused at the output budget, in time", async () => {
  // 300 cells of one 2 MB shared string, in 3 KB: the old converter built the row whole before
  // counting it, past V8's longest string ("Invalid string length", a failure, not a refusal)
  // or, its spaces normalized cell by cell, past the thread's heap cap (no answer in time, the
  // thread replaced).
  const row = `<row r="1">${'<c t="s"><v>0</v></c>'.repeat(300)}</row>`;
  const sheet = (text: string) => xlsx(row, `<si><t>${text}</t></si>`);
  const letters = sheet("a".repeat(2 << 20));
  assert.ok(letters.length < 4096, `${letters.length} bytes`);
  const refused = await refusal("xlsx", letters);
  assert.equal(refused.reason, "too-large", refused.message);
  assert.match(refused.message, /passes its size budget/);
  await using workers = new DocumentWorkers({ heapMb: 256 });
  const outcome = await workers.convert("xlsx", sheet("a  ".repeat(700_000)), {
    endsAt: Date.now() + 20_000,
    whole: true,
  });
  assert.ok(!outcome.ok, "the sheet was converted");
  assert.equal(outcome.failure, "too-large", outcome.message);
  assert.deepEqual(workers.stats(), { busy: 0, queued: 0, workers: 1, replaced: 0 });
});

Deno.test("an EPUB chapter past the parser's node cap is refused, never read in part", async () => {
  // 300,000 paragraphs: the old reader ended the chapter at the 249,998th without a word.
  const paragraphs = Array.from({ length: 300_000 }, (_, i) => `<p>n${i}</p>`).join("");
  const epub = epubOf(`${paragraphs}<p>The end.</p>`);
  const refused = await refusal("epub", epub);
  assert.equal(refused.reason, "too-large", refused.message);
  assert.match(refused.message, /more than 500000 nodes/);
});

/** An RTF of `count` one-word paragraphs, then "The end." (3 nodes of HTML a paragraph). */
function paragraphsRtf(count: number): Uint8Array {
  return text(
    `{\\rtf1 ${Array.from({ length: count }, (_, i) => `p${i}\\par `).join("")}The end.\\par}`,
  );
}

Deno.test("a document converting past the page parser's node cap is refused, never cut", async () => {
  // 170,000 paragraphs, 510,000 nodes: the old converter wrote them all and the content views
  // ended at the 166,663rd paragraph without a word.
  const refused = await refusal("rtf", paragraphsRtf(170_000));
  assert.equal(refused.reason, "too-large", refused.message);
  assert.match(refused.message, /passes 499900 nodes/);
  // Under it, the content views read the document to its end.
  const rtf = paragraphsRtf(165_000);
  await using site = serve(() =>
    new Response(rtf.slice(), { headers: { "content-type": "application/rtf" } })
  );
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  const { status, body } = await app.json(q(`${site.origin}/long.rtf`, "&markdown=true"));
  assert.equal(status, 200, JSON.stringify(body).slice(0, 400));
  assert.ok(body.data.markdown.endsWith("The end."), body.data.markdown.slice(-200));
});

Deno.test("XML as deep as real documents nest is still read", async () => {
  // 60 tables, each in the previous one's cell: 240 elements deep, under the bound.
  const nested = "<w:tbl><w:tr><w:tc><w:p><w:r><w:t>cell</w:t></w:r></w:p>".repeat(60) +
    "</w:tc></w:tr></w:tbl>".repeat(60);
  const { html } = await convertDocument("docx", docx(nested));
  assert.ok(html.includes("<td>") || html.includes("<th>"), html.slice(0, 400));
  assert.ok(html.includes("cell"), html.slice(0, 400));
});

Deno.test("a PDF stream bomb is refused in the document worker, not inflated whole", async () => {
  // 96 KB inflating to 96 MB: the old worker inflated it whole outside its heap cap (a 4 MB
  // one took the process past 7 GB) and converted it.
  const bomb = pdfStreamBomb(96);
  assert.ok(bomb.length < 200_000, `${bomb.length} bytes`);
  await using workers = new DocumentWorkers({ heapMb: 256 });
  const outcome = await workers.convert("pdf", bomb, { endsAt: Date.now() + 20_000, whole: true });
  assert.ok(!outcome.ok, `converted: ${outcome.ok && outcome.converted.html.slice(-200)}`);
  assert.equal(outcome.failure, "too-large", outcome.message);
  assert.match(outcome.message, /inflates past 33554432 bytes/);
  // The same kind of bomb encrypted by qpdf with an empty user password: pdf.js decrypts it
  // without asking, then inflates it through the same bound.
  const encrypted = Deno.readFileSync(
    new URL("../fixtures/documents/encrypted-bomb.pdf", import.meta.url),
  );
  const sealed = await workers.convert("pdf", encrypted, {
    endsAt: Date.now() + 20_000,
    whole: true,
  });
  assert.ok(!sealed.ok, "the encrypted bomb was converted");
  assert.equal(sealed.failure, "too-large", sealed.message);
  // Under the bound, the same kind of stream is read whole, text after the spaces included.
  const fine = await workers.convert("pdf", pdfStreamBomb(8), {
    endsAt: Date.now() + 20_000,
    whole: true,
  });
  assert.ok(fine.ok, fine.ok ? "" : fine.message);
  assert.ok(fine.converted.html.includes("after the spaces"), fine.converted.html);
});

Deno.test("a PDF stream pdf.js decodes itself is refused at its buffer bound; the thread lives", async () => {
  // A predictor makes pdf.js inflate in its own code, one growing buffer, in a run no budget
  // check interrupts: the old worker ran past its deadline, was replaced, and ran on (Deno's
  // terminate() does not stop a busy thread), a core busy and 50 MB more memory each second.
  const bomb = pdfStreamBomb(160, "/FlateDecode /DecodeParms << /Predictor 2 /Columns 1000 >>");
  await using workers = new DocumentWorkers({ heapMb: 256 });
  const outcome = await workers.convert("pdf", bomb, { endsAt: Date.now() + 20_000, whole: true });
  assert.ok(!outcome.ok, "the bomb was converted");
  assert.equal(outcome.failure, "too-large", outcome.message);
  assert.match(outcome.message, /decodes past 67108864 bytes/);
  assert.deepEqual(workers.stats(), { busy: 0, queued: 0, workers: 1, replaced: 0 });
  // LZW, decoded by pdf.js alone: 900 KB took the old worker to 2.7 GB with no answer in time.
  const lzw = await workers.convert("pdf", pdfLzwBomb(600_000), {
    endsAt: Date.now() + 20_000,
    whole: true,
  });
  assert.ok(!lzw.ok, "the LZW bomb was converted");
  assert.equal(lzw.failure, "too-large", lzw.message);
  assert.deepEqual(workers.stats(), { busy: 0, queued: 0, workers: 1, replaced: 0 });
  // The same thread converts the next document.
  const sample = Deno.readFileSync(new URL("../fixtures/documents/sample.pdf", import.meta.url));
  const next = await workers.convert("pdf", sample, { endsAt: Date.now() + 20_000, whole: true });
  assert.ok(next.ok, next.ok ? "" : next.message);
  assert.ok(next.converted.html.includes("Moss on the north wall"), next.converted.html);
  assert.equal(workers.stats().replaced, 0);
});

Deno.test("a PDF page drawing one text form over and over stops at its deadline, not later", async () => {
  // 20,000 draws of a 200 KB form on one page, some minutes of work: pdf.js runs a page on
  // promise callbacks alone, so the old converter's check between pages never came; its thread
  // went silent past its deadline, was replaced, and stayed busy until the page's end.
  const bomb = pdfFormBomb(20_000, 200_000);
  await using workers = new DocumentWorkers({ heapMb: 256 });
  const outcome = await workers.convert("pdf", bomb, { endsAt: Date.now() + 2000, whole: true });
  assert.ok(!outcome.ok, "the form bomb was converted");
  assert.equal(outcome.failure, "over-budget", outcome.message);
  // The thread stopped itself and answered, within its grace: it is kept, not replaced.
  await workers.settled();
  assert.deepEqual(workers.stats(), { busy: 0, queued: 0, workers: 1, replaced: 0 });
  // Read a few times over, the same form is text like any other.
  const few = await workers.convert("pdf", pdfFormBomb(3, 400), {
    endsAt: Date.now() + 20_000,
    whole: true,
  });
  assert.ok(few.ok, few.ok ? "" : few.message);
  assert.match(few.converted.html, /aaa/);
});

Deno.test("pdf.js is stopped at the deadline inside a page that gives no text", async () => {
  // A Type3 glyph drawing a form 100,000 times (12 GB of operators, in 720 KB) and a page of 64
  // MB of operators without text (in 58 KB): pdf.js works through either on promise callbacks
  // alone and streams no text meanwhile, so no check of the converter's came; the old thread
  // went silent past its deadline, was replaced, and stayed busy (for hours, the first).
  await using workers = new DocumentWorkers({ heapMb: 256 });
  const cases: Array<[string, Uint8Array]> = [
    ["a Type3 glyph's forms", pdfType3Bomb(100_000, 120_000)],
    ["a page of operators", pdfBlankContents(1300, 50_000)],
  ];
  for (const [name, pdf] of cases) {
    const outcome = await workers.convert("pdf", pdf, { endsAt: Date.now() + 1500, whole: true });
    assert.ok(!outcome.ok, `${name} was converted`);
    assert.equal(outcome.failure, "over-budget", `${name}: ${outcome.message}`);
    // The thread stopped itself and answered, within its grace: it is kept, not replaced.
    await workers.settled();
    assert.deepEqual(workers.stats(), { busy: 0, queued: 0, workers: 1, replaced: 0 }, name);
  }
  // Read a few times over, the glyph's forms are a font like any other, and the page is read.
  const few = await workers.convert("pdf", pdfType3Bomb(3, 600), {
    endsAt: Date.now() + 20_000,
    whole: true,
  });
  assert.ok(few.ok, few.ok ? "" : few.message);
  assert.match(few.converted.html, /<p>a<\/p>/);
});

Deno.test("a PDF page of millions of texts is not kept past the thread's heap cap", async () => {
  // 3,000,000 one-letter lines in 44 KB: the old converter kept every text item of the page and
  // stopped at its thread's heap cap (no answer, the thread replaced). Past 100,000 texts a page
  // is read on without keeping any, and refused at its end (or stopped at the deadline).
  const pdf = pdfLetterLines(3_000_000);
  assert.ok(pdf.length < 64 * 1024, `${pdf.length} bytes`);
  await using workers = new DocumentWorkers({ heapMb: 256 });
  const outcome = await workers.convert("pdf", pdf, { endsAt: Date.now() + 10_000, whole: true });
  assert.ok(!outcome.ok, "the page was converted");
  await workers.settled();
  assert.deepEqual(workers.stats(), { busy: 0, queued: 0, workers: 1, replaced: 0 });
  // Read whole, a page past the bound is refused as too large.
  await assert.rejects(
    () => convertDocument("pdf", pdfLetterLines(200_000)),
    (error: unknown) =>
      error instanceof DocumentRefused && /more than 100000 texts/.test(error.message),
  );
});

Deno.test("RTF text over many lines is read in one pass, in time", async () => {
  // 1,250,000 lines of one letter (2.5 MB): the tokenizer copied the text run again at each line
  // it went on over, minutes of work with no token out, so no budget check; the old thread went
  // silent past its deadline, was replaced, and stayed busy.
  const rtf = text(`{\\rtf1 ${"a\n".repeat(1_250_000)}\\par}`);
  await using workers = new DocumentWorkers({ heapMb: 256 });
  const outcome = await workers.convert("rtf", rtf, { endsAt: Date.now() + 20_000, whole: true });
  assert.ok(outcome.ok, outcome.ok ? "" : `${outcome.failure}: ${outcome.message}`);
  assert.ok(outcome.converted.html.includes(`<p>${"a".repeat(1_250_000)}</p>`));
  assert.deepEqual(workers.stats(), { busy: 0, queued: 0, workers: 1, replaced: 0 });
  // Line breaks inside a word, after a control word, around \'hh and \uN's fallback read as ever.
  const { html } = await convertDocument(
    "rtf",
    text(`{\\rtf1\\ansi wor\r\nd\\par\ntwo\r\n\\'e9t\r\n\\'e9\\par o\\u233\n?\nk\\par}`),
  );
  assert.match(html, /<p>word<\/p>\n<p>two\u00e9t\u00e9<\/p>\n<p>o\u00e9k<\/p>/);
});

Deno.test("the bounded decompression gives the native one's bytes, whatever the pieces", async () => {
  const input = new Uint8Array(3 << 20).map((_, i) => (i * 7919) % 251);
  for (const format of ["deflate", "gzip", "deflate-raw"] as const) {
    const compressed = new Uint8Array(
      await new Response(new Blob([input]).stream().pipeThrough(new CompressionStream(format)))
        .arrayBuffer(),
    );
    const stream = new BoundedDecompressionStream(format);
    const writer = stream.writable.getWriter();
    writer.write(compressed).catch(() => {});
    writer.close().catch(() => {});
    const output = new Uint8Array(await new Response(stream.readable).arrayBuffer());
    assert.equal(output.length, input.length, format);
    assert.ok(output.every((byte, i) => byte === input[i]), `${format}: bytes differ`);
  }
});

Deno.test("an RTF of bad \\'hh escapes writes nothing to the console", async () => {
  // The tokenizer warned once per bad digit: 20,000 lines for this 40 KB file, and 2,000,000
  // (23 s of the conversion's budget) for a 4 MB one.
  const rtf = text(`{\\rtf1 before ${"\\'zz".repeat(10_000)} after}`);
  const warnings: unknown[] = [];
  // deno-lint-ignore no-console
  const warn = console.warn;
  // deno-lint-ignore no-console
  console.warn = (...args: unknown[]) => warnings.push(args);
  try {
    const { html } = await convertDocument("rtf", rtf);
    assert.match(html, /before .*after/s);
  } finally {
    // deno-lint-ignore no-console
    console.warn = warn;
  }
  assert.equal(warnings.length, 0, `warned ${warnings.length} times: ${String(warnings[0])}`);
});
