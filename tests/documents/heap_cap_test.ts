/**
 * A document whose conversion needs more heap than its thread may hold, against main.ts run as
 * `deno task start` runs it with a small DOCUMENT_HEAP_MB: the request is answered 200 in time
 * with the file described and no content, a `document not converted` line says so, the stopped
 * thread is replaced, the process lives on and the next document is converted normally.
 */
import assert from "node:assert/strict";
import { serve, waitFor } from "../_fixtures.ts";
import { startMain } from "../ops/_main_process.ts";
import { convertDocument } from "../../lib/documents/convert.ts";

const FIXTURES = new URL("../fixtures/documents/", import.meta.url);
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const LEDGER_LINE = "The quick brown fox jumps over the lazy dog by the harbour wall.";

Deno.test("a document past the conversion thread's heap cap is described; the next is read", async () => {
  const ledger = Deno.readFileSync(new URL("ledger.docx", FIXTURES));
  // A sound document: with the heap it needs (this thread's) it converts whole.
  const whole = await convertDocument("docx", ledger);
  assert.equal(whole.html.split(LEDGER_LINE).length - 1, 60_000);

  const served: Record<string, Uint8Array> = {
    "/ledger.docx": ledger,
    "/sample.docx": Deno.readFileSync(new URL("sample.docx", FIXTURES)),
  };
  await using site = serve((request) => {
    const bytes = served[new URL(request.url).pathname];
    return bytes
      ? new Response(bytes.slice(), { headers: { "content-type": DOCX } })
      : new Response("not found", { status: 404 });
  });
  const timeoutMs = 6000;
  await using main = await startMain({
    TRUSTED_TARGETS: `127.0.0.1:${site.port}`,
    REQUEST_TIMEOUT_MS: String(timeoutMs),
    DOCUMENT_HEAP_MB: "32",
  });
  const ask = async (name: string) => {
    const url = encodeURIComponent(`${site.origin}/${name}`);
    const started = performance.now();
    const response = await fetch(`${main.origin}/?url=${url}&markdown=true&data.all.attr=text`);
    const body = await response.json();
    const requestId = response.headers.get("x-request-id");
    return { status: response.status, body, ms: performance.now() - started, requestId };
  };
  const logged = () => main.lines.map((line) => JSON.parse(line));

  const capped = await ask("ledger.docx");
  assert.equal(capped.status, 200, JSON.stringify(capped.body));
  assert.ok(capped.ms < timeoutMs, `answered in ${capped.ms} ms`);
  assert.equal(capped.body.data.url, `${site.origin}/ledger.docx`);
  assert.equal(capped.body.data.markdown, undefined, "no content");
  assert.equal(capped.body.data.all, undefined, "no text");
  const notConverted = await waitFor(() =>
    logged().some((line) =>
      line.msg === "document not converted" && line.requestId === capped.requestId &&
      line.format === "docx" && line.failure === "over-budget"
    )
  );
  assert.ok(notConverted, `no "document not converted" line in\n${main.lines.join("\n")}`);

  const next = await ask("sample.docx");
  assert.equal(next.status, 200, JSON.stringify(next.body));
  assert.equal(next.body.data.title, "Quarterly Harbour Report");
  assert.ok(next.body.data.markdown.includes("Closing remark about the lighthouse keeper."));
  // The capped thread went silent and was replaced, not waited on forever.
  assert.ok(
    logged().some((line) =>
      line.msg === "document worker did not stop at its deadline; replacing it"
    ),
    main.lines.join("\n"),
  );
  const health = await fetch(`${main.origin}/health`);
  assert.equal(health.status, 200, "the process lives on");
  await health.body?.cancel();
  assert.equal(main.stderr(), "", "nothing was logged as an error");
});
