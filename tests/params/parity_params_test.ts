import assert from "node:assert/strict";
import { parseParams } from "../../lib/params/mod.ts";
import { sanitizeFilename } from "../../lib/params/filename.ts";
import { ApiError } from "../../lib/util/errors.ts";
import { validateRules } from "../../lib/extract/custom/mod.ts";
import { evaluateSources } from "../../lib/extract/custom/rules.ts";

const parse = (query: string) => parseParams(new URLSearchParams(query), { maxTimeoutMs: 28_000 });

function invalid(run: () => unknown, pattern: RegExp, code = "EINVALQUERY"): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof ApiError);
    assert.equal(error.code, code);
    assert.match(error.message, pattern);
    return true;
  });
}

Deno.test("parseParams() reads insights as Microlink shapes it", async (t) => {
  await t.step("insights=true is both; absent or false is neither", () => {
    assert.deepEqual(parse("url=x&insights=true").insights, { technologies: true, lighthouse: {} });
    assert.deepEqual(parse("url=x&insights").insights, { technologies: true, lighthouse: {} });
    assert.equal(parse("url=x").insights, null);
    assert.equal(parse("url=x&insights=false").insights, null);
  });
  await t.step("each part is on unless set to false (Microlink: both default to true)", () => {
    assert.deepEqual(parse("url=x&insights.technologies=true").insights, {
      technologies: true,
      lighthouse: {},
    });
    assert.deepEqual(
      parse("url=x&insights.lighthouse.preset=desktop&insights.lighthouse.only_categories.0=seo")
        .insights,
      { technologies: true, lighthouse: { preset: "desktop", onlyCategories: ["seo"] } },
    );
    assert.deepEqual(parse("url=x&insights.technologies=false").insights, {
      technologies: false,
      lighthouse: {},
    });
    assert.equal(
      parse("url=x&insights.technologies=false&insights.lighthouse=false").insights,
      null,
    );
  });
  await t.step("lighthouse: Microlink's presets and outputs, settings passed through", () => {
    assert.deepEqual(
      parse(
        "url=x&insights.lighthouse.preset=lr-desktop&insights.lighthouse.output=csv" +
          "&insights.lighthouse.skipAudits.0=image-alt&insights.lighthouse.throttling.rttMs=40",
      ).insights?.lighthouse,
      {
        preset: "lr-desktop",
        output: "csv",
        skipAudits: ["image-alt"],
        throttling: { rttMs: 40 },
      },
    );
    invalid(() => parse("url=x&insights.lighthouse.output=xml"), /insights\.lighthouse\.output/);
    assert.deepEqual(
      parse("url=x&insights.lighthouse.formFactor=desktop").insights?.lighthouse,
      { formFactor: "desktop", screenEmulation: { mobile: false } },
      "formFactor alone sets the screen emulation Lighthouse requires it to match",
    );
    invalid(
      () =>
        parse(
          "url=x&insights.lighthouse.formFactor=desktop" +
            "&insights.lighthouse.screenEmulation.mobile=true",
        ),
      /screenEmulation\.mobile/,
    );
  });
  await t.step("bad values name the parameter", () => {
    invalid(() => parse("url=x&insights.lighthouse.preset=tablet"), /insights\.lighthouse\.preset/);
    invalid(() => parse("url=x&insights.lighthouse.onlyCategories=pwa"), /onlyCategories/);
    invalid(() => parse("url=x&insights=maybe"), /`insights`/);
  });
});

Deno.test("parseParams() takes function source with line breaks, and codeScheme turns the screenshot on", () => {
  const source = "() => {\n  return document.title;\n}";
  assert.equal(parse(`url=x&function=${encodeURIComponent(source)}`).function, source);
  assert.deepEqual(parse("url=x&screenshot.codeScheme=github").screenshot, {
    codeScheme: "github",
  });
  invalid(() => parse("url=x&screenshot.codeScheme=nope"), /screenshot\.codeScheme/);
});

Deno.test("sanitizeFilename() gives one safe segment, never a path", () => {
  assert.equal(sanitizeFilename("report"), "report");
  assert.equal(sanitizeFilename("My Shot.png"), "My-Shot");
  assert.equal(sanitizeFilename("../../etc/passwd"), "etc-passwd");
  assert.equal(sanitizeFilename("..\\..\\boot.ini"), "boot.ini");
  assert.equal(sanitizeFilename(".hidden"), "hidden");
  assert.equal(sanitizeFilename("a\r\nContent-Type: x"), "a-Content-Type-x");
  assert.equal(sanitizeFilename("x".repeat(300)).length, 100);
  invalid(() => sanitizeFilename("../.."), /filename/);
  invalid(() => sanitizeFilename("///"), /filename/);
});

Deno.test("validateRules() accepts evaluate rules at the top level only, alone", () => {
  const rules = validateRules({
    a: { evaluate: "window.x" },
    b: [{ selector: "h1" }, { evaluate: "() => 2", type: "number" }],
  });
  assert.deepEqual(evaluateSources(rules), ["window.x", "() => 2"]);
  assert.deepEqual(rules.b![1], { evaluate: { source: "() => 2", index: 1 }, type: ["number"] });
  invalid(() => validateRules({ a: { evaluate: "1", selector: "h1" } }), /data\.a/, "EINVALDATA");
  invalid(() => validateRules({ a: { evaluate: "" } }), /data\.a\.evaluate/, "EINVALDATA");
  invalid(
    () => validateRules({ a: { selector: "div", attr: { b: { evaluate: "1" } } } }),
    /top-level/,
    "EINVALDATA",
  );
});
