import assert from "node:assert/strict";
import { prettyBytes, prettyDuration } from "../../lib/media/pretty.ts";

Deno.test("prettyBytes() uses SI units with 3 significant digits", () => {
  const cases: [number, string][] = [
    [0, "0 B"],
    [999, "999 B"],
    [1000, "1 kB"],
    [48213, "48.2 kB"],
    [1500000, "1.5 MB"],
    [999_999, "1 MB"],
    [123_456_789, "123 MB"],
    [5_242_880, "5.24 MB"],
    [1e12, "1 TB"],
    [-1500, "-1.5 kB"],
  ];
  for (const [n, text] of cases) assert.equal(prettyBytes(n), text, String(n));
});

Deno.test("prettyDuration() formats seconds like pretty-ms", () => {
  const cases: [number, string][] = [
    [0.5, "500ms"],
    [12.34, "12.3s"],
    [83.4, "1m 23.4s"],
    [60, "1m"],
    [7384, "2h 3m 4s"],
    [7204, "2h 4s"],
    [90061.25, "1d 1h 1m 1.2s"],
    [26.122, "26.1s"],
    [59.99, "59.9s"],
  ];
  for (const [s, text] of cases) assert.equal(prettyDuration(s), text, String(s));
});
