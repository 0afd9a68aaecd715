/**
 * extract() over the vendored corpus (tests/fixtures/corpus: metascraper's saved pages that fit
 * in 64 KB gzipped), scored like the shared corpus' score.mjs. The floors are what the rules
 * reach now ("excl": leaving out values upstream got from the network), so any regression
 * fails. The full sets are scored by `deno task bench:extract`.
 */
import assert from "node:assert/strict";
import { extract } from "../../lib/extract/mod.ts";
import { type CaseSet, exclAccuracy, FIELDS, loadCorpus, score } from "./_corpus.ts";

type Floors = { cases: number; overall: number; fields: Record<string, number> };

// What the rules reach on the vendored pages; the misses left are upstream quirks (an empty
// data: placeholder or the emoji sprite as a page's image, an obfuscated e-mail as an author,
// Microlink's own image proxy for Reddit, a blob: URL as a video) or, for the integration page
// "instagram", an author the Instagram rules now find where the generic bundle found none.
const FLOORS: Record<CaseSet, Floors> = {
  cases: {
    cases: 51,
    overall: 0.993,
    fields: {
      title: 1,
      description: 1,
      author: 0.952,
      publisher: 1,
      date: 1,
      lang: 1,
      image: 0.975,
      logo: 1,
      url: 1,
      audio: 1,
      video: 1,
    },
  },
  "cases-platform": {
    cases: 23,
    overall: 0.986,
    fields: {
      title: 1,
      description: 1,
      author: 1,
      publisher: 1,
      date: 1,
      lang: 1,
      image: 0.916,
      logo: 1,
      url: 1,
      audio: 1,
      video: 0.833,
    },
  },
};

for (const set of ["cases", "cases-platform"] as const) {
  Deno.test(`extract() reaches the ${set} floors on every field`, async (t) => {
    const floors = FLOORS[set];
    const cases = await loadCorpus(set);
    assert.equal(cases.length, floors.cases, `expected ${floors.cases} vendored ${set} pages`);
    const outputs: Record<string, Record<string, unknown>> = {};
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
    const report = score(cases, outputs);

    await t.step("overall accuracy (excl) holds its floor", () => {
      const overall = report.overall.excluding_flagged.micro;
      assert.ok(overall >= floors.overall - 1e-9, `overall excl ${overall} < ${floors.overall}`);
    });
    for (const field of FIELDS) {
      const f = report.fields[field];
      if (!f) continue;
      await t.step(`${field} accuracy (excl) holds its floor`, () => {
        const acc = exclAccuracy(f);
        const floor = floors.fields[field];
        assert.ok(floor !== undefined, `no floor for ${field}`);
        const misses = report.mismatches.filter((m) => m.field === field && !m.flagged)
          .map((m) =>
            `${m.case}: expected ${JSON.stringify(m.expected)}, got ${JSON.stringify(m.actual)}`
          );
        assert.ok(acc >= floor - 1e-9, `${field} excl ${acc.toFixed(3)} < ${floor}\n${misses}`);
      });
    }
  });
}
