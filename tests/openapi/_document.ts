/** The live /openapi.json of a handler with both pro servers configured, written to a folder. */
import { createHandler } from "../../lib/handler/mod.ts";
import { testConfig } from "../_fixtures.ts";

export type Json = Record<string, unknown>;

export async function liveDocument(): Promise<Json> {
  const handler = await createHandler(
    testConfig({ env: { PUBLIC_URL: "http://127.0.0.1:3000", PRO_PORT: "3001" } }),
  );
  try {
    const response = await handler(new Request("http://127.0.0.1:3000/openapi.json"));
    if (response.status !== 200) throw new Error(`/openapi.json answered ${response.status}`);
    return await response.json();
  } finally {
    await handler.close();
  }
}

/** A fresh temp folder holding `files` (name -> JSON value), removed on dispose. */
export async function tempFolder(
  files: Record<string, unknown>,
): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.makeTempDir({ prefix: "linkpeek-openapi-" });
  for (const [name, value] of Object.entries(files)) {
    await Deno.writeTextFile(
      `${path}/${name}`,
      typeof value === "string" ? value : JSON.stringify(value, null, 2),
    );
  }
  return {
    path,
    [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }),
  };
}
