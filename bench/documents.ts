/**
 * `deno task bench:documents`: document targets converted through linkpeek (the real handler,
 * a loopback target, the document workers, the default fields) beside the bare converter called
 * directly on this thread (for PDF, pdf.js itself: getDocument and every page's text), in one
 * run, on documents of 10, 100 and 1,000 pages (or the equivalent: sections, slides, chapters,
 * 50 spreadsheet rows a page) generated here. Printed per format and size: median time of each,
 * linkpeek's ratio to the bare converter (target ≤ 1.2x), the median CPU time the process spent
 * on each (every thread: linkpeek's fetch, workers and fields; the peer's GC) and its ratio, the
 * growth per tenfold size of both in time and in CPU time (linear: ~10x), and peak RSS growth
 * during each. On a machine shared with other work, wall time swings with the load (a run
 * waits for a core, a long one more than a short one) while CPU time does not: both are
 * printed. Then 50 hostile documents (tests/documents/_hostile.ts) one after another: RSS
 * before and after, past one warm pass of the same 50 (target: back within 10%) and the longest event-loop stall while they ran
 * (target: none over 100 ms).
 */
import process from "node:process";
import { zipSync } from "fflate";
import { convertDocument } from "../lib/documents/convert.ts";
import type { DocumentFormat } from "../lib/documents/detect.ts";
import { q, serve, testApp, testConfig } from "../tests/_fixtures.ts";
import { hostileDocuments, pdfOf } from "../tests/documents/_hostile.ts";

const SIZES = [10, 100, 1000];
/** `DOCUMENT_ROUNDS=7` measures each size more times (medians). */
const ROUNDS = Number(Deno.env.get("DOCUMENT_ROUNDS") ?? 3);
const ALL_FORMATS: DocumentFormat[] = [
  "pdf",
  "docx",
  "xlsx",
  "pptx",
  "odt",
  "rtf",
  "epub",
];
/** `DOCUMENT_FORMATS=rtf,pdf` measures only those. */
const FORMATS = (Deno.env.get("DOCUMENT_FORMATS")?.split(",") as DocumentFormat[] | undefined)
  ?.filter((f) => ALL_FORMATS.includes(f)) ?? ALL_FORMATS;
const text = (value: string) => new TextEncoder().encode(value);
const write = (line = "") => Deno.stdout.writeSync(text(line + "\n"));

/** A paragraph of ~240 characters, numbered so that no two are alike. */
const sentence = (page: number, line: number) =>
  `Page ${page} paragraph ${line}: the harbour master counted ships, ferries and tankers ` +
  `passing the lighthouse, and wrote each one down in the ledger kept beside the window ` +
  `for the quarterly report on traffic through the channel.`;
const PARAGRAPHS = 10;
/**
 * Rows of a spreadsheet's "page": 1,000 pages of 20 rows of 4 cells stay under the node cap a
 * converted document must fit (DOCUMENT_LIMITS.maxHtmlNodes); at 50 rows, 1,000 pages passed it
 * and were refused, and the bench stopped there.
 */
const XLSX_ROWS = 20;
/** OOXML core properties: the title the default fields read. */
const CORE = text(
  `<cp:coreProperties xmlns:cp="cp" xmlns:dc="dc"><dc:title>Harbour ledger</dc:title></cp:coreProperties>`,
);

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

