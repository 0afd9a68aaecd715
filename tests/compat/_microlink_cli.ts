/**
 * Runs @microlink/cli exactly as its bin/microlink does (src/cli.js parses argv, src/api.js
 * calls mql and renders), as a subprocess of the compat test.
 *
 * One upstream fix: src/print.js does `require("pretty-bytes")`, which is ESM-only since v7,
 * so `print.bytes` is the module namespace rather than the function and the pretty footer
 * throws "print.bytes is not a function" under any runtime that can require ESM (Node 20.19+,
 * Deno). We hand it the function; nothing else is changed.
 */
import print from "@microlink/cli/src/print.js";
import cli from "@microlink/cli/src/cli.js";
import api from "@microlink/cli/src/api.js";
import prettyBytes from "pretty-bytes";

// deno-lint-ignore no-explicit-any
const printer = print as any;
if (typeof printer.bytes !== "function") printer.bytes = prettyBytes;
// deno-lint-ignore no-explicit-any
(api as any)(cli);
