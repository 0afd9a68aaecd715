import assert from "node:assert/strict";
import { detectTechnologies } from "../../lib/insights/wappalyzer.ts";
import { createTechnologyDetector } from "../../lib/insights/technologies.ts";
import { codeLanguage } from "../../lib/browser/code_view.ts";

const names = (html: string, headers: Record<string, string> = {}) =>
  detectTechnologies({ url: "https://site.invalid/", headers, html }).map((t) => t.name);

Deno.test("detectTechnologies() reads cookies joined with their Expires commas", () => {
  const found = detectTechnologies({
    url: "https://site.invalid/",
    headers: {
      "set-cookie": "theme=dark; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/, " +
        "laravel_session=abc; Path=/; HttpOnly",
    },
    html: "<html><body><p>plain</p></body></html>",
  });
  assert.ok(found.some((t) => t.name === "Laravel"), JSON.stringify(found.map((t) => t.name)));
});

Deno.test("detectTechnologies() dom rules need the attribute they name, not just the element", () => {
  // SvelteKit's rule is `a,body` with a data-sveltekit-preload-data attribute.
  assert.ok(!names("<html><body><a href='/'>x</a></body></html>").includes("SvelteKit"));
  assert.ok(
    names("<html><body data-sveltekit-preload-data='hover'><a>x</a></body></html>")
      .includes("SvelteKit"),
  );
});

Deno.test("detectTechnologies() reads only the two ends of a huge page", () => {
  const middle = `<meta name="generator" content="WordPress 6.4.2">`;
  const filler = "<p>filler text</p>".repeat(20_000);
  assert.ok(!names(`<html><body>${filler}${middle}${filler}</body></html>`).includes("WordPress"));
  assert.ok(
    names(`<html><head>${middle}</head><body>${filler}</body></html>`).includes("WordPress"),
  );
});

Deno.test("createTechnologyDetector() answers in its Worker and stops a job with its signal", async () => {
  const detector = createTechnologyDetector();
  try {
    const found = await detector.detect(
      { url: "https://site.invalid/", headers: { server: "nginx/1.25.3" }, html: "<p>x</p>" },
      { signal: new AbortController().signal },
    );
    assert.equal(found.find((t) => t.name === "Nginx")?.version, "1.25.3");
    const controller = new AbortController();
    const stopped = detector.detect(
      { url: "https://site.invalid/", headers: {}, html: "<p>x</p>" },
      { signal: controller.signal },
    );
    controller.abort(new Error("request over"));
    await assert.rejects(stopped, /request over/);
    const again = await detector.detect(
      { url: "https://site.invalid/", headers: { server: "Apache/2.4.1" }, html: "" },
      { signal: new AbortController().signal },
    );
    assert.ok(again.some((t) => t.name === "Apache HTTP Server"), "a new Worker took over");
  } finally {
    detector.close();
  }
});

Deno.test("codeLanguage() picks the highlighter's language from the type, then the extension", () => {
  assert.equal(codeLanguage("application/json; charset=utf-8", "https://a.invalid/x"), "json");
  assert.equal(codeLanguage("application/ld+json", "https://a.invalid/x"), "json");
  assert.equal(codeLanguage("text/javascript", "https://a.invalid/app"), "javascript");
  assert.equal(codeLanguage("text/plain", "https://a.invalid/main.rs"), "rs");
  assert.equal(codeLanguage("text/plain", "https://a.invalid/notes"), "plaintext");
  assert.equal(codeLanguage("text/html", "https://a.invalid/x.py"), null);
  assert.equal(codeLanguage("image/svg+xml", "https://a.invalid/x.svg"), null);
  assert.equal(codeLanguage(undefined, "https://a.invalid/x.json"), null);
});
