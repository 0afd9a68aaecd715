/**
 * oEmbed discovery (the spec's section 4) for the pages linkpeek serves itself: `<link>`
 * elements naming its /oembed answer for a page, in both formats.
 */
import { escape } from "./_markup.ts";

export function discoveryLinks(publicUrl: string, pageUrl: string): string {
  return (["json", "xml"] as const).map((format) => {
    const href = `${publicUrl}/oembed?url=${encodeURIComponent(pageUrl)}&format=${format}`;
    return `<link rel="alternate" type="application/${format}+oembed" href="${escape(href)}" ` +
      `title="linkpeek">`;
  }).join("\n    ");
}
