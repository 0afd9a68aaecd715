/**
 * `insights` through @microlink/mql as Microlink documents it: technologies in its item shape,
 * both parts on unless set to false, and Lighthouse's presets, outputs and settings.
 */
import assert from "node:assert/strict";
import mql from "@microlink/mql";
import { type Any, failure } from "./_mql.ts";
import { startParity } from "./_parity_target.ts";

const ICONS = "https://www.wappalyzer.com/images/icons/";

Deno.test("insights.technologies through mql: Microlink's item shape", async () => {
  await using parity = await startParity();
  const result: Any = await mql(parity.url("/wordpress"), {
    endpoint: parity.endpoint,
    meta: false,
    insights: { technologies: true, lighthouse: false },
  } as Any);
  const found: Any[] = result.data.insights.technologies;
  assert.ok(found.length > 2, JSON.stringify(found));
  for (const item of found) {
    assert.equal(typeof item.name, "string");
    assert.ok(item.confidence >= 0 && item.confidence <= 100, `${item.name} confidence`);
    assert.ok(item.logo.startsWith(ICONS), item.logo);
    assert.ok(item.url === null || URL.canParse(item.url), `${item.name} url ${item.url}`);
    assert.ok(item.categories.every((c: unknown) => typeof c === "string"), item.name);
  }
  const wordpress = found.find((t) => t.name === "WordPress");
  assert.deepEqual(
    {
      name: wordpress.name,
      confidence: wordpress.confidence,
      logo: wordpress.logo,
      url: wordpress.url,
      categories: wordpress.categories,
    },
    {
      name: "WordPress",
      confidence: 100,
      logo: `${ICONS}WordPress.svg`,
      url: "https://wordpress.org",
      categories: ["CMS", "Blogs"],
    },
  );
  const analytics = found.find((t) => t.name === "Google Analytics");
  if (analytics) assert.equal(analytics.logo, `${ICONS}Google%20Analytics.svg`);
  assert.equal(result.data.insights.lighthouse, undefined, "lighthouse=false turns it off");
});

Deno.test("insights.lighthouse through mql: on by default, presets, outputs, settings", async (t) => {
  await using parity = await startParity();
  const insights = async (path: string, wanted: Record<string, unknown>) => {
    const result: Any = await mql(parity.url(path), {
      endpoint: parity.endpoint,
      meta: false,
      force: true,
      insights: wanted,
    } as Any);
    return result.data.insights;
  };

  await t.step("technologies=true alone keeps Lighthouse on (both default to true)", async () => {
    const both = await insights("/a11y-good", { technologies: true });
    assert.ok(Array.isArray(both.technologies));
    assert.equal(both.lighthouse.lighthouseVersion, "13.5.0", "the report, as JSON");
    assert.equal(both.lighthouse.configSettings.formFactor, "mobile", "the default preset");
  });

  await t.step("output html with a Microlink preset (lr-desktop)", async () => {
    const { lighthouse } = await insights("/a11y-good", {
      technologies: false,
      lighthouse: { output: "html", preset: "lr-desktop", onlyCategories: ["seo"] },
    });
    assert.equal(typeof lighthouse, "string");
    assert.match(lighthouse.slice(0, 1000), /<!doctype html>/i, "Lighthouse's html report");
    assert.ok(lighthouse.includes("<title>Lighthouse Report</title>"), "Lighthouse's html report");
    assert.ok(lighthouse.includes('"formFactor":"desktop"'), "the preset's emulation");
  });

  await t.step("Lighthouse's formFactor and throttling passed through", async () => {
    const { lighthouse } = await insights("/a11y-good", {
      technologies: false,
      lighthouse: { formFactor: "desktop", throttling: { rttMs: 7 }, onlyCategories: ["seo"] },
    });
    assert.equal(lighthouse.configSettings.formFactor, "desktop");
    assert.equal(lighthouse.configSettings.screenEmulation.mobile, false);
    assert.equal(lighthouse.configSettings.throttling.rttMs, 7);
  });

  await t.step("output csv, with Lighthouse's skipAudits passed through", async () => {
    const { lighthouse } = await insights("/a11y-bad", {
      technologies: false,
      lighthouse: { output: "csv", onlyCategories: ["accessibility"], skipAudits: ["image-alt"] },
    });
    assert.equal(typeof lighthouse, "string");
    const lines = lighthouse.split("\r\n");
    assert.equal(lines[0], '"requestedUrl","finalDisplayedUrl","fetchTime","gatherMode"');
    assert.ok(lighthouse.includes('"accessibility","document-title"'), lighthouse.slice(0, 400));
    assert.ok(!lighthouse.includes('"image-alt"'), "the skipped audit is absent");
  });
});

Deno.test("insights.lighthouse through mql: a setting linkpeek does not pass on is refused", async (t) => {
  await using parity = await startParity();
  const refused = (lighthouse: Record<string, unknown>) =>
    failure(mql(parity.url("/a11y-good"), {
      endpoint: parity.endpoint,
      meta: false,
      insights: { technologies: false, lighthouse },
    } as Any));

  await t.step("an unknown top-level setting, named in the message", async () => {
    const error = await refused({ onlyCategories: ["seo"], disableStorageReset: true });
    assert.equal(error.code, "EINVALQUERY");
    assert.equal(error.statusCode, 400);
    assert.match(error.message, /`insights\.lighthouse\.disableStorageReset`/);
    assert.match(error.message, /onlyCategories/, "the settings it has are listed");
  });

  await t.step("an unknown member of a nested setting (throttling)", async () => {
    const error = await refused({ throttling: { rttMs: 7, packetLoss: 3 } });
    assert.equal(error.code, "EINVALQUERY");
    assert.match(error.message, /`insights\.lighthouse\.throttling\.packetLoss`/);
  });
});
