import assert from "node:assert/strict";
import mql from "@microlink/mql";
import { type Any, failure } from "./_mql.ts";
import { PNG, startCompat, TITLE } from "./_target.ts";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47];

Deno.test("@microlink/mql works against linkpeek through its endpoint option", async (t) => {
  await using compat = await startCompat();
  const endpoint = `${compat.app.origin}/`;

  await t.step("metadata of a loopback target page", async () => {
    const result: Any = await mql(compat.pageUrl, { endpoint });
    assert.equal(result.status, "success");
    assert.equal(result.data.title, TITLE);
    assert.equal(result.data.description, "Served on loopback for @microlink clients.");
    assert.equal(result.data.author, "Grace Hopper");
    assert.equal(result.data.lang, "en");
    assert.equal(result.data.url, compat.pageUrl);
    assert.equal(result.data.image.url, `http://target.test:${compat.site.port}/cover.png`);
    assert.equal(result.data.image.width, 2);
    assert.equal(result.statusCode, 200);
    assert.equal(result.response.statusCode, 200);
    assert.equal(result.response.headers.get("x-pricing-plan"), "free");
  });

  await t.step("a large answer comes brotli-compressed, as Microlink's do", async () => {
    const result: Any = await mql(compat.pageUrl.replace("/page", "/long"), {
      endpoint,
      data: { page: { attr: "html" } },
      meta: false,
    });
    const size = JSON.stringify(result.data).length;
    assert.ok(size > 1024, `${size} chars`);
    assert.equal(result.response.headers.get("content-encoding"), "br");
  });

  await t.step("modules: inline code injected as <script type=module>, after scripts", async () => {
    const result: Any = await mql(compat.pageUrl, {
      endpoint,
      prerender: true,
      meta: false,
      scripts: "document.body.dataset.order = 'script'",
      // import.meta exists only in a module: a classic script would throw here
      modules: [
        "document.body.dataset.kind = typeof import.meta.url",
        "document.body.dataset.order += ',module'",
      ],
      data: {
        kind: { selector: "body", attr: "data-kind" },
        order: { selector: "body", attr: "data-order" },
      },
    } as Any);
    assert.equal(result.data.kind, "string");
    assert.equal(result.data.order, "script,module");
  });

  await t.step("pdf.width and pdf.height; EPAGERANGE past the last page", async () => {
    const result: Any = await mql(compat.pageUrl, {
      endpoint,
      meta: false,
      pdf: { width: "4in", height: "3in" },
    } as Any);
    const bytes = await (await fetch(result.data.pdf.url)).text();
    // 4 x 3 inches is 288 x 216 points
    assert.match(bytes, /\/MediaBox\s*\[\s*0\s+0\s+288\s+216\s*\]/);
    const past = await failure(
      mql(compat.pageUrl, { endpoint, meta: false, pdf: { pageRanges: "5-6" } } as Any),
    );
    assert.equal(past.code, "EPAGERANGE");
    assert.equal(past.statusCode, 400);
    const unitless = await failure(
      mql(compat.pageUrl, { endpoint, meta: false, pdf: { width: "4 inches" } } as Any),
    );
    assert.equal(unitless.code, "EINVALQUERY");
    assert.match(unitless.description, /pdf\.width/);
  });

  await t.step("custom data rules as mql maps them", async () => {
    const result: Any = await mql(compat.pageUrl, {
      endpoint,
      data: { price: { selector: ".price", type: "number" } },
      meta: false,
    });
    assert.equal(result.data.price, 42.5);
  });

  await t.step("screenshot: a hosted image linkpeek serves", async () => {
    const result: Any = await mql(compat.pageUrl, { endpoint, screenshot: true, force: true });
    const shot = result.data.screenshot;
    assert.ok(shot.url.startsWith(`${compat.app.origin}/assets/`), shot.url);
    assert.equal(shot.type, "png");
    const image = await fetch(shot.url);
    assert.equal(image.headers.get("content-type"), "image/png");
    const bytes = new Uint8Array(await image.arrayBuffer());
    assert.deepEqual([...bytes.subarray(0, 4)], PNG_SIGNATURE);
    assert.equal(bytes.length, shot.size);
  });

  await t.step("embed through mql.buffer: the screenshot's bytes", async () => {
    const response: Any = await mql.buffer(compat.pageUrl, {
      endpoint,
      screenshot: true,
      embed: "screenshot.url",
    });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers.get("content-type"), "image/png");
    const bytes = new Uint8Array(response.body);
    assert.deepEqual([...bytes.subarray(0, 4)], PNG_SIGNATURE);
    assert.ok(bytes.length > 1000, `screenshot of ${bytes.length} bytes`);
  });

  await t.step("embed through mql.buffer: an image field and a text field", async () => {
    const image: Any = await mql.buffer(compat.pageUrl, { endpoint, embed: "image.url" });
    assert.deepEqual(new Uint8Array(image.body), PNG);
    const title: Any = await mql.buffer(compat.pageUrl, { endpoint, embed: "title" });
    assert.equal(title.headers.get("content-type"), "text/plain; charset=utf-8");
    assert.equal(new TextDecoder().decode(title.body), TITLE);
  });

  await t.step("embed through mql.stream: the screenshot and a text field as streams", async () => {
    // mql.stream hands its arguments to ky as they are (an API URL and ky options), so the
    // request URL is built with mql.getApiUrl, as mql's own helpers do.
    const apiUrl = (options: Record<string, unknown>) =>
      (mql as Any).getApiUrl(compat.pageUrl, { endpoint, ...options })[0] as string;
    const shot: ReadableStream<Uint8Array> = await (mql as Any).stream(
      apiUrl({ screenshot: true, embed: "screenshot.url" }),
    );
    const bytes = new Uint8Array(await new Response(shot).arrayBuffer());
    assert.deepEqual([...bytes.subarray(0, 4)], PNG_SIGNATURE);
    assert.ok(bytes.length > 1000, `screenshot of ${bytes.length} bytes`);

    const image: ReadableStream<Uint8Array> = await (mql as Any).stream(
      apiUrl({ embed: "image.url" }),
    );
    assert.deepEqual(new Uint8Array(await new Response(image).arrayBuffer()), PNG);
    const title: ReadableStream<Uint8Array> = await (mql as Any).stream(
      apiUrl({ embed: "title" }),
    );
    assert.equal(await new Response(title).text(), TITLE);

    // A field the page lacks: ky's HTTPError, its data linkpeek's error envelope.
    const missing = await (mql as Any).stream(apiUrl({ embed: "video.url" })).then(
      () => assert.fail("a missing field must not stream"),
      (error: Any) => error,
    );
    assert.equal(missing.response.status, 404);
    assert.equal(missing.data.code, "ENOTFOUND");
    assert.equal(missing.data.status, "fail");
  });

  await t.step("errors surface as MicrolinkError with linkpeek's code", async () => {
    const query = await failure(
      mql(compat.pageUrl, { endpoint, screenshot: { type: "gif" } } as Any),
    );
    assert.equal(query.code, "EINVALQUERY");
    assert.equal(query.statusCode, 400);
    assert.equal(query.status, "fail");
    assert.match(query.description, /screenshot\.type/);
    assert.equal(query.message, `EINVALQUERY, ${query.description}`);

    const url = await failure((mql as Any).fetchFromApi(`${endpoint}?url=foo`));
    assert.equal(url.code, "EINVALURL");
    assert.equal(url.statusCode, 400);
    assert.deepEqual(url.data, { url: "The URL `foo` is not a valid URL." });

    const missing = await failure(mql(compat.pageUrl, { endpoint, embed: "video.url" }));
    assert.equal(missing.code, "ENOTFOUND");
    assert.equal(missing.statusCode, 404);
  });

  await t.step("ttl=max, staleTtl=true and cacheKey as Microlink documents them", async () => {
    const ask = (options: Record<string, unknown>) =>
      mql(compat.pageUrl, { endpoint, meta: false, ...options } as Any) as Promise<Any>;
    const first = await ask({ ttl: "max", cacheKey: "variant-a" });
    assert.equal(first.response.headers.get("x-cache-ttl"), String(31 * 86_400_000));
    const again = await ask({ ttl: "max", cacheKey: "variant-a" });
    assert.equal(again.response.headers.get("x-cache-status"), "HIT");
    const other = await ask({ ttl: "max", cacheKey: "variant-b" });
    assert.equal(other.response.headers.get("x-cache-status"), "MISS");
    const stale = await ask({ ttl: "max", cacheKey: "variant-a", staleTtl: true });
    assert.equal(stale.response.headers.get("x-cache-status"), "STALE");
  });

  await t.step("Microlink's codes with Microlink's meanings", async () => {
    const codeOf = async (options: Record<string, unknown>) =>
      (await failure(mql(compat.pageUrl, { endpoint, ...options } as Any))).code;
    assert.equal(await codeOf({ ttl: "soon" }), "EINVALTTL");
    assert.equal(await codeOf({ ttl: "1h", staleTtl: "2h" }), "EINVALSTTL");
    assert.equal(await codeOf({ proxy: "http://proxy.invalid:3128" }), "EPROXY");
    assert.equal(await codeOf({ data: { price: { type: "money", selector: "p" } } }), "EINVALDATA");
    assert.equal(await codeOf({ function: "() => {" }), "EINVALFUNCTION");
    assert.equal(
      await codeOf({ screenshot: { overlay: { background: "expression(x)" } } }),
      "EINVALOVERLAYBG",
    );
    assert.equal(await codeOf({ waitUntil: "never" }), "EINVALQUERY");
  });

  await t.step(
    "MicrolinkError carries Microlink's id and more: the request, its docs",
    async () => {
      const error = await failure(mql(compat.pageUrl, { endpoint, embed: "video.url" }));
      assert.match(error.id, /^[0-9a-f-]{36}$/);
      assert.equal(error.headers["x-request-id"], error.id);
      assert.equal(error.more, `${compat.app.origin}/errors#enotfound`);
      const docs = await fetch(error.more);
      assert.equal(docs.status, 200);
      assert.match(docs.headers.get("content-type")!, /^text\/html/);
      const page = await docs.text();
      assert.match(page, /<tr id="enotfound">.*<code>ENOTFOUND<\/code>.*<td>404<\/td>/);
      // every code the service can answer has its anchor there
      for (const code of ["einvalurl", "einvalquery", "erate", "efatal", "ebusy"]) {
        assert.ok(page.includes(`id="${code}"`), code);
      }
    },
  );

  await t.step(
    "apiKey reaches the pro endpoint; free refuses it, pro refuses a bad one",
    async () => {
      const pro: Any = await mql(compat.pageUrl, {
        endpoint: `${compat.app.proOrigin}/`,
        apiKey: compat.apiKey,
      });
      assert.equal(pro.status, "success");
      assert.equal(pro.data.title, TITLE);
      assert.equal(pro.response.headers.get("x-pricing-plan"), "pro");
      assert.equal(pro.response.headers.get("x-rate-limit-limit"), null, "pro has no free quota");

      const onFree = await failure(mql(compat.pageUrl, { endpoint, apiKey: compat.apiKey }));
      assert.equal(onFree.code, "EPRO");
      assert.equal(onFree.statusCode, 400);

      const bad = await failure(
        mql(compat.pageUrl, { endpoint: `${compat.app.proOrigin}/`, apiKey: "lp_wrong" }),
      );
      assert.equal(bad.code, "EAUTH");
      assert.equal(bad.statusCode, 401);
    },
  );
});
