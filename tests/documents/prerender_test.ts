/**
 * A document target with the browser in the way: `prerender=true` (Chromium would show a PDF in
 * its viewer and abort on a .docx it downloads) and `prerender=auto` when a wall sends the browser
 * on to a document. Each is still fetched and converted, and `x-fetch-mode` stays `fetch`. Real
 * Chromium, the real fixtures, a loopback site.
 */
import assert from "node:assert/strict";
import { html, q, testApp, testConfig } from "../_fixtures.ts";
import { documentSite } from "./_site.ts";

const TITLES: Record<string, string> = {
  pdf: "Field Notes on Moss",
  docx: "Quarterly Harbour Report",
  rtf: "Field Notes on Moss",
};
const FIRST_LINES: Record<string, string> = {
  pdf: "The moss grows thickest where the wall stays damp all morning.",
  docx: "The harbour saw steady traffic of cargo ships through the quarter.",
  rtf: "The moss grows thickest where the wall stays damp all morning.",
};

for (const format of ["pdf", "docx", "rtf"]) {
  Deno.test(`prerender=true converts a ${format} target instead of rendering it`, async () => {
    await using site = documentSite();
    await using app = await testApp(testConfig({ trustPorts: [site.port] }));
    const { status, headers, body } = await app.json(
      q(`${site.origin}/sample.${format}`, "&prerender=true&markdown=true&ping=false"),
    );
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(headers.get("x-fetch-mode"), "fetch");
    assert.equal(body.data.title, TITLES[format]);
    assert(body.data.markdown.includes(FIRST_LINES[format]!), body.data.markdown);
    if (format === "pdf") assert.equal(body.data.pdf.pages, 1);
  });
}

Deno.test("prerender=auto: a wall the browser follows to a PDF ends converted", async () => {
  const wall =
    `<!doctype html><html><head><meta http-equiv="refresh" content="0;url=/sample.pdf">` +
    `</head><body></body></html>`;
  await using site = documentSite({ "/wall": () => html(wall) });
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  const { status, headers, body } = await app.json(
    q(`${site.origin}/wall`, "&markdown=true&ping=false"),
  );
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(headers.get("x-fetch-mode"), "fetch");
  assert.equal(body.data.title, TITLES.pdf);
  assert.equal(body.data.url, `${site.origin}/sample.pdf`);
  assert(body.data.markdown.includes(FIRST_LINES.pdf!), body.data.markdown);
});

Deno.test("prerender=true on a page the browser cannot load keeps the browser's error", async () => {
  // Served as a download: Chromium aborts it, and its bytes are no document either.
  await using site = documentSite({
    "/notes.bin": () =>
      new Response("plain words", {
        headers: {
          "content-type": "application/octet-stream",
          "content-disposition": 'attachment; filename="notes.bin"',
        },
      }),
  });
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  const { status, body } = await app.json(
    q(`${site.origin}/notes.bin`, "&prerender=true&ping=false"),
  );
  assert.equal(status, 502, JSON.stringify(body));
  assert.equal(body.code, "EFETCH");
});
