/** An oEmbed answer as a response body: JSON, or the spec's XML (2.3.4: `<oembed>` of fields). */
import { type HeaderMap, jsonResponse } from "../api/respond.ts";
import { escape } from "./_markup.ts";
import type { OembedAnswer } from "./answer.ts";

export function toXml(answer: OembedAnswer): string {
  const fields = Object.entries(answer)
    .map(([name, value]) => `  <${name}>${escape(String(value))}</${name}>\n`)
    .join("");
  return `<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n<oembed>\n${fields}</oembed>\n`;
}

export function oembedResponse(
  answer: OembedAnswer,
  format: "json" | "xml",
  headers: HeaderMap,
): Response {
  if (format === "json") return jsonResponse(answer, 200, headers);
  const body = toXml(answer);
  headers["content-type"] = "text/xml; charset=utf-8";
  headers["content-length"] = String(new TextEncoder().encode(body).length);
  return new Response(body, { status: 200, headers });
}
