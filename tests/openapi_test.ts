import assert from "node:assert/strict";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import { testConfig } from "./_fixtures.ts";
import { ERROR_STATUS } from "../lib/util/errors.ts";
import { openApiDocument } from "../lib/openapi/mod.ts";
import { type ParamDef, PARAMS } from "../lib/params/schema.ts";

type Json = Record<string, unknown>;

const config = testConfig({
  env: { PORT: "3000", PRO_PORT: "3001", PUBLIC_URL: "http://127.0.0.1:3000" },
});

function apiOperation(doc: Json): Json {
  const paths = doc.paths as Record<string, Record<string, Json>>;
  return paths["/"]!.get!;
}

function parameterNames(doc: Json): string[] {
  return (apiOperation(doc).parameters as Json[]).map((p) => p.name as string);
}

/** The dotted leaf names a parameter definition allows, walked from PARAMS independently. */
function leafNames(name: string, def: ParamDef): string[] {
  const schema = def.schema;
  if (schema.kind !== "object") return [name];
  const members = Object.entries(schema.props).flatMap(([m, d]) => leafNames(`${name}.${m}`, d));
  return schema.boolean ? [name, ...members] : members;
}

/** A JSON Schema validator over the document's own components. */
function schemaValidator(doc: Json, name: string) {
  const ajv = new Ajv2020({ strict: false });
  ajv.addSchema({ $id: "doc", components: doc.components } as Json);
  return ajv.compile({ $ref: `doc#/components/schemas/${name}` });
}

Deno.test("openApiDocument() is valid OpenAPI 3.1 for a real validator", async () => {
  const validator = new Validator();
  const result = await validator.validate(openApiDocument(config));
  assert.equal(validator.version, "3.1");
  assert.deepEqual(result.errors ?? [], []);
  assert.equal(result.valid, true);
  // The validator is not a rubber stamp: a parameter without `in` is refused.
  const broken = structuredClone(openApiDocument(config)) as Json;
  delete (apiOperation(broken).parameters as Json[])[0]!.in;
  assert.equal((await new Validator().validate(broken)).valid, false);
});

Deno.test("openApiDocument() lists every parameter of PARAMS", async (t) => {
  const doc = openApiDocument(config);
  const names = new Set(parameterNames(doc));

  await t.step("every top-level parameter appears, alone or as its dotted members", () => {
    for (const name of Object.keys(PARAMS)) {
      const found = [...names].some((n) => n === name || n.startsWith(`${name}.`));
      assert.ok(found, `PARAMS.${name} is missing from the document`);
    }
  });

  await t.step("every object member appears as a dotted name", () => {
    for (const [name, def] of Object.entries(PARAMS)) {
      for (const leaf of leafNames(name, def)) {
        const covered = names.has(leaf) || names.has(`${leaf}.<name>`) ||
          names.has(`${leaf}.<key>`);
        assert.ok(covered, `${leaf} is missing from the document`);
      }
    }
    assert.ok(names.has("screenshot.fullPage"));
    assert.ok(names.has("screenshot.overlay.browser"));
    assert.ok(names.has("fullPage"), "screenshot options are accepted top-level too");
    assert.ok(names.has("pdf.margin.top"));
    assert.ok(names.has("headers.<name>"));
  });

  await t.step("descriptions and examples are the ones PARAMS holds", () => {
    const params = apiOperation(doc).parameters as Json[];
    const url = params.find((p) => p.name === "url")!;
    assert.equal(url.description, PARAMS.url!.description);
    assert.equal(url.example, PARAMS.url!.example);
    assert.equal(url.required, true);
    const fullPage = params.find((p) => p.name === "screenshot.fullPage")!;
    assert.equal(fullPage["x-snake-case"], "screenshot.full_page");
    assert.deepEqual(fullPage.schema, { type: "boolean" });
    const quality = params.find((p) => p.name === "quality")!;
    assert.deepEqual(quality.schema, { type: "integer", minimum: 0, maximum: 100 });
    const prerender = params.find((p) => p.name === "prerender")!;
    assert.deepEqual(prerender.schema, { type: "string", enum: ["auto", "true", "false"] });
    const header = params.find((p) => p.name === "headers.<name>")!;
    assert.deepEqual(header.schema, { type: "string", maxLength: 8192, pattern: "^[^\\r\\n]*$" });
    assert.equal(header.description, `${PARAMS.headers!.description} At most 32 headers.`);
  });

  await t.step("no parameter name is listed twice", () => {
    assert.equal(names.size, parameterNames(doc).length);
  });
});

Deno.test("openApiDocument() describes every error code with its status", () => {
  const doc = openApiDocument(config);
  const responses = apiOperation(doc).responses as Record<string, Json>;
  for (const [code, status] of Object.entries(ERROR_STATUS)) {
    if (code === "EMETHOD") continue; // GET cannot get 405; the operation's text names it.
    const response = responses[String(status)];
    assert.ok(response, `no ${status} response for ${code}`);
    assert.match(response.description as string, new RegExp(`\\b${code}\\b`));
  }
  const codes = (doc.components as { schemas: { ErrorCode: { enum: string[] } } }).schemas
    .ErrorCode.enum;
  assert.deepEqual(codes.sort(), Object.keys(ERROR_STATUS).sort());
  const headers = (responses["429"] as { headers: Json }).headers;
  assert.ok("retry-after" in headers);
  assert.ok("x-request-id" in headers);
});

