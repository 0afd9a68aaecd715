import assert from "node:assert/strict";
import { parseDocument } from "htmlparser2";
import type { Element } from "domhandler";
import { DEFAULT_FRAME, safeEmbedHtml } from "../../lib/oembed_endpoint/embed_html.ts";

const PROVIDER = "https://provider.example/oembed?url=x";
const options = {
  providerUrl: PROVIDER,
  width: null,
  height: null,
  title: "Page title",
  maxWidth: null,
  maxHeight: null,
};

function only(markup: string): Element {
  const nodes = parseDocument(markup).children.filter((n) => n.type !== "text") as Element[];
  assert.equal(nodes.length, 1, markup);
  assert.equal(nodes[0]!.children.length, 0, "nothing inside the frame element");
  return nodes[0]!;
}

Deno.test("safeEmbedHtml() rebuilds an iframe from its src and checked attributes", async (t) => {
  await t.step("protocol-relative and relative srcs resolve against the provider", () => {
    const frame = only(
      safeEmbedHtml('<iframe src="//cdn.example/e/1" width="480" height="270"></iframe>', options)
        .html,
    );
    assert.equal(frame.attribs.src, "https://cdn.example/e/1");
    const relative = only(safeEmbedHtml('<iframe src="/e/2"></iframe>', options).html);
    assert.equal(relative.attribs.src, "https://provider.example/e/2");
  });
  await t.step("sizes: the markup's, else the provider's, fitted; else the defaults", () => {
    const markup = '<iframe src="https://v.example/1" width="1280" height="720"></iframe>';
    const sized = safeEmbedHtml(markup, { ...options, maxWidth: 640, maxHeight: 300 });
    assert.deepEqual([sized.width, sized.height], [533, 300]);
    const named = safeEmbedHtml('<iframe src="https://v.example/1"></iframe>', {
      ...options,
      width: 400,
      height: 300,
    });
    assert.deepEqual([named.width, named.height], [400, 300]);
    const unsized = safeEmbedHtml('<iframe src="https://v.example/1"></iframe>', options);
    assert.deepEqual([unsized.width, unsized.height], [DEFAULT_FRAME.width, DEFAULT_FRAME.height]);
    const percent = safeEmbedHtml(
      '<iframe src="https://v.example/1" width="100%" height="352"></iframe>',
      { ...options, maxWidth: 300 },
    );
    assert.deepEqual([percent.width, percent.height], [300, 352]);
  });
  await t.step("allow keeps media features; fullscreen implies allowfullscreen", () => {
    const frame = only(
      safeEmbedHtml(
        `<iframe src="https://v.example/1" allow="camera *; Fullscreen 'self'; usb; autoplay" ` +
          `srcdoc="<script>x</script>" sandbox="allow-top-navigation" name="x"></iframe>`,
        options,
      ).html,
    );
    assert.deepEqual(Object.keys(frame.attribs).sort(), [
      "allow",
      "allowfullscreen",
      "height",
      "loading",
      "src",
      "style",
      "title",
      "width",
    ]);
    assert.equal(frame.attribs.allow, "fullscreen; autoplay");
    assert.equal(frame.attribs.title, "Page title");
  });
});

Deno.test("safeEmbedHtml() runs any other markup in a sandboxed srcdoc frame", () => {
  const provider = `<blockquote cite="x">Q &amp; "A"</blockquote><script src="w.js"></script>` +
    `<iframe src="javascript:alert(1)"></iframe>`;
  const embed = safeEmbedHtml(provider, { ...options, width: 500, maxHeight: 250 });
  assert.deepEqual([embed.width, embed.height], [500, 250]);
  const frame = only(embed.html);
  assert.equal(frame.name, "iframe");
  assert.equal(frame.attribs.sandbox, "allow-scripts allow-popups allow-popups-to-escape-sandbox");
  assert.ok(!("src" in frame.attribs));
  const inner = parseDocument(frame.attribs.srcdoc!);
  const base = (inner.children as Element[]).flatMap(function all(n: Element): Element[] {
    return [n, ...((n.children ?? []) as Element[]).flatMap(all)];
  }).find((n) => n.name === "base")!;
  assert.equal(base.attribs.href, PROVIDER);
  assert.ok(frame.attribs.srcdoc!.endsWith(`<body style="margin:0">${provider}</body></html>`));
});
