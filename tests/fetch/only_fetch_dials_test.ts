/**
 * Only lib/fetch/ may open connections to targets (the contract's security promise). This
 * scans the rest of lib/ for anything that dials: global fetch, Deno.connect*, WebSocket,
 * and dial-capable bindings of node:net/http/https/tls/http2/dgram or HTTP client packages.
 * Listening (createServer) and type-only imports are fine.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const NODE_NET = /^(node:)?(net|http|https|tls|http2|dgram)$/;
const HTTP_CLIENTS = /^(npm:)?(undici|node-fetch|axios|got|ky|ws|superagent|needle)(@|$|\/)/;
const DIALERS = new Set([
  "connect",
  "createConnection",
  "request",
  "get",
  "Socket",
  "Agent",
  "TLSSocket",
  "ClientRequest",
  "createSocket",
  "fetch",
]);

function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

/** Each way `source` could open a connection, as short descriptions. Empty means clean. */
export function findDialling(source: string): string[] {
  const code = stripComments(source);
  const found: string[] = [];
  if (/(?<![\w$.])fetch\s*\(/.test(code)) found.push("global fetch(");
  if (/\b(globalThis|window|self)\s*\.\s*fetch\b/.test(code)) found.push("globalThis.fetch");
  const deno = /\bDeno\s*\.\s*(connect\w*|startTls|createHttpClient|listenDatagram)\b/.exec(code);
  if (deno) found.push(`Deno.${deno[1]}`);
  const socket = /\bnew\s+(WebSocket|WebSocketStream|EventSource)\b/.exec(code);
  if (socket) found.push(`new ${socket[1]}`);
  const dynamic = /\b(?:import|require)\s*\(\s*["']([^"']+)["']/g;
  for (const m of code.matchAll(dynamic)) {
    if (NODE_NET.test(m[1]!) || HTTP_CLIENTS.test(m[1]!)) found.push(`dynamic import ${m[1]}`);
  }
  const imports = /\bimport\s+(type\s+)?([\s\S]*?)\s+from\s+["']([^"']+)["']/g;
  for (const m of code.matchAll(imports)) {
    const [, typeOnly, clause, specifier] = m as unknown as [string, string, string, string];
    if (typeOnly) continue;
    if (HTTP_CLIENTS.test(specifier)) {
      found.push(`import from ${specifier}`);
      continue;
    }
    if (!NODE_NET.test(specifier)) continue;
    const named = /\{([^}]*)\}/.exec(clause);
    for (const part of named?.[1]?.split(",") ?? []) {
      const name = part.trim();
      if (!name || name.startsWith("type ")) continue;
      const imported = name.split(/\s+as\s+/)[0]!.trim();
      if (DIALERS.has(imported)) found.push(`${imported} from ${specifier}`);
    }
    // Default or namespace binding: look for dialling members used through it.
    const whole = clause.replace(/\{[^}]*\}/, "").replace(/^\*\s+as\s+/, "").replace(/,/g, " ")
      .trim();
    if (!whole) continue;
    const member = new RegExp(`\\b${whole}\\s*\\.\\s*(\\w+)`, "g");
    for (const use of code.matchAll(member)) {
      if (DIALERS.has(use[1]!)) found.push(`${whole}.${use[1]} from ${specifier}`);
    }
  }
  return found;
}

async function* tsFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* tsFiles(path);
    // Server code is TypeScript; .js files under lib/ are assets run by visitors' browsers
    // (the playground), which talk to linkpeek itself, not to targets.
    else if (/\.(ts|tsx|mts)$/.test(entry.name)) yield path;
  }
}

Deno.test("findDialling() spots every way of dialling", async (t) => {
  const dialling: [string, string][] = [
    ["const r = await fetch(url);", "global fetch("],
    ["await globalThis.fetch(u)", "globalThis.fetch"],
    ["const c = await Deno.connect({ port: 80 });", "Deno.connect"],
    ["await Deno.connectTls({ hostname })", "Deno.connectTls"],
    ["await Deno.startTls(conn)", "Deno.startTls"],
    ["const ws = new WebSocket(u);", "new WebSocket"],
    ['import net from "node:net";\nnet.connect(80);', "net.connect from node:net"],
    ['import * as h from "node:https";\nh.get(u);', "h.get from node:https"],
    ['import http from "node:http";\nhttp.request(o);', "http.request from node:http"],
    ['import { connect } from "node:tls";', "connect from node:tls"],
    ['import { request as r } from "node:http";', "request from node:http"],
    ['import { Socket } from "node:net";', "Socket from node:net"],
    ['import { fetch } from "npm:undici@6";', "import from npm:undici@6"],
    ['const net = await import("node:net");', "dynamic import node:net"],
  ];
  for (const [source, expected] of dialling) {
    await t.step(expected, () => assert.deepEqual(findDialling(source), [expected]));
  }
  const clean = [
    "const r = await services.fetcher.fetch(url);",
    "// fetch(url) in a comment",
    "/* Deno.connect() */",
    'import type { Socket } from "node:net";',
    'import { createServer, type Server, type Socket } from "node:net";',
    'import { isIP } from "node:net";',
    'import http from "node:http";\nhttp.createServer(handler);',
    'const link = "https://example.com//path";',
    "function prefetch(x) {}\nprefetch(1);",
  ];
  for (const source of clean) {
    await t.step(`clean: ${source.split("\n")[0]}`, () => {
      assert.deepEqual(findDialling(source), []);
    });
  }
});

/** Files that dial something other than a target, and what. */
const NOT_TO_TARGETS: Record<string, string> = {
  // The stdio MCP bridge is a client of the operator's own linkpeek (LINKPEEK_URL), which
  // fetches every target itself, guarded.
  "cli/mcp.ts": "linkpeek's own API",
};

Deno.test("only lib/fetch/ opens connections to targets", async () => {
  const lib = fileURLToPath(new URL("../../lib/", import.meta.url));
  const offenders: string[] = [];
  let scanned = 0;
  for await (const path of tsFiles(lib)) {
    const rel = relative(lib, path);
    if (rel.startsWith("fetch/") || rel in NOT_TO_TARGETS) continue;
    scanned++;
    for (const what of findDialling(await Deno.readTextFile(path))) {
      offenders.push(`lib/${rel}: ${what}`);
    }
  }
  assert.ok(scanned > 5, `only ${scanned} files scanned: wrong directory?`);
  assert.deepEqual(offenders, []);
});