Deno.test("openApiDocument() names the free and pro servers from the configuration", () => {
  const doc = openApiDocument(config);
  const urls = (doc.servers as Json[]).map((s) => s.url);
  assert.deepEqual(urls, ["http://127.0.0.1:3000", "http://127.0.0.1:3001"]);
  const named = testConfig({ env: { PUBLIC_URL: "http://linkpeek.test:8080" } });
  assert.deepEqual((openApiDocument(named).servers as Json[]).map((s) => s.url), [
    "http://linkpeek.test:8080",
    "http://pro.linkpeek.test:8080",
  ]);
  const hosts = testConfig({
    env: {
      PRO_HOSTS: "api.example.com",
      PUBLIC_URL: "https://linkpeek.example",
    },
  });
  assert.deepEqual((openApiDocument(hosts).servers as Json[]).map((s) => s.url), [
    "https://linkpeek.example",
    "https://api.example.com",
  ]);
});

Deno.test("openApiDocument() covers the service's other routes and the x-api-key scheme", () => {
  const doc = openApiDocument(config);
  const paths = Object.keys(doc.paths as Json);
  assert.deepEqual(paths.sort(), [
    "/",
    "/assets/{id}",
    "/errors",
    "/health",
    "/metrics",
    "/oembed",
    "/openapi.json",
    "/ready",
  ]);
  const schemes = (doc.components as { securitySchemes: Record<string, Json> }).securitySchemes;
  assert.equal(schemes.apiKey!.name, "x-api-key");
  assert.equal(schemes.apiKey!.in, "header");
});

Deno.test("openApiDocument() schemas accept the contract's examples and reject wrong shapes", async (t) => {
  const doc = openApiDocument(config);
  await t.step("success envelope", () => {
    const validate = schemaValidator(doc, "Success");
    const example = {
      status: "success",
      data: {
        title: "T",
        description: null,
        lang: "en",
        author: null,
        publisher: "P",
        date: "2026-01-02T03:04:05.000Z",
        url: "https://example.com/",
        image: {
          url: "https://example.com/a.jpg",
          type: "jpg",
          size: 48213,
          size_pretty: "48.2 kB",
          width: 1200,
          height: 630,
        },
        logo: null,
        audio: null,
        video: null,
      },
      statusCode: 200,
      redirects: [{ statusCode: 301, url: "http://example.com/" }],
      headers: { "content-type": "text/html; charset=utf-8" },
    };
    assert.equal(validate(example), true, JSON.stringify(validate.errors));
    const { logo: _dropped, ...missingLogo } = example.data;
    assert.equal(
      validate({ ...example, data: missingLogo }),
      false,
      "a default field may not be absent",
    );
    assert.equal(validate({ ...example, data: { ...example.data, image: { url: "x" } } }), false);
  });
  await t.step("insights in Microlink's shapes: technology items, a report object or text", () => {
    const validate = schemaValidator(doc, "Success");
    const envelope = (insights: unknown) => ({
      status: "success",
      data: {
        title: null,
        description: null,
        lang: null,
        author: null,
        publisher: null,
        date: null,
        url: null,
        image: null,
        logo: null,
        audio: null,
        video: null,
        insights,
      },
      statusCode: 200,
      redirects: [],
      headers: {},
    });
    const technology = {
      name: "CloudFlare",
      confidence: 100,
      logo: "https://www.wappalyzer.com/images/icons/CloudFlare.svg",
      url: "http://www.cloudflare.com",
      categories: ["CDN"],
      slug: "cloudflare",
      version: null,
    };
    for (const lighthouse of [{ lighthouseVersion: "13.5.0" }, '"requestedUrl"\r\n']) {
      const ok = envelope({ technologies: [technology], lighthouse });
      assert.equal(validate(ok), true, JSON.stringify(validate.errors));
    }
    const categoryObjects = { ...technology, categories: [{ id: 31, slug: "cdn", name: "CDN" }] };
    assert.equal(validate(envelope({ technologies: [categoryObjects] })), false);
  });
  await t.step("error envelope", () => {
    const validate = schemaValidator(doc, "Error");
    const message = "The URL `foo` is not a valid URL.";
    const example = {
      status: "fail",
      code: "EINVALURL",
      message,
      url: "foo",
      data: { url: message },
    };
    assert.equal(validate(example), true, JSON.stringify(validate.errors));
    assert.equal(validate({ ...example, code: "ENOPE" }), false);
  });
});

Deno.test("the API's 503 names the pool sizes EBUSY answers at (BROWSER_PAGES, BROWSER_QUEUE)", () => {
  const sized = testConfig({ env: { BROWSER_PAGES: "2", BROWSER_QUEUE: "5" } });
  const responses = apiOperation(openApiDocument(sized)).responses as Record<string, Json>;
  const busy = String(responses["503"]!.description);
  assert.match(busy, /EBUSY when the browser is saturated: 2 pages at once \(BROWSER_PAGES\)/);
  assert.match(busy, /5 visits waiting \(BROWSER_QUEUE\)/);
});
