/**
 * A page opens no tab the visit does not own: Chromium's popup blocker stops script popups
 * (`window.open` with or without `noopener`/`noreferrer`, `<a target=_blank rel=noopener>`
 * clicked by script), and the popup guard closes what a user gesture (`click`) opens.
 */
import assert from "node:assert/strict";
import { poolFor } from "./_helpers.ts";
import { html, serve, testConfig } from "../_fixtures.ts";

const ROUNDS = 8;

/** Resolves true once `ready()` holds, polling every 50 ms; false after `ms`. */
async function eventually(ready: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

/** A popup that hands on to one more (no opener) and closes itself, three generations deep. */
const POPUP = `<!doctype html><title>popup</title><p>popup</p><script>
const generation = Number(new URLSearchParams(location.search).get("g") ?? 0);
if (generation < 3) {
  window.open("/popup?g=" + (generation + 1), "_blank", "noopener");
  window.close();
}
</script>`;

/** A site whose "/" runs `script`, then waits for the test's release to show #done. */
function site(script: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => release = resolve);
  const page = `<!doctype html><title>opener</title><p>opener</p>
<a id="link" href="/popup?via=link" target="_blank" rel="noopener">link</a>
<script>${script}
fetch("/opened").then(() => fetch("/release")).then(() => {
  document.body.insertAdjacentHTML("beforeend", "<p id=done>done</p>");
});
</script>`;
  const fixture = serve({
    "/": () => html(page),
    "/popup": () => html(POPUP),
    "/opened": () => new Response("ok"),
    "/release": async () => {
      await released;
      return new Response("ok");
    },
  });
  return { fixture, release };
}

Deno.test("script popups, noopener or not, never open during a visit", async () => {
  const { fixture, release } = site(`for (let i = 0; i < ${ROUNDS}; i++) {
  window.open("/popup?via=noopener", "_blank", "noopener");
  window.open("/popup?via=noreferrer", "_blank", "noreferrer");
  window.open("/popup?via=plain");
  document.getElementById("link").click();
}`);
  await using _site = fixture;
  await using pool = poolFor(testConfig({ trustPorts: [fixture.port] }));
  const visit = pool.visit(`${fixture.origin}/`, {
    html: true,
    waitForSelector: "#done",
    timeoutMs: 30_000,
  });
  let most = 0;
  try {
    assert.ok(await eventually(() => fixture.paths.includes("/opened"), 20_000), "page ran");
    // Sampled while the page waits: its own tab alone.
    await eventually(() => (most = Math.max(most, pool.stats().pages)) > 1, 1000);
  } finally {
    release();
  }
  const result = await visit;
  assert.match(result.html!, /id="done"/);
  await pool.settled();
  const popups = fixture.paths.filter((path) => path === "/popup").length;
  assert.equal(popups, 0, `popup loads: ${popups}, tabs at most ${most}`);
  assert.equal(most, 1, `tabs at most ${most}`);
});

Deno.test("a popup a click opens (noopener) is closed, and so is the one it hands on to", async () => {
  const { fixture, release } = site(`document.getElementById("link").addEventListener("click",
  () => window.open("/popup?via=gesture", "_blank", "noopener"));`);
  await using _site = fixture;
  await using pool = poolFor(testConfig({ trustPorts: [fixture.port] }));
  const visit = pool.visit(`${fixture.origin}/`, {
    html: true,
    click: "#link",
    // Actions run in order: the wait for #done comes after the click.
    scroll: "#done",
    timeoutMs: 30_000,
  });
  try {
    assert.ok(
      await eventually(() => fixture.paths.includes("/popup"), 20_000),
      "the click opened a popup",
    );
    const closed = await eventually(() => pool.stats().pages <= 1, 10_000);
    assert.ok(closed, `tabs still open during the visit: ${pool.stats().pages}`);
  } finally {
    release();
  }
  const result = await visit;
  assert.equal(new URL(result.url).pathname, "/");
  await pool.settled();
  assert.equal(pool.stats().contexts, 0);
});
