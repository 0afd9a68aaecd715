/**
 * API key administration:
 *   deno task keys add <name> [--daily-limit N]   registers a key and prints it once
 *   deno task keys list                           names, ids, creation dates, limits, status
 *   deno task keys revoke <name>                  disables the active key of that name
 *   deno task keys sign <name> '<query>'          prints the query with &signature=...
 * State comes from loadConfig(), so DATA_DIR and REDIS_URL apply as for the server.
 */
import { loadConfig } from "../config/mod.ts";
import { isApiError } from "../util/errors.ts";
import { setQuiet } from "../util/log.ts";
import { createKey } from "../plans/keys.ts";
import { signedQuery } from "../plans/sign.ts";
import { openKeyStore } from "../store/mod.ts";
import type { KeyRecord, KeyStore } from "../store/types.ts";

const USAGE = `Usage:
  keys add <name> [--daily-limit N]   register a key (printed once)
  keys list                           list keys
  keys revoke <name>                  revoke the active key of that name
  keys sign <name> '<query>'          sign a query for embeds (adds &signature=...)`;

/** A mistake in how the command was called: usage is shown, exit code 2. */
class UsageError extends Error {}

export interface KeysIo {
  out(text: string): void;
  err(text: string): void;
}

function activeKey(keys: KeyRecord[], name: string): KeyRecord {
  const found = keys.find((k) => k.name === name && k.revokedAt === null);
  if (!found) throw new Error(`No active key named "${name}".`);
  return found;
}

function parseAdd(args: string[]): { name: string; dailyLimit: number | null } {
  let name: string | null = null;
  let dailyLimit: number | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const inline = /^--daily-limit=(.*)$/.exec(arg);
    if (arg === "--daily-limit" || inline) {
      const raw = inline ? inline[1]! : args[++i];
      if (raw === undefined || !/^\d+$/.test(raw) || Number(raw) < 1) {
        throw new UsageError(
          `--daily-limit needs a whole number of at least 1, got "${raw ?? ""}".`,
        );
      }
      dailyLimit = Number(raw);
    } else if (arg.startsWith("-")) {
      throw new UsageError(`Unknown option "${arg}".`);
    } else if (name === null) {
      name = arg;
    } else {
      throw new UsageError(`Unexpected argument "${arg}".`);
    }
  }
  if (name === null) throw new UsageError("keys add needs a name.");
  return { name, dailyLimit };
}

function table(keys: KeyRecord[]): string {
  if (keys.length === 0) return "No keys yet: add one with `deno task keys add <name>`.";
  const rows = [["NAME", "ID", "CREATED", "DAILY LIMIT", "STATUS"]];
  for (const k of keys) {
    rows.push([
      k.name,
      k.id,
      new Date(k.createdAt).toISOString(),
      k.dailyLimit === null ? "unlimited" : String(k.dailyLimit),
      k.revokedAt === null ? "active" : `revoked ${new Date(k.revokedAt).toISOString()}`,
    ]);
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c]!)).join("  ").trimEnd())
    .join("\n");
}

async function run(store: KeyStore, args: string[], io: KeysIo): Promise<void> {
  const [command, ...rest] = args;
  switch (command) {
    case "add": {
      const { name, dailyLimit } = parseAdd(rest);
      const { key, record } = await createKey(store, { name, dailyLimit });
      io.out(
        `Created key "${record.name}" (id ${record.id}, daily limit ${
          dailyLimit ?? "unlimited"
        }).\nIt is shown only this once; store it now:\n\n${key}\n`,
      );
      return;
    }
    case "list":
      if (rest.length) throw new UsageError(`Unexpected argument "${rest[0]}".`);
      io.out(table(await store.listKeys()));
      return;
    case "revoke": {
      if (rest.length !== 1) throw new UsageError("keys revoke needs exactly one name.");
      if (!(await store.revokeKey(rest[0]!))) throw new Error(`No active key named "${rest[0]}".`);
      io.out(`Revoked key "${rest[0]}".`);
      return;
    }
    case "sign": {
      if (rest.length !== 2) throw new UsageError("keys sign needs a name and a query.");
      const [name, query] = rest as [string, string];
      const raw = query.replace(/^[^?]*\?/, "");
      if (!new URLSearchParams(raw).has("url")) {
        throw new UsageError(`The query "${query}" has no url parameter.`);
      }
      io.out(signedQuery(activeKey(await store.listKeys(), name), raw));
      return;
    }
    default:
      throw new UsageError(command ? `Unknown command "${command}".` : "No command given.");
  }
}

/** Runs one command; returns the process exit code (0 ok, 1 failed, 2 bad usage). */
export async function runKeys(args: string[], io: KeysIo): Promise<number> {
  if (args[0] === "help" || args[0] === "--help" || args[0] === "-h") {
    io.out(USAGE);
    return 0;
  }
  let store: KeyStore | null = null;
  try {
    store = await openKeyStore(loadConfig());
    await run(store, args, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.err(isApiError(error) ? `${error.code}: ${message}` : message);
    return 1;
  } finally {
    await store?.close();
  }
}

if (import.meta.main) {
  setQuiet(true);
  const encoder = new TextEncoder();
  const code = await runKeys(Deno.args, {
    out: (text) => Deno.stdout.writeSync(encoder.encode(`${text}\n`)),
    err: (text) => Deno.stderr.writeSync(encoder.encode(`${text}\n`)),
  });
  Deno.exit(code);
}
