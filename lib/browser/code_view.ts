/**
 * `screenshot.codeScheme`: a JSON, plain-text or source-code target is captured as a
 * syntax-highlighted page (highlight.js, in a Worker) instead of Chromium's raw text view, with
 * the caller's theme or Microlink's default look. The view is composed in a fresh tab of the
 * visit's context (the target's own CSP cannot block its styles) and captured like a page.
 */
import type { HTTPResponse, Page } from "puppeteer-core";
import type { TabOpener } from "./popup_guard.ts";
import { hljsTheme } from "./code_themes.ts";
import type { Deadline } from "../util/deadline.ts";
import type { HighlightJob } from "./_highlight_worker.ts";

/** A screenshot shows the start of a file: more is not worth highlighting. */
const MAX_CHARS = 64 * 1024;
const MAX_LINES = 1000;
const WORKER_URL = new URL("./_highlight_worker.ts", import.meta.url).href;

const LANGUAGE_BY_TYPE: [RegExp, string][] = [
  [/^(application|text)\/([\w.-]+\+)?json$/, "json"],
  [/^(application|text)\/(x-)?(javascript|ecmascript)$/, "javascript"],
  [/^text\/css$/, "css"],
  [/^(application|text)\/([\w.-]+\+)?xml$/, "xml"],
  [/^text\/(x-)?markdown$/, "markdown"],
  [/^(application|text)\/(x-)?yaml$/, "yaml"],
  [/^(application|text)\/(x-)?python$/, "python"],
  [/^(application|text)\/(x-)?(sh|shellscript)$/, "bash"],
  [/^application\/toml$/, "ini"],
  [/^text\/(plain|csv|x-[\w.+-]+)$/, "by-extension"],
];

/** The highlight.js language of a code target, or null for anything else (HTML, images...). */
export function codeLanguage(contentType: string | undefined, url: string): string | null {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "image/svg+xml") return null;
  const found = LANGUAGE_BY_TYPE.find(([pattern]) => pattern.test(type))?.[1];
  if (found !== "by-extension") return found ?? null;
  const extension = /\.([a-z0-9+]{1,10})$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase();
  return extension ?? "plaintext";
}

function highlight(job: HighlightJob, deadline: Deadline): Promise<string> {
  const worker = new Worker(WORKER_URL, { type: "module" });
  const done = new Promise<string>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<string>) => resolve(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      reject(new Error(event.message));
    };
  });
  worker.postMessage(job);
  return deadline.run(done).finally(() => worker.terminate());
}

async function themeCss(theme: string | undefined): Promise<string> {
  // A static specifier per file is not possible for ~80 themes; the package's own styles/
  // folder is read instead (it ships inside the npm package, in `deno compile`'s image too).
  const dir = import.meta.resolve("highlight.js/styles/default.css").replace(/default\.css$/, "");
  return await Deno.readTextFile(new URL(`${hljsTheme(theme)}.css`, dir));
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Truncates to what a capture can show, on a line boundary. */
function head(text: string): string {
  let cut = text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text;
  let lines = 0;
  for (let i = cut.indexOf("\n"); i !== -1; i = cut.indexOf("\n", i + 1)) {
    if (++lines === MAX_LINES) {
      cut = cut.slice(0, i);
      break;
    }
  }
  return cut.length < text.length ? `${cut}\n…` : cut;
}

/**
 * A tab showing the target's text highlighted, or null when the target is not code. The caller
 * captures it and closes it.
 */
export async function openCodeView(
  page: Page,
  view: {
    response: HTTPResponse | null;
    context: TabOpener;
    theme: string | undefined;
    deadline: Deadline;
  },
): Promise<Page | null> {
  const { response, deadline } = view;
  const language = response && codeLanguage(response.headers()["content-type"], response.url());
  if (!response || !language) return null;
  const raw = await deadline.run(response.text()).catch(() =>
    deadline.run(page.evaluate("document.body ? document.body.innerText : ''") as Promise<string>)
  );
  let text = head(raw);
  if (language === "json") {
    try {
      text = head(JSON.stringify(JSON.parse(raw), null, 2));
    } catch {
      // not valid JSON: shown as it came
    }
  }
  const [code, css] = await Promise.all([
    highlight({ text, language }, deadline),
    deadline.run(themeCss(view.theme)),
  ]);
  const tab = await deadline.run(view.context.newPage());
  try {
    const viewport = page.viewport();
    if (viewport) await deadline.run(tab.setViewport(viewport));
    await deadline.run(tab.setJavaScriptEnabled(false));
    await deadline.run(tab.setContent(
      `<!doctype html><html><head><meta charset="utf-8"><title>${
        escapeHtml(response.url())
      }</title><style>${css}
html,body{margin:0;min-height:100%}
pre{margin:0;padding:24px 28px;box-sizing:border-box;min-height:100vh;
font:14px/1.55 "DejaVu Sans Mono","Liberation Mono",ui-monospace,monospace;
white-space:pre-wrap;overflow-wrap:anywhere}</style></head>` +
        `<body class="hljs"><pre><code class="hljs">${code}</code></pre></body></html>`,
      { waitUntil: "load", timeout: deadline.remaining() },
    ));
    return tab;
  } catch (error) {
    await tab.close().catch(() => {});
    throw error;
  }
}
