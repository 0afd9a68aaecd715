/**
 * Ordinary requests while hostile documents are read, against main.ts run as `deno task start`
 * runs it (one conversion thread): a page is answered while a document holds the thread, and an ordinary document sent right behind a hostile one is converted, not starved
 * (the old readers spent the whole budget on 2 KB of nested XML, so the next document's budget
 * ran out in the queue).
 */
import assert from "node:assert/strict";
import { html, serve, waitFor } from "../_fixtures.ts";
import { startMain } from "../ops/_main_process.ts";
import { pdfStreamBomb, xlsxOf } from "./_hostile.ts";

const FIXTURES = new URL("../fixtures/documents/", import.meta.url);
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

Deno.test("ordinary requests are served while hostile documents are read", async () => {
  const served: string[] = [];
  const documents: Record<string, [string, Uint8Array]> = {
    "/sample.docx": [DOCX, Deno.readFileSync(new URL("sample.docx", FIXTURES))],
    "/nested.xlsx": [XLSX, xlsxOf("<row><c>".repeat(100_000))],
    // pdf.js inflates a stream with a predictor in its own code, a block at a time as it reads
    // it: seconds before its buffer bound refuses it (about 15 MB/s here).
    "/predicted.pdf": [
      "application/pdf",
      pdfStreamBomb(512, "/FlateDecode /DecodeParms << /Predictor 2 /Columns 1000 >>"),
    ],
  };
  await using site = serve((request) => {
    const path = new URL(request.url).pathname;
    served.push(path);
    if (path === "/page.html") return html("<title>Plain page</title><p>Plain text.</p>");
    const found = documents[path];
    return found
      ? new Response(found[1].slice(), { headers: { "content-type": found[0] } })
      : new Response("not found", { status: 404 });
  });
  const timeoutMs = 8000;
  await using main = await startMain({
    TRUSTED_TARGETS: `127.0.0.1:${site.port}`,
    REQUEST_TIMEOUT_MS: String(timeoutMs),
  });
  const ask = async (path: string) => {
    const url = encodeURIComponent(`${site.origin}${path}`);
    const response = await fetch(`${main.origin}/?url=${url}&markdown=true`);
    return { status: response.status, body: await response.json() };
  };
  const logged = () => main.lines.map((line) => JSON.parse(line));

  // A document read for seconds: a page asked meanwhile is answered first.
  let slowDone = false;
  const slow = ask("/predicted.pdf").finally(() => slowDone = true);
  assert.ok(await waitFor(() => served.includes("/predicted.pdf")), "the PDF was never fetched");
  const page = await ask("/page.html");
  assert.equal(page.status, 200, JSON.stringify(page.body));
  assert.equal(page.body.data.title, "Plain page");
  assert.equal(slowDone, false, "the page waited for the document");
  const slowAnswer = await slow;
  assert.equal(slowAnswer.status, 200, JSON.stringify(slowAnswer.body));

  // A hostile document, and an ordinary one right behind it on the same conversion thread.
  const hostile = ask("/nested.xlsx");
  assert.ok(await waitFor(() => served.includes("/nested.xlsx")), "the sheet was never fetched");
  const ordinary = await ask("/sample.docx");
  assert.equal(ordinary.status, 200, JSON.stringify(ordinary.body));
  assert.equal(ordinary.body.data.title, "Quarterly Harbour Report");
  assert.ok(
    ordinary.body.data.markdown?.includes("Closing remark about the lighthouse keeper."),
    `the ordinary document was not converted: ${JSON.stringify(ordinary.body.data)}`,
  );
  assert.equal((await hostile).status, 200);
  assert.ok(
    await waitFor(() =>
      logged().some((line) =>
        line.msg === "document not converted" && line.format === "xlsx" &&
        line.failure === "too-large"
      )
    ),
    main.lines.join("\n"),
  );
  assert.equal(main.stderr(), "", "nothing was logged as an error");
});
