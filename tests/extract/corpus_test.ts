/**
 * extract() over the whole shared corpus, scored by the corpus' own score.mjs. The floors are
 * what the rules reach now ("excl" columns: leaving out values upstream got from the network),
 * so any regression fails.
 */
import assert from "node:assert/strict";
import { extract } from "../../lib/extract/mod.ts";
import { exclAccuracy, FIELDS, loadCorpus, score } from "./_corpus.ts";

const OVERALL_FLOOR = 0.989;
const FIELD_FLOORS: Record<(typeof FIELDS)[number], number> = {
  title: 1,
  description: 0.983,
  author: 0.95,
  publisher: 0.983,
  date: 1,
  lang: 1,
  image: 0.966,
  logo: 1,
  url: 1,
  audio: 1,
  video: 1,
};

Deno.test("extract() reaches the corpus floors on every field", async (t) => {
  const cases = loadCorpus();
  assert.ok(cases.length >= 70, `expected the 70-case corpus, found ${cases.length} cases`);
  const outputs: Record<string, unknown> = {};
  for (const c of cases) {
    const e = extract(c.html, c.url);
    outputs[c.name] = {
      ...e,
      image: e.image[0] ?? null,
      logo: e.logo[0] ?? null,
      audio: e.audio[0] ?? null,
      video: e.video[0] ?? null,
    };
  }
  const report = await score(outputs);
  assert.equal(report.cases, cases.length);

  await t.step("overall accuracy (excl) holds its floor", () => {
    const overall = report.overall.excluding_flagged.micro;
    assert.ok(overall >= OVERALL_FLOOR, `overall excl ${overall} < ${OVERALL_FLOOR}`);
  });
  for (const field of FIELDS) {
    await t.step(`${field} accuracy (excl) holds its floor`, () => {
      const f = report.fields[field];
      assert.ok(f, `no ${field} scores in the report`);
      const acc = exclAccuracy(f);
      const misses = report.mismatches.filter((m) => m.field === field && !m.flagged)
        .map((m) =>
          `${m.case}: expected ${JSON.stringify(m.expected)}, got ${JSON.stringify(m.actual)}`
        );
      assert.ok(
        acc >= FIELD_FLOORS[field] - 1e-9,
        `${field} excl ${acc.toFixed(3)} < ${FIELD_FLOORS[field]}\n${misses.join("\n")}`,
      );
    });
  }
});