function makeDocument(format: DocumentFormat, pages: number): Uint8Array {
  const each = <T>(fn: (page: number) => T) => Array.from({ length: pages }, (_, i) => fn(i + 1));
  const lines = (page: number) => Array.from({ length: PARAGRAPHS }, (_, i) => sentence(page, i));
  switch (format) {
    case "pdf": {
      const objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        `<< /Type /Pages /Kids [${each((p) => `${2 + p * 2} 0 R`).join(" ")}] /Count ${pages} >>`,
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
      ];
      for (let p = 1; p <= pages; p++) {
        const body = lines(p).map((l) => `(${l}) Tj T*`).join(" ");
        const content =
          `BT /F1 9 Tf 20 780 Td 14 TL (Heading of page ${p}) Tj T* /F1 5 Tf ${body} ET`;
        objects.push(
          `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${
            3 + p * 2
          } 0 R >>`,
          `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
        );
      }
      return pdfOf(objects);
    }
    case "docx": {
      const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
      const p = (t: string, heading = false) =>
        `<w:p>${heading ? '<w:pPr><w:outlineLvl w:val="0"/></w:pPr>' : ""}<w:r><w:t>${
          escape(t)
        }</w:t></w:r></w:p>`;
      const body = each((n) =>
        p(`Heading of page ${n}`, true) + lines(n).map((l) => p(l)).join("")
      );
      return zipSync({
        "word/document.xml": text(
          `<w:document ${W}><w:body>${body.join("")}</w:body></w:document>`,
        ),
      });
    }
    case "xlsx": {
      const rows = each((n) =>
        Array.from(
          { length: XLSX_ROWS },
          (_, r) =>
            `<row><c t="inlineStr"><is><t>Page ${n} row ${r}</t></is></c><c><v>${n * r}</v></c>` +
            `<c t="inlineStr"><is><t>harbour ledger entry</t></is></c><c><v>${r}</v></c></row>`,
        ).join("")
      ).join("");
      const rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
      return zipSync({
        "docProps/core.xml": CORE,
        "xl/workbook.xml": text(
          `<workbook xmlns:r="${rel}"><sheets><sheet name="Ledger" r:id="rId1"/></sheets></workbook>`,
        ),
        "xl/_rels/workbook.xml.rels": text(
          `<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>`,
        ),
        "xl/worksheets/sheet1.xml": text(
          `<worksheet><sheetData>${rows}</sheetData></worksheet>`,
        ),
      });
    }
    case "pptx": {
      const rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
      const files: Record<string, Uint8Array> = {
        "docProps/core.xml": CORE,
        "ppt/presentation.xml": text(
          `<p:presentation xmlns:r="${rel}" xmlns:p="p"><p:sldIdLst>${
            each((n) => `<p:sldId id="${255 + n}" r:id="rId${n}"/>`).join("")
          }</p:sldIdLst></p:presentation>`,
        ),
        "ppt/_rels/presentation.xml.rels": text(
          `<Relationships>${
            each((n) => `<Relationship Id="rId${n}" Target="slides/slide${n}.xml"/>`).join("")
          }</Relationships>`,
        ),
      };
      for (let n = 1; n <= pages; n++) {
        const para = (t: string) => `<a:p><a:r><a:t>${escape(t)}</a:t></a:r></a:p>`;
        files[`ppt/slides/slide${n}.xml`] = text(
          `<p:sld xmlns:a="a" xmlns:p="p"><p:cSld><p:spTree><p:sp><p:nvSpPr><p:nvPr><p:ph type="title"/>` +
            `</p:nvPr></p:nvSpPr><p:txBody>${para(`Slide ${n}`)}</p:txBody></p:sp><p:sp><p:txBody>${
              lines(n).map(para).join("")
            }</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`,
        );
      }
      return zipSync(files);
    }
    case "odt": {
      const body = each((n) =>
        `<text:h text:outline-level="1">Heading of page ${n}</text:h>` +
        lines(n).map((l) => `<text:p>${escape(l)}</text:p>`).join("")
      ).join("");
      return zipSync({
        mimetype: [text("application/vnd.oasis.opendocument.text"), {
          level: 0,
        }],
        "content.xml": text(
          `<office:document-content xmlns:office="o" xmlns:text="t"><office:body><office:text>${body}` +
            `</office:text></office:body></office:document-content>`,
        ),
      });
    }
    case "rtf": {
      const body = each((n) =>
        `{\\pard\\outlinelevel0 Heading of page ${n}\\par}` +
        lines(n).map((l) => `{\\pard ${l}\\par}`).join("\n")
      ).join("\n");
      return text(
        `{\\rtf1\\ansi\\ansicpg1252{\\fonttbl{\\f0 Helvetica;}}\n${body}}`,
      );
    }
    case "epub": {
      const files: Record<string, Uint8Array | [Uint8Array, { level: 0 }]> = {
        mimetype: [text("application/epub+zip"), { level: 0 }],
        "META-INF/container.xml": text(
          `<container><rootfiles><rootfile full-path="OPS/book.opf"/></rootfiles></container>`,
        ),
        "OPS/book.opf": text(
          `<package xmlns:dc="dc"><metadata><dc:title>Ledger</dc:title></metadata><manifest>${
            each((n) => `<item id="c${n}" href="c${n}.xhtml" media-type="application/xhtml+xml"/>`)
              .join("")
          }</manifest><spine>${each((n) => `<itemref idref="c${n}"/>`).join("")}</spine></package>`,
        ),
      };
      for (let n = 1; n <= pages; n++) {
        files[`OPS/c${n}.xhtml`] = text(
          `<html><body><h1>Chapter ${n}</h1>${
            lines(n).map((l) => `<p>${escape(l)}</p>`).join("")
          }</body></html>`,
        );
      }
      return zipSync(files);
    }
  }
}

/** pdf.js alone, as a PDF-to-text tool uses it: the document, then every page's text. */
async function barePdfjs(bytes: Uint8Array): Promise<void> {
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const task = pdfjs.getDocument({
    data: bytes.slice(),
    disableFontFace: true,
    verbosity: 0,
  });
  const doc = await task.promise;
  await doc.getMetadata();
  for (let n = 1; n <= doc.numPages; n++) {
    await (await doc.getPage(n)).getTextContent();
  }
  await task.destroy();
}

/** The process's CPU time so far (ms, user and system, every thread). */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * Time (ms), CPU time (ms) and peak RSS growth (MB) of `run`, sampling RSS every 5 ms while it
 * awaits.
 */
async function measure(
  run: () => Promise<unknown>,
): Promise<{ ms: number; cpu: number; peakMb: number }> {
  const base = Deno.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(
    () => peak = Math.max(peak, Deno.memoryUsage().rss),
    5,
  );
  const cpuStarted = cpuMs();
  const started = performance.now();
  await run();
  const ms = performance.now() - started;
  const cpu = cpuMs() - cpuStarted;
  clearInterval(sampler);
  peak = Math.max(peak, Deno.memoryUsage().rss);
  return { ms, cpu, peakMb: (peak - base) / 2 ** 20 };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const gc = () => (globalThis as { gc?: () => void }).gc?.();

const documents = new Map<string, Uint8Array>();
for (const format of FORMATS) {
  for (const pages of SIZES) {
    documents.set(`/${pages}.${format}`, makeDocument(format, pages));
  }
}
const hostile = hostileDocuments("http://127.0.0.1:9");
await using site = serve((request) => {
  const path = new URL(request.url).pathname;
  const bytes = documents.get(path) ??
    hostile.find((h) => h.path === path)?.bytes;
  return bytes
    ? new Response(bytes.slice(), {
      headers: { "content-type": "application/octet-stream" },
    })
    : new Response("not found", { status: 404 });
});
await using app = await testApp(
  testConfig({
    trustPorts: [site.port],
    requestTimeoutMs: 120_000,
    maxBodyBytes: 32 << 20,
    // Every request here is a free-plan one from 127.0.0.1.
    freeDailyLimit: 1_000_000,
  }),
);
const viaLinkpeek = async (path: string) => {
  const response = await app.get(q(`${site.origin}${path}`, "&force=true"));
  const body = await response.json();
  if (response.status !== 200 || !body.data?.title) {
    throw new Error(
      `${path}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`,
    );
  }
};

write(
  `bench:documents — ${ROUNDS} rounds a size, medians; cpu = the process's CPU time; ` +
    "peak = RSS growth during the run",
);
const columns = [
  ["format", 6],
  ["pages", 5],
  ["bytes", 8],
  ["lp ms", 8],
  ["bare ms", 8],
  ["ratio", 5],
  ["lp cpu", 8],
  ["bare cpu", 8],
  ["cpu ratio", 9],
  ["growth lp", 11],
  ["growth bare", 11],
  ["peak lp MB", 10],
  ["peak bare MB", 12],
] as const;
const row = (cells: string[]) =>
  cells.map((cell, i) => i === 0 ? cell.padEnd(columns[i]![1]) : cell.padStart(columns[i]![1]))
    .join("  ");
write(row(columns.map(([name]) => name)));
const verdicts: string[] = [];
for (const format of FORMATS) {
  let previous: Record<"lp" | "bare", { ms: number; cpu: number }> | null = null;
  for (const pages of SIZES) {
    const path = `/${pages}.${format}`;
    const bytes = documents.get(path)!;
    const bare = format === "pdf" ? () => barePdfjs(bytes) : () => convertDocument(format, bytes);
    await viaLinkpeek(path); // warm: workers up, pdf.js loaded
    await bare();
    const lp: { ms: number; cpu: number }[] = [];
    const br: { ms: number; cpu: number }[] = [];
    let lpPeak = 0;
    let brPeak = 0;
    for (let round = 0; round < ROUNDS; round++) {
      gc();
      const a = await measure(() => viaLinkpeek(path));
      gc();
      const b = await measure(bare);
      lp.push(a);
      br.push(b);
      lpPeak = Math.max(lpPeak, a.peakMb);
      brPeak = Math.max(brPeak, b.peakMb);
    }
    const lpMs = median(lp.map((m) => m.ms));
    const brMs = median(br.map((m) => m.ms));
    const lpCpu = median(lp.map((m) => m.cpu));
    const brCpu = median(br.map((m) => m.cpu));
    const ratio = lpMs / brMs;
    const cpuRatio = lpCpu / brCpu;
    // Per tenfold size, in time then in CPU time: "16.9x/8.8x".
    const growth = (
      now: number,
      nowCpu: number,
      before?: { ms: number; cpu: number },
    ) =>
      before === undefined
        ? ""
        : `${(now / before.ms).toFixed(1)}x/${(nowCpu / before.cpu).toFixed(1)}x`;
    write(row([
      format,
      String(pages),
      String(bytes.length),
      lpMs.toFixed(1),
      brMs.toFixed(1),
      ratio.toFixed(2),
      lpCpu.toFixed(1),
      brCpu.toFixed(1),
      cpuRatio.toFixed(2),
      growth(lpMs, lpCpu, previous?.lp),
      growth(brMs, brCpu, previous?.bare),
      lpPeak.toFixed(1),
      brPeak.toFixed(1),
    ]));
    previous = { lp: { ms: lpMs, cpu: lpCpu }, bare: { ms: brMs, cpu: brCpu } };
    if (pages === 1000) {
      const pass = (value: number) => value <= 1.2 ? "PASS" : "FAIL";
      verdicts.push(
        `${format}: overhead ${ratio.toFixed(2)}x in time ${pass(ratio)}, ` +
          `${cpuRatio.toFixed(2)}x in CPU ${pass(cpuRatio)} at 1000 pages`,
      );
    }
  }
}
for (const line of verdicts) write(line);

// Hostile documents: RSS before and after 50 of them, and the longest event-loop stall.
// One pass of the same 50 first: the threads' heaps reach the size this work keeps them at, so
// what the measured pass adds is what the documents leave behind, not the pool's working set.
for (let i = 0; i < 50; i++) {
  const h = hostile[i % hostile.length]!;
  await (await app.get(q(`${site.origin}${h.path}`, "&force=true"))).body?.cancel();
}
await new Promise((resolve) => setTimeout(resolve, 500));
gc();
const before = Deno.memoryUsage().rss;
let stall = 0;
let last = performance.now();
const ticker = setInterval(() => {
  const now = performance.now();
  stall = Math.max(stall, now - last - 10);
  last = now;
}, 10);
const statuses = new Map<number, number>();
const started = performance.now();
for (let i = 0; i < 50; i++) {
  const h = hostile[i % hostile.length]!;
  const response = await app.get(q(`${site.origin}${h.path}`, "&force=true"));
  statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
  await response.body?.cancel();
}
const elapsed = performance.now() - started;
clearInterval(ticker);
await new Promise((resolve) => setTimeout(resolve, 500));
gc();
const after = Deno.memoryUsage().rss;
const drift = (after - before) / before;
write(
  `hostile: 50 documents in ${elapsed.toFixed(0)} ms, statuses ${
    JSON.stringify(Object.fromEntries(statuses))
  }`,
);
write(
  `hostile: RSS ${(before / 2 ** 20).toFixed(1)} MB before, ${(after / 2 ** 20).toFixed(1)} MB ` +
    // What stays behind is growth; RSS that falls (a thread's heap given back) is no leak.
    `after (${(drift * 100).toFixed(1)}%) ${drift <= 0.1 ? "PASS" : "FAIL"}`,
);
write(
  `hostile: longest event-loop stall ${stall.toFixed(1)} ms ${stall <= 100 ? "PASS" : "FAIL"}`,
);
