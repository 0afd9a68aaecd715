import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { authorize } from "../../lib/plans/authorize.ts";
import { findActiveKey } from "../../lib/plans/keys.ts";
import { EmbeddedStore } from "../../lib/store/embedded.ts";
import { openStore } from "../../lib/store/mod.ts";
import { startRedis } from "../store/_redis.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PERMS = ["--allow-read", "--allow-write", "--allow-env", "--allow-net", "--allow-sys"];

async function keys(env: Record<string, string>, ...args: string[]) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...PERMS, "lib/cli/keys.ts", ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", REDIS_URL: "", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

Deno.test("keys CLI manages keys in DATA_DIR", async (t) => {
  const dataDir = await Deno.makeTempDir({ prefix: "linkpeek-cli-" });
  const env = { DATA_DIR: dataDir };
  try {
    let key = "";
    await t.step("add prints a new key once", async () => {
      const result = await keys(env, "add", "site", "--daily-limit", "5");
      assert.equal(result.code, 0, result.stderr);
      key = /lp_[A-Za-z0-9_-]{43}/.exec(result.stdout)?.[0] ?? "";
      assert.ok(key, result.stdout);
      assert.match(result.stdout, /daily limit 5/);
    });
    await t.step("the printed key is accepted; only its hash is on disk", async () => {
      const store = await EmbeddedStore.open({ dataDir, maxBytes: 1024 });
      try {
        const record = await findActiveKey(store, key);
        assert.equal(record?.name, "site");
        assert.equal(record?.dailyLimit, 5);
      } finally {
        await store.close();
      }
      const files = [...Deno.readDirSync(dataDir)].filter((f) => f.isFile);
      for (const file of files) {
        const bytes = await Deno.readFile(`${dataDir}/${file.name}`);
        assert.ok(!new TextDecoder("latin1").decode(bytes).includes(key.slice(3)), file.name);
      }
    });
    await t.step("a running server's store sees keys the CLI adds", async () => {
      const server = await EmbeddedStore.open({ dataDir, maxBytes: 1024 });
      try {
        const result = await keys(env, "add", "live");
        assert.equal(result.code, 0, result.stderr);
        const added = /lp_[A-Za-z0-9_-]{43}/.exec(result.stdout)?.[0] ?? "";
        assert.equal((await findActiveKey(server, added))?.name, "live");
        assert.equal((await keys(env, "revoke", "live")).code, 0);
        assert.equal(await findActiveKey(server, added), null);
      } finally {
        await server.close();
      }
    });
    await t.step("bad input: clear messages and non-zero exit codes", async () => {
      const taken = await keys(env, "add", "site");
      assert.equal(taken.code, 1);
      assert.match(taken.stderr, /A key named "site" already exists/);
      const badLimit = await keys(env, "add", "other", "--daily-limit", "lots");
      assert.equal(badLimit.code, 2);
      assert.match(badLimit.stderr, /--daily-limit needs a whole number/);
      const badName = await keys(env, "add", "has space");
      assert.equal(badName.code, 1);
      assert.match(badName.stderr, /Invalid key name "has space"/);
      const unknown = await keys(env, "frobnicate");
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /Unknown command "frobnicate"[\s\S]*Usage:/);
      const noUrl = await keys(env, "sign", "site", "screenshot=true");
      assert.equal(noUrl.code, 2);
      assert.match(noUrl.stderr, /has no url parameter/);
    });
    await t.step("list shows names, creation dates, limits and status", async () => {
      const result = await keys(env, "list");
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^NAME\s+ID\s+CREATED\s+DAILY LIMIT\s+STATUS/);
      assert.match(result.stdout, /site\s+\S{12}\s+\d{4}-\d\d-\d\dT\S+Z\s+5\s+active/);
      assert.ok(!result.stdout.includes(key));
    });
    let signed = "";
    await t.step("sign prints a query the pro endpoint accepts without the key", async () => {
      const query = "url=https%3A%2F%2Fexample.com&screenshot&embed=screenshot.url";
      const result = await keys(env, "sign", "site", query);
      assert.equal(result.code, 0, result.stderr);
      signed = result.stdout.trim();
      assert.ok(signed.startsWith(`${query}&signature=`), signed);
      const store = await EmbeddedStore.open({ dataDir, maxBytes: 1024 });
      try {
        const auth = await authorize({
          plan: "pro",
          apiKey: null,
          query: new URLSearchParams(signed),
          ip: "192.0.2.1",
          store,
          config: { freeDailyLimit: 50 },
        });
        assert.equal(auth.via, "signature");
        assert.equal(auth.key?.name, "site");
      } finally {
        await store.close();
      }
    });
    await t.step("revoke disables the key; a second revoke fails", async () => {
      const result = await keys(env, "revoke", "site");
      assert.equal(result.code, 0, result.stderr);
      assert.match((await keys(env, "list")).stdout, /site .* revoked \d{4}-/);
      const again = await keys(env, "revoke", "site");
      assert.equal(again.code, 1);
      assert.match(again.stderr, /No active key named "site"/);
      const sign = await keys(env, "sign", "site", "url=https%3A%2F%2Fexample.com");
      assert.equal(sign.code, 1);
    });
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("keys CLI uses REDIS_URL when set", async () => {
  await using redis = await startRedis();
  const result = await keys({ REDIS_URL: redis.url, DATA_DIR: "/nonexistent" }, "add", "shared");
  assert.equal(result.code, 0, result.stderr);
  const key = /lp_[A-Za-z0-9_-]{43}/.exec(result.stdout)?.[0] ?? "";
  const store = await openStore({ redisUrl: redis.url, dataDir: "/nonexistent", cacheMaxBytes: 0 });
  try {
    assert.equal((await findActiveKey(store, key))?.name, "shared");
  } finally {
    await store.close();
  }
});
