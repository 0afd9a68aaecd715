/**
 * A caller's CSS selectors over a page's DOM: one match spends the job's budget as it looks at
 * nodes (a selector can be far from linear inside css-select), and the memo of compiled
 * selectors keeps only short ones (a compiled 50 KB selector list holds about 4 MB).
 */
import assert from "node:assert/strict";
import {
  compileSelector,
  MAX_CACHED_SELECTOR_CHARS,
  parseHtml,
  select,
} from "../../lib/extract/dom/mod.ts";
import { BudgetExceeded, withBudget } from "../../lib/extract/dom/budget.ts";

Deno.test("one match of a selector quartic in the page's depth stops at the budget", () => {
  // 200 nested divs: this one match takes about 8 s to finish.
  const doc = parseHtml("<div>".repeat(200) + "x");
  const hostile = ":has(~ *, :has(~ *, :has(~ span)))";
  assert.throws(
    () => withBudget({ endsAt: Date.now() + 100 }, () => select(doc, hostile)),
    BudgetExceeded,
  );
  // The same page under an ordinary selector, within the same budget.
  const found = withBudget({ endsAt: Date.now() + 100 }, () => select(doc, "div > div"));
  assert.equal(found?.name, "div");
});

Deno.test("short selectors are compiled once; long ones are not kept", () => {
  const short = "article p > a[href]";
  assert.equal(compileSelector(short), compileSelector(short));
  const long = Array.from({ length: 2000 }, (_, i) => `a.c${i} b`).join(",");
  assert.ok(long.length > MAX_CACHED_SELECTOR_CHARS);
  const first = compileSelector(long);
  assert.notEqual(compileSelector(long), first, "a long selector is compiled each time");
  // Each compile answers the same thing.
  const doc = parseHtml('<a class="c1999"><b>x</b></a>');
  assert.equal(withBudget({ endsAt: Date.now() + 1000 }, () => select(doc, long))?.name, "b");
});
