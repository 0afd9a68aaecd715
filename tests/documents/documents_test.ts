/**
 * Document targets through the real service on loopback: each format's properties become the
 * default fields, and every heading, paragraph, table cell and slide text is in the Markdown and
 * text views, in order. The fixtures were made by real producers (tests/fixtures/documents/).
 */
import assert from "node:assert/strict";
import { q, testApp, testConfig } from "../_fixtures.ts";
import { documentSite, FIXTURES } from "./_site.ts";

const MOSS = [
  "Moss on the north wall",
  "The moss grows thickest where the wall stays damp all morning.",
  "Measurements",
  "Patch",
  "Width",
  "Lichen corner",
  "14 cm",
  "Rain in June doubled the green area.",
  "Final note on spores.",
];
const MOSS_FIELDS = {
  title: "Field Notes on Moss",
  author: "Rachel Carson",
  date: "2022-06-15T17:45:00.000Z",
  lang: "en",
};

interface Expected {
  fields: Record<string, string | null>;
  texts: string[];
}

const EXPECTED: Record<string, Expected> = {
  // LibreOffice stamps the PDF with the time of the export, not the document's dates.
  pdf: { fields: { ...MOSS_FIELDS, date: "2026-11-25T20:27:39.000Z" }, texts: MOSS },
  odt: {
    fields: { ...MOSS_FIELDS, description: "Moss growth on the north wall" },
    texts: MOSS,
  },
  rtf: {
    fields: { ...MOSS_FIELDS, lang: null, description: "Moss growth on the north wall" },
    texts: MOSS,
  },
  epub: { fields: MOSS_FIELDS, texts: MOSS },
  docx: {
    fields: {
      title: "Quarterly Harbour Report",
      author: "Ada Lovelace",
      date: "2024-03-06T11:00:00.000Z",
      description: "Ships counted in the harbour this quarter",
      lang: "en",
    },
    texts: [
      "Harbour traffic overview",
      "The harbour saw steady traffic of cargo ships through the quarter.",
      "Counts by vessel type",
      "Vessel",
      "Count",
      "Tanker",
      "41",
      "Ferry",
      "97",
      "Ferries outnumbered tankers by more than two to one.",
      "Closing remark about the lighthouse keeper.",
    ],
  },
  xlsx: {
    fields: {
      title: "Orchard Inventory",
      author: "Grace Hopper",
      date: "2023-09-02T09:00:00.000Z",
      description: "Apples and pears counted per orchard row",
    },
    texts: [
      "Apples",
      "Variety",
      "Crates",
      "Ripe",
      "Braeburn",
      "12",
      "TRUE",
      "Cox",
      "7.5",
      "FALSE",
      "Pears",
      "Variety",
      "Crates",
      "Conference",
      "30",
      "Comice",
      "4",
    ],
  },
  pptx: {
    fields: {
      title: "Comet Watch Briefing",
      author: "Caroline Herschel",
      date: "2021-11-21T21:30:00.000Z",
    },
    texts: [
      "Comets seen this month",
      "Three faint comets near Orion",
      "Telescope schedule",
      "Observe after midnight on clear nights",
    ],
  },
};

/** Each of `parts` found in `text`, each after the one before. */
function assertInOrder(text: string, parts: string[], view: string): void {
  let from = 0;
  for (const part of parts) {
    const at = text.indexOf(part, from);
    assert(at >= 0, `${view}: "${part}" missing after offset ${from} in:\n${text}`);
    from = at + part.length;
  }
}

for (const [format, expected] of Object.entries(EXPECTED)) {
  Deno.test(`a ${format} target is read like a page: properties, markdown and text`, async () => {
    await using site = documentSite();
    await using app = await testApp(testConfig({ trustPorts: [site.port] }));
    const { status, headers, body } = await app.json(
      q(`${site.origin}/sample.${format}`, "&markdown=true&data.content.attr=text"),
    );
    assert.equal(status, 200);
    assert.equal(headers.get("x-fetch-mode"), "fetch");
    const { data } = body;
    for (const [field, value] of Object.entries(expected.fields)) {
      assert.equal(data[field], value, `${format} ${field}`);
    }
    assertInOrder(data.markdown, expected.texts, `${format} markdown`);
    assertInOrder(data.content, expected.texts, `${format} text`);
  });
}

Deno.test("a PDF keeps data.pdf as its media object, with its page count", async () => {
  await using site = documentSite();
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  const { body } = await app.json(q(`${site.origin}/sample.pdf`));
  assert.equal(body.data.pdf.type, "pdf");
  assert.equal(body.data.pdf.size, 22718);
  assert.equal(body.data.pdf.pages, 1);
});

Deno.test("selectors and attr=html read the converted document", async () => {
  await using site = documentSite();
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  const { body } = await app.json(
    q(
      `${site.origin}/sample.xlsx`,
      "&data.sheets.selectorAll=h2&data.sheets.attr=text" +
        "&data.first.selector=table&data.first.attr=html" +
        "&data.cell.selector=table td&data.cell.attr=markdown",
    ),
  );
  assert.deepEqual(body.data.sheets, ["Apples", "Pears"]);
  assert(body.data.first.includes("<td>Braeburn</td>"), body.data.first);
  assert.equal(body.data.cell, "Braeburn");
});

Deno.test("the bytes decide before the declared type: a docx served as text/html", async () => {
  const docx = Deno.readFileSync(new URL("sample.docx", FIXTURES));
  await using site = documentSite({
    "/report": () => new Response(docx, { headers: { "content-type": "text/html" } }),
  });
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  const { body } = await app.json(q(`${site.origin}/report`, "&markdown=true"));
  assert.equal(body.data.title, "Quarterly Harbour Report");
  assertInOrder(body.data.markdown, EXPECTED.docx!.texts, "docx as text/html");
});
