/**
 * Code blocks for the Markdown views: a fenced block with the language the page's highlighter
 * named (Prism/highlight.js `language-x`, `lang-x`, GitHub's `highlight-source-x`, Rouge's
 * `language-x highlighter-rouge` wrapper, Sphinx's `highlight-x notranslate` wrapper, Pandoc's
 * `sourceCode x`, SyntaxHighlighter's `brush: x`, `data-lang`/`data-language`), and the code's
 * own line breaks (`<br>` and per-line elements included).
 */
import { type AnyNode, type Element, isTag, isText } from "domhandler";
import { attr } from "../dom/mod.ts";
import { spend } from "../dom/budget.ts";

/** Class tokens that mark highlighting, never a language. */
const NOT_LANGUAGES = new Set([
  "highlight",
  "highlighter-rouge",
  "hljs",
  "notranslate",
  "nohighlight",
  "none",
  "prettyprint",
  "linenums",
  "line-numbers",
  "sourcecode",
  "code",
  "codehilite",
  "chroma",
  "shiki",
  "wp-block-code",
  "syntaxhighlighter",
]);
/** Elements inside a <pre> that hold one line each. */
const LINE_TAGS = new Set(["div", "p", "li", "tr"]);
/** Gutters of line numbers, not code. */
const GUTTER = /(?:^|\s)(?:line-?numbers?-rows|linenos?|gutter|hljs-ln-numbers?|lnt)(?:\s|$)/i;
/** How far above the <pre> a wrapper may name the language (Rouge, GitHub, Pandoc). */
const WRAPPER_LEVELS = 2;

/** A fenced code block of `pre`, or "" when it holds no code. */
export function codeBlock(pre: Element): string {
  // trimEnd(), not /\s+$/: the regex tries every space of a long run and reads on to its end.
  const code = codeText(pre).replace(/^\n+/, "").trimEnd();
  if (!code) return "";
  const lang = codeLanguage(pre);
  const marks = "`".repeat(Math.max(2, longestRun(code, "`")) + 1);
  return `${marks}${lang}\n${code}\n${marks}`;
}

/** The language the page names for the code in `pre`, or "". */
export function codeLanguage(pre: Element): string {
  const code = pre.children.find((c): c is Element => isTag(c) && c.name === "code");
  for (const el of code ? [code, pre] : [pre]) {
    const named = attr(el, "data-lang") ?? attr(el, "data-language");
    if (named && /^[\w+#.-]{1,40}$/.test(named.trim())) return named.trim().toLowerCase();
    const fromClass = classLanguage(attr(el, "class") ?? "", el === pre);
    if (fromClass) return fromClass;
  }
  // Wrappers only by the highlighters' own prefixes: `lang-en` on an article is a language
  // of people, and `data-lang` there names the page's.
  let up = pre.parent;
  for (let i = 0; i < WRAPPER_LEVELS && up && isTag(up); i++, up = up.parent) {
    const classes = attr(up, "class") ?? "";
    const named = WRAPPER_CLASS.exec(classes)?.[1] ?? sphinxLanguage(classes);
    if (named && !NOT_LANGUAGES.has(named.toLowerCase())) return named.toLowerCase();
  }
  return "";
}

const WRAPPER_CLASS = /(?:^|\s)(?:language|highlight-source|highlight-text)-([\w+#.-]{1,40})/i;

/**
 * Sphinx's wrapper, `highlight-python3 notranslate` (Python's and many projects' docs): its
 * `highlight-` prefix names the lexer only beside `notranslate` (a `highlight-box` is a style).
 * Its `default` lexer is whatever the project set: no language.
 */
function sphinxLanguage(classes: string): string | undefined {
  if (!/(?:^|\s)notranslate(?:\s|$)/.test(classes)) return undefined;
  const lexer = /(?:^|\s)highlight-([\w+#.-]{1,40})(?:\s|$)/.exec(classes)?.[1];
  return lexer === "default" ? undefined : lexer;
}

function classLanguage(classes: string, onPre: boolean): string {
  const prefixed =
    /(?:^|\s)(?:language|lang|highlight-source|highlight-text|highlight)-([\w+#.-]{1,40})/i
      .exec(classes)?.[1];
  if (prefixed && !NOT_LANGUAGES.has(prefixed.toLowerCase())) return prefixed.toLowerCase();
  const brush = /(?:^|\s)brush:\s*([\w+#.-]{1,40})/i.exec(classes)?.[1];
  if (brush) return brush.toLowerCase();
  // Pandoc's `<pre class="sourceCode python">`: a bare token beside the marker class.
  if (onPre && /(?:^|\s)sourceCode(?:\s|$)/.test(classes)) {
    const bare = classes.split(/\s+/).find((t) => t && !NOT_LANGUAGES.has(t.toLowerCase()));
    if (bare && /^[\w+#.-]{1,40}$/.test(bare)) return bare.toLowerCase();
  }
  return "";
}

/** The text of `pre` with its line structure: `<br>` and line elements end lines. */
function codeText(pre: Element): string {
  const parts: string[] = [];
  const endsLine = () => {
    const last = parts[parts.length - 1];
    if (last !== undefined && !last.endsWith("\n")) parts.push("\n");
  };
  // An explicit stack (a deep page cannot overflow it); a marker closes a line element.
  const stack: (AnyNode | "eol")[] = [...pre.children].reverse();
  while (stack.length) {
    spend();
    const node = stack.pop()!;
    if (node === "eol") {
      endsLine();
      continue;
    }
    if (isText(node)) {
      parts.push(node.data);
      continue;
    }
    if (!isTag(node)) continue;
    if (node.name === "br") {
      parts.push("\n");
      continue;
    }
    if (GUTTER.test(attr(node, "class") ?? "")) continue;
    if (LINE_TAGS.has(node.name)) stack.push("eol");
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return parts.join("").replace(/\r\n?/g, "\n");
}

/** The longest run of `char` in `text` (a loop: spreading every run into Math.max overflows). */
export function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    run = text[i] === char ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}
