import assert from "node:assert/strict";
import { Request, type RequestType } from "@ghostery/adblocker";
import { engineLoad, loadEngine } from "../../lib/browser/adblock/engine.ts";

Deno.test("loadEngine() deserializes the shipped engine once per process", async () => {
  const [first, second] = await Promise.all([loadEngine(), loadEngine()]);
  assert.equal(first, second);
  assert.equal(await loadEngine(), first);
  const load = engineLoad();
  assert.ok(load && load.bytes > 1_000_000, JSON.stringify(load));
});

Deno.test("the engine knows ad hosts, trackers and ad slots; ad slots", async () => {
  const engine = await loadEngine();
  const match = (url: string, type: RequestType) =>
    engine.match(Request.fromRawDetails({ url, type, sourceUrl: "http://news.example.com/" }))
      .match;
  assert.equal(match("http://securepubads.g.doubleclick.net/tag/js/gpt.js", "script"), true);
  assert.equal(match("http://sb.scorecardresearch.com/beacon.js", "script"), true);
  assert.equal(match("http://news.example.com/app.js", "script"), false);

  const styles = (url: string) => {
    const { hostname, domain } = Request.fromRawDetails({ url });
    return engine.getCosmeticsFilters({
      url,
      hostname,
      domain: domain ?? "",
      classes: ["adsbygoogle"],
      getBaseRules: true,
      getRulesFromDOM: true,
      getRulesFromHostname: true,
    }).styles;
  };
  assert.match(styles("http://news.example.com/"), /ins\.adsbygoogle\[data-ad-client\]/);
});
