/**
 * `timeout` is the caller's own and not part of the cache key: a request that gave up early
 * must not leave its ETIMEOUT cached for a minute for every request after it.
 */
import assert from "node:assert/strict";
import { html, q, serve, testApp, testConfig, waitFor } from "../_fixtures.ts";

Deno.test("an ETIMEOUT from a caller's short timeout is not cached for the next request", async () => {
  const release = Promise.withResolvers<void>();
  await using site = serve({
    "/": async () => {
      await release.promise;
      return html("<title>Worth the wait</title>");
    },
  });
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  const url = q(`${site.origin}/`, "&ping=false");
  const hasty = await app.json(`${url}&timeout=1s`).finally(() => release.resolve());
  assert.equal(hasty.body.code, "ETIMEOUT");
  assert.equal(hasty.headers.get("x-cache-ttl"), "0", "said to be cached");

  const patient = await app.json(url);
  assert.equal(
    patient.status,
    200,
    `${patient.headers.get("x-cache-status")} ${patient.body.code}`,
  );
  assert.equal(patient.body.data.title, "Worth the wait");
  assert.equal(patient.headers.get("x-cache-status"), "MISS");
});

Deno.test("a request that joined a computation a caller's short timeout ended computes again", async () => {
  const release = Promise.withResolvers<void>();
  await using site = serve({
    "/": async () => {
      await release.promise;
      return html("<title>Worth the wait</title>");
    },
  });
  await using app = await testApp(testConfig({ trustPorts: [site.port] }));
  const url = q(`${site.origin}/`, "&ping=false");
  try {
    const hasty = app.json(`${url}&timeout=1s`);
    assert.ok(await waitFor(() => site.hits >= 1), "the target was not asked");
    // Joins the computation the hasty request started.
    const patient = app.json(url);
    assert.equal((await hasty).body.code, "ETIMEOUT");
    release.resolve();
    const answer = await patient;
    assert.equal(answer.status, 200, answer.body.code);
    assert.equal(answer.body.data.title, "Worth the wait");
  } finally {
    release.resolve();
  }
});
