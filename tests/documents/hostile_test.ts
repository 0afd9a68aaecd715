/**
 * Hostile documents against main.ts run as `deno task start` runs it: each is answered 200
 * within the request's deadline, with the file described and no content when it cannot be
 * read (and a log line saying why), nothing a document names is fetched, and the next request
 * is served normally.
 */
import assert from "node:assert/strict";
import { serve, waitFor } from "../_fixtures.ts";
import { startMain } from "../ops/_main_process.ts";
import { hostileDocuments } from "./_hostile.ts";

const SAMPLE = new URL("../fixtures/documents/sample.docx", import.meta.url);
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** Cases the converters refuse, by the failure their log line names. */
const REFUSED: Record<string, string> = {
  "zip bomb entry": "too-large",
  "thousands of entries": "too-large",
  "truncated zip": "corrupt",
  "corrupt pdf": "corrupt",
  "huge page count": "too-large",
  "deeply nested objects": "corrupt",
  "rtf binary claim": "corrupt",
  "rtf deep groups": "too-large",
  "sheet of sparse cells": "too-large",
  "nested sheet": "too-large",
  "pdf stream bomb": "too-large",
  "encrypted pdf": "encrypted",
};

Deno.test("hostile documents are answered in time, described, logged; the next is served", async () => {
  // Anything a document names points here: it must never be asked for anything.
  await using sentinel = serve(() => new Response("no"));
  const cases = hostileDocuments(sentinel.origin);
  cases.push({
    name: "encrypted pdf",
    path: "/encrypted.pdf",
    type: "application/pdf",
    bytes: Deno.readFileSync(new URL("../fixtures/documents/encrypted.pdf", import.meta.url)),
  });
  const byPath = new Map(cases.map((c) => [c.path, c]));
  await using site = serve((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/sample.docx") {
      return new Response(Deno.readFileSync(SAMPLE), { headers: { "content-type": DOCX } });
    }
    const found = byPath.get(path);
    return found
      ? new Response(found.bytes.slice(), { headers: { "content-type": found.type } })
      : new Response("not found", { status: 404 });
  });
  const timeoutMs = 8000;
  await using main = await startMain({
    TRUSTED_TARGETS: `127.0.0.1:${site.port},127.0.0.1:${sentinel.port}`,
    REQUEST_TIMEOUT_MS: String(timeoutMs),
  });
  const ask = async (path: string) => {
    const url = encodeURIComponent(`${site.origin}${path}`);
    const started = performance.now();
    const response = await fetch(`${main.origin}/?url=${url}&markdown=true&data.all.attr=text`);
    const body = await response.json();
    const requestId = response.headers.get("x-request-id");
    return { status: response.status, body, ms: performance.now() - started, requestId };
  };

  for (const hostile of cases) {
    const { status, body, ms, requestId } = await ask(hostile.path);
    assert.equal(status, 200, `${hostile.name}: ${JSON.stringify(body)}`);
    assert.ok(ms < timeoutMs, `${hostile.name} took ${ms} ms`);
    assert.equal(body.data.url, `${site.origin}${hostile.path}`, hostile.name);
    const failure = REFUSED[hostile.name];
    if (failure) {
      assert.equal(body.data.markdown, undefined, `${hostile.name} has no content`);
      assert.equal(body.data.all, undefined, `${hostile.name} has no text`);
      if (hostile.path.endsWith(".pdf")) {
        assert.equal(body.data.pdf.type, "pdf", hostile.name);
        assert.equal(body.data.pdf.pages, null, hostile.name);
      }
      const logged = await waitFor(() =>
        main.lines.map((line) => JSON.parse(line)).some((line) =>
          line.msg === "document not converted" && line.failure === failure &&
          line.requestId === requestId
        )
      );
      assert.ok(logged, `${hostile.name}: no "${failure}" log line in\n${main.lines.join("\n")}`);
    }
  }
  // Converted, but nothing expanded and nothing fetched.
  const laughs = await ask("/laughs.docx");
  assert.ok(laughs.body.data.markdown.includes("laughs"), laughs.body.data.markdown);
  assert.ok(!laughs.body.data.markdown.includes("lollol"), "an entity was expanded");
  const remote = await ask("/remote.epub");
  assert.ok(remote.body.data.markdown.includes("Chapter text stays."), remote.body.data.markdown);
  assert.ok(remote.body.data.markdown.includes("Second paragraph."), remote.body.data.markdown);
  assert.equal(sentinel.hits, 0, `fetched: ${sentinel.paths.join(", ")}`);

  const next = await ask("/sample.docx");
  assert.equal(next.status, 200);
  assert.equal(next.body.data.title, "Quarterly Harbour Report");
  assert.ok(next.body.data.markdown.includes("Closing remark about the lighthouse keeper."));
  assert.equal(main.stderr(), "", "nothing was logged as an error");
});
