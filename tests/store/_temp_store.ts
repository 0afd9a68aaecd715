import { EmbeddedStore } from "../../lib/store/embedded.ts";

/** An embedded store in a fresh temp DATA_DIR, removed on dispose. */
export async function tempStore(): Promise<EmbeddedStore & AsyncDisposable> {
  const dataDir = await Deno.makeTempDir({ prefix: "linkpeek-plans-" });
  const store = await EmbeddedStore.open({ dataDir, maxBytes: 1024 * 1024 });
  return Object.assign(store, {
    async [Symbol.asyncDispose]() {
      await store.close();
      await Deno.remove(dataDir, { recursive: true });
    },
  });
}
