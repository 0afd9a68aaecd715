/// <reference lib="deno.worker" />
/** Syntax highlighting off the main thread (see code_view.ts): ~5 ms per KB of JSON. */
import hljs from "highlight.js/lib/common";

export interface HighlightJob {
  text: string;
  /** A highlight.js language name or alias, or a file extension that may be one. */
  language: string;
}

self.onmessage = (event: MessageEvent<HighlightJob>) => {
  const { text, language } = event.data;
  const known = hljs.getLanguage(language) ? language : "plaintext";
  self.postMessage(hljs.highlight(text, { language: known, ignoreIllegals: true }).value);
};
