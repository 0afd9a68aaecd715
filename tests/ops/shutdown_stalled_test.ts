/**
 * SIGTERM while a client has stopped reading its answer: the shutdown waits for in-flight
 * answers, but not forever (until a supervisor's SIGKILL, which loses unwritten state).
 */
import assert from "node:assert/strict";
import { EmbeddedStore } from "../../lib/store/embedded.ts";
import { startMain } from "./_main_process.ts";

/** Far more than loopback socket buffers hold: the answer cannot be sent while nobody reads. */
const ASSET_BYTES = 48 * 1024 * 1024;

Deno.test("main.ts on SIGTERM exits 0 even when a client never reads its answer", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "linkpeek-stalled-" });
  try {
    const store = await EmbeddedStore.open({ dataDir, maxBytes: 2 * ASSET_BYTES });
    await store.putAsset("large", {
      bytes: new Uint8Array(ASSET_BYTES),
      contentType: "application/pdf",
      private: false,
      ttlMs: 3_600_000,
    });
    await store.close();
    await using main = await startMain({ DATA_DIR: dataDir, REQUEST_TIMEOUT_MS: "1000" });
    const conn = await Deno.connect({
      hostname: "127.0.0.1",
      port: Number(new URL(main.origin).port),
    });
    try {
      await conn.write(
        new TextEncoder().encode("GET /assets/large.pdf HTTP/1.1\r\nhost: t\r\n\r\n"),
      );
      const head = new Uint8Array(64);
      await conn.read(head);
      assert.match(new TextDecoder().decode(head), /^HTTP\/1.1 200/);
      // From here on the client reads nothing.
      main.child.kill("SIGTERM");
      let timer: ReturnType<typeof setTimeout> | undefined;
      const status = await Promise.race([
        main.exited,
        new Promise<null>((resolve) => timer = setTimeout(resolve, 30_000, null)),
      ]);
      clearTimeout(timer);
      assert.ok(status, "still running 30 s after SIGTERM");
      assert.equal(status.code, 0, main.stderr());
      assert.ok(main.lines.some((l) => l.includes("connections still open at shutdown")));
    } finally {
      conn.close();
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
