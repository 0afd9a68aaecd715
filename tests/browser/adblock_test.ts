/**
 * adblock on a page that imitates a real one: a OneTrust-style consent banner (the markup
 * autoconsent's OneTrust rule detects, with the reject button it clicks), an AdSense slot, and
 * ad and tracker scripts from well-known ad hosts. Every host name resolves to one loopback
 * fixture (cosmetic filters skip IP hosts, so the page has a name too).
 */
import assert from "node:assert/strict";
import { GuardedFetcher } from "../../lib/fetch/mod.ts";
import { BrowserPool } from "../../lib/browser/mod.ts";
import type { VisitOptions } from "../../lib/browser/types.ts";
import { decode, requireChromium } from "./_helpers.ts";
import { html, serve, testConfig } from "../_fixtures.ts";

const AD_HOSTS = [
  "securepubads.g.doubleclick.net",
  "pagead2.googlesyndication.com",
  "sb.scorecardresearch.com",
  "ad.doubleclick.net",
];
const PAGE_HOST = "news.example.com";

const BLUE: [number, number, number] = [0, 0, 255];
const RED: [number, number, number] = [255, 0, 0];

/** A news page: an ad slot at (40,40)-(340,290), a consent banner along the bottom. */
function page(port: number): string {
  const at = (host: string, path: string) => `http://${host}:${port}${path}`;
  return `<!doctype html><html><head><title>News</title>
<script async src="${at(AD_HOSTS[0]!, "/tag/js/gpt.js")}"></script>
<script async src="${at(AD_HOSTS[1]!, "/pagead/js/adsbygoogle.js?client=ca-pub-1")}"></script>
<script async src="${at(AD_HOSTS[2]!, "/beacon.js")}"></script>
<style>body{margin:0;background:#fff}
#onetrust-banner-sdk{position:fixed;left:0;right:0;bottom:0;height:160px;background:#00f;z-index:9}</style>
</head><body>
<ins class="adsbygoogle" data-ad-client="ca-pub-1" data-ad-slot="1"
  style="display:block;position:absolute;left:40px;top:40px;width:300px;height:250px;background:#f00"></ins>
<img src="${at(AD_HOSTS[3]!, "/ddm/ad.gif")}" width="1" height="1" alt="">
<p style="position:absolute;left:400px;top:40px">The story.</p>
<div id="onetrust-consent-sdk"><div id="onetrust-banner-sdk" class="otFlat" role="dialog">
  <p id="onetrust-policy-text">We use cookies.</p>
  <button id="onetrust-pc-btn-handler">Cookie settings</button>
  <button id="onetrust-reject-all-handler">Reject All</button>
  <button id="onetrust-accept-btn-handler">Accept All Cookies</button>
</div></div>
<script>
  const answer = (choice) => {
    fetch("/consent?choice=" + choice).finally(() => {
      document.getElementById("onetrust-consent-sdk").remove();
    });
  };
  document.getElementById("onetrust-reject-all-handler").onclick = () => answer("reject");
  document.getElementById("onetrust-accept-btn-handler").onclick = () => answer("accept");
</script>
</body></html>`;
}

function rgb(pixel: [number, number, number, number]): [number, number, number] {
  return [pixel[0], pixel[1], pixel[2]];
}

const AD_PATHS = ["/tag/js/gpt.js", "/pagead/js/adsbygoogle.js", "/beacon.js", "/ddm/ad.gif"];

Deno.test("adblock rejects the consent dialog, blocks ad requests and hides ad slots", async (t) => {
  requireChromium();
  const consent: string[] = [];
  const ad = () => new Response("/* ad */", { headers: { "content-type": "text/javascript" } });
  await using fixture = serve({
    "/": (_request, self) => html(page(self.port)),
    "/consent": (request) => {
      consent.push(new URL(request.url).searchParams.get("choice") ?? "");
      return new Response("ok");
    },
    ...Object.fromEntries(AD_PATHS.map((path) => [path, ad])),
  });
  const adRequests = () =>
    fixture.seen.filter((seen) => AD_PATHS.includes(seen.path)).map((seen) =>
      `${seen.headers.host?.split(":")[0]}${seen.path}`
    );
  const config = testConfig({ trustPorts: [fixture.port] });
  const names = new Set([PAGE_HOST, ...AD_HOSTS]);
  const resolver = (host: string) =>
    names.has(host) ? Promise.resolve(["127.0.0.1"]) : Promise.reject(new Error("no such name"));
  const fetcher = new GuardedFetcher({ config, network: { resolver } });
  await using pool = new BrowserPool({ config, fetcher });
  const url = `http://${PAGE_HOST}:${fixture.port}/`;
  const shoot = async (options: VisitOptions) => {
    // At 1x: the pixels read below are the page's CSS coordinates.
    const viewport = { deviceScaleFactor: 1 };
    const result = await pool.visit(url, { screenshot: true, viewport, ...options });
    return decode(result.screenshot!.bytes);
  };

  await t.step(
    "adblock=false: every ad request arrives, slot and banner are captured",
    async () => {
      const shot = await shoot({ adblock: false });
      assert.deepEqual(rgb(shot.pixel(190, 165)), RED);
      assert.deepEqual(rgb(shot.pixel(640, 720)), BLUE);
      assert.deepEqual(adRequests().sort(), AD_HOSTS.map((h, i) => `${h}${AD_PATHS[i]}`).sort());
      assert.deepEqual(consent, []);
    },
  );

  await t.step("adblock on: no ad request, consent rejected, no slot, no banner", async () => {
    fixture.seen.length = 0;
    const shot = await shoot({});
    assert.deepEqual(adRequests(), []);
    assert.deepEqual(consent, ["reject"]);
    assert.deepEqual(rgb(shot.pixel(190, 165)), [255, 255, 255]);
    assert.deepEqual(rgb(shot.pixel(640, 720)), [255, 255, 255]);
    // The page itself still loaded through the same fixture.
    assert.ok(fixture.seen.some((seen) => seen.path === "/"));
  });
});

Deno.test("adblock: the page cannot reach autoconsent's channel; pages without a dialog and without JavaScript still render", async (t) => {
  requireChromium();
  const probe = `<!doctype html><html><head><title>untouched</title></head><body><script>
    const seen = ["linkpeekAutoconsent", "autoconsentSendMessage", "autoconsentReceiveMessage"]
      .filter((name) => name in window);
    document.title = seen.length ? "visible: " + seen.join(",") : "hidden";
  </script><div style="width:100px;height:100px;background:#0f0"></div></body></html>`;
  await using fixture = serve({ "/": () => html(probe) });
  const config = testConfig({ trustPorts: [fixture.port] });
  const resolver = () => Promise.resolve(["127.0.0.1"]);
  const fetcher = new GuardedFetcher({ config, network: { resolver } });
  await using pool = new BrowserPool({ config, fetcher });
  const url = `http://${PAGE_HOST}:${fixture.port}/`;

  await t.step("the bridge lives in an isolated world only", async () => {
    const result = await pool.visit(url, { html: true, screenshot: true });
    assert.match(result.html!, /<title>hidden<\/title>/);
    assert.deepEqual(rgb(decode(result.screenshot!.bytes).pixel(50, 50)), [0, 255, 0]);
  });

  await t.step("javascript=false: no autoconsent, the capture still comes", async () => {
    const result = await pool.visit(url, { javascript: false, screenshot: true });
    assert.deepEqual(rgb(decode(result.screenshot!.bytes).pixel(50, 50)), [0, 255, 0]);
  });
});
