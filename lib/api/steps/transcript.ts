/**
 * YouTube video targets read like their transcript, as Microlink converts them: the document
 * that `markdown` and `data` rules read keeps the watch page's <head> (its meta tags stay
 * selectable) and gets the caption transcript as its <body>. A video without captions gets a
 * body with its title alone: the usual metadata, no transcript. The default fields still come
 * from the watch page itself.
 */
import { escapeUTF8 } from "entities";
import {
  fetchTranscript,
  isVideoPage,
  type Transcript,
} from "../../extract/platforms/youtube_captions.ts";
import type { StepContext } from "./context.ts";

/** The page as the DOM extras should read it: the transcript document for a YouTube video. */
export async function contentPage(
  context: StepContext,
  page: { html: string; url: string },
  title: string | null,
): Promise<{ html: string; url: string }> {
  if (!isVideoPage(page.url)) return page;
  const { services, signal } = context;
  const transcript = await context.timings.time(
    "probe",
    () => fetchTranscript(page.url, page.html, { fetcher: services.fetcher, signal }),
  );
  return { html: withBody(page.html, transcriptBody(transcript, title)), url: page.url };
}

function transcriptBody(transcript: Transcript | null, title: string | null): string {
  const heading = title ? `<h1>${escapeUTF8(title)}</h1>` : "";
  if (!transcript) return `<article>${heading}</article>`;
  const paragraphs = transcript.paragraphs.map((p) => `<p>${escapeUTF8(p)}</p>`).join("\n");
  return `<article lang="${escapeUTF8(transcript.lang)}">${heading}\n${paragraphs}</article>`;
}

/** `html` with everything inside <body> replaced by `body` (one pass; a page without one gains it). */
function withBody(html: string, body: string): string {
  const lower = html.toLowerCase();
  const open = lower.search(/<body[\s>]/);
  const openEnd = open < 0 ? -1 : lower.indexOf(">", open);
  const close = lower.lastIndexOf("</body>");
  if (openEnd < 0) return `${html}<body>${body}</body>`;
  const tail = close > openEnd ? html.slice(close) : "</body></html>";
  return `${html.slice(0, openEnd + 1)}${body}${tail}`;
}
