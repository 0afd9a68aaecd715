/**
 * Custom `data` rules through @microlink/mql as Microlink documents them: media types answer the
 * verified media object, `type: regexp`, `attr: tagName|nodeName`, the default `attr` (html) and
 * the page's HTML for an attr the whole page cannot have.
 */
import assert from "node:assert/strict";
import mql from "@microlink/mql";
import type { Any } from "./_mql.ts";
import { html, serve, testConfig } from "../_fixtures.ts";
import { serveLinkpeek } from "../ops/_listen.ts";
import * as fx from "../media/_fixtures.ts";

const AVATAR = fx.png(120, 63);
const ICON = fx.png(32, 32);
const CLIP = fx.mp4({ timescale: 1000, duration: 4000 });
const SONG = fx.wav(1);

const PAGE = `<!doctype html><html lang="en"><head><title>Media rules</title>
<link rel="icon" href="/icon.png"></head><body>
<img id="avatar" src="/avatar.png" alt="me">
<img id="gone" src="/missing.png" alt="gone">
<video id="clip" src="/clip.mp4"></video>
<audio id="song" src="/song.wav"></audio>
<h1 class="title">Hi <em>there</em></h1>
<p class="pattern">/^[a-z]+\\d*$/i</p><p class="broken">([a-z</p>
<section id="box"><span>inside</span></section>
</body></html>`;

async function startSite() {
  const file = (body: Uint8Array, type: string) => () =>
    new Response(body as Uint8Array<ArrayBuffer>, { headers: { "content-type": type } });
  const site = serve({
    "/page": () => html(PAGE),
    "/avatar.png": file(AVATAR, "image/png"),
    "/icon.png": file(ICON, "image/png"),
    "/clip.mp4": file(CLIP, "video/mp4"),
    "/song.wav": file(SONG, "audio/wav"),
  });
  const config = testConfig({ trustPorts: [site.port] });
  const resolver = (host: string) => Promise.resolve(host === "rules.test" ? ["127.0.0.1"] : []);
  const app = await serveLinkpeek(config, { hooks: { resolver } });
  return {
    endpoint: `${app.origin}/`,
    url: (path: string) => `http://rules.test:${site.port}${path}`,
    async [Symbol.asyncDispose]() {
      await app[Symbol.asyncDispose]();
      await site[Symbol.asyncDispose]();
    },
  };
}

Deno.test("data rules through mql: Microlink's media objects, types and attrs", async (t) => {
  await using site = await startSite();
  const rules = async (data: Record<string, unknown>) => {
    const result: Any = await mql(site.url("/page"), {
      endpoint: site.endpoint,
      meta: false,
      data,
    } as Any);
    return result.data;
  };

  await t.step("image, logo, video, audio: the probed media object", async () => {
    const data = await rules({
      avatar: { selector: "#avatar", attr: "src", type: "image" },
      logo: { selector: 'link[rel="icon"]', attr: "href", type: "logo" },
      clip: { selector: "#clip", attr: "src", type: "video" },
      song: { selector: "#song", attr: "src", type: "audio" },
    });
    assert.deepEqual(data.avatar, {
      url: site.url("/avatar.png"),
      type: "png",
      size: AVATAR.length,
      size_pretty: data.avatar.size_pretty,
      width: 120,
      height: 63,
    });
    assert.match(data.avatar.size_pretty, /^\d+(\.\d+)? (B|kB)$/);
    assert.equal(data.logo.url, site.url("/icon.png"));
    assert.deepEqual([data.logo.width, data.logo.height, data.logo.size], [32, 32, ICON.length]);
    assert.equal(data.clip.type, "mp4");
    assert.equal(data.clip.size, CLIP.length);
    assert.equal(data.clip.duration, 4);
    assert.equal(data.song.type, "wav");
    assert.equal(data.song.duration, 1);
  });

  await t.step("a media URL its probe cannot reach keeps what the URL tells", async () => {
    const data = await rules({ gone: { selector: "#gone", attr: "src", type: "image" } });
    assert.deepEqual(data.gone, {
      url: site.url("/missing.png"),
      type: "png",
      size: null,
      size_pretty: null,
      width: null,
      height: null,
    });
  });

  await t.step("a media value whose probe fails falls to the rule's next fallback", async () => {
    // #gone's image answers 404; #avatar's is real.
    const data = await rules({
      rules: [
        { selector: "#gone", attr: "src", type: "image" },
        { selector: "#avatar", attr: "src", type: "image" },
      ],
      selectors: { selector: ["#gone", "#avatar"], attr: "src", type: "image" },
      toText: [
        { selector: "#gone", attr: "src", type: "image" },
        { selector: "h1.title", attr: "text" },
      ],
    });
    const avatar = {
      url: site.url("/avatar.png"),
      type: "png",
      size: AVATAR.length,
      size_pretty: data.rules.size_pretty,
      width: 120,
      height: 63,
    };
    assert.deepEqual(data.rules, avatar, "a list of rules");
    assert.deepEqual(data.selectors, avatar, "a list of selectors");
    assert.equal(data.toText, "Hi there", "a next rule of another type takes the place");
  });

  await t.step("type regexp: text that compiles as a regular expression", async () => {
    const data = await rules({
      pattern: { selector: ".pattern", attr: "text", type: "regexp" },
      broken: { selector: ".broken", attr: "text", type: "regexp" },
      fallback: [
        { selector: ".broken", attr: "text", type: "regexp" },
        { selector: ".pattern", attr: "text", type: "regexp" },
      ],
    });
    assert.equal(data.pattern, "/^[a-z]+\\d*$/i");
    assert.equal(data.broken, null);
    assert.equal(data.fallback, "/^[a-z]+\\d*$/i", "an invalid one falls back to the next rule");
  });

  await t.step("attr tagName and nodeName: the DOM's upper-cased names", async () => {
    const data = await rules({
      tag: { selector: "#box", attr: "tagName" },
      node: { selector: "#box span", attr: "nodeName" },
      tags: { selectorAll: "#box, #box span", attr: "tagName" },
    });
    assert.equal(data.tag, "SECTION");
    assert.equal(data.node, "SPAN");
    assert.deepEqual(data.tags, ["SECTION", "SPAN"]);
  });

  await t.step("no attr reads html, Microlink's default", async () => {
    const data = await rules({ heading: { selector: "h1.title" } });
    assert.equal(data.heading, "Hi <em>there</em>");
  });

  await t.step("an attr the whole page cannot have falls back to its HTML", async () => {
    const data = await rules({ page: { attr: "href" } });
    assert.equal(typeof data.page, "string");
    assert.ok(data.page.includes('<h1 class="title">Hi <em>there</em></h1>'), data.page);
  });
});
