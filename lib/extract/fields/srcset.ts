/**
 * srcset values ("a.jpg 480w, b.jpg 1080w" or "a.jpg 1x, b.jpg 2x"): never a URL themselves;
 * the largest candidate stands for them. Parsed the way the HTML standard does: a URL is a run
 * of non-space characters (commas inside it stay, as in CDN paths "w_300,h_200"), its
 * descriptors run to the next comma.
 */

/** A width (w) or density (x) descriptor after a URL, as srcset values carry. */
const DESCRIPTOR = /\S\s+\d+(?:\.\d+)?[wx]\s*(?:,|$)/i;

export function looksLikeSrcset(value: string): boolean {
  return DESCRIPTOR.test(value);
}

interface Candidate {
  url: string;
  width: number;
  density: number;
}

function parse(srcset: string): Candidate[] {
  const out: Candidate[] = [];
  let i = 0;
  while (i < srcset.length) {
    while (i < srcset.length && /[\s,]/.test(srcset[i]!)) i++;
    let end = i;
    while (end < srcset.length && !/\s/.test(srcset[end]!)) end++;
    let url = srcset.slice(i, end);
    i = end;
    let descriptors = "";
    if (url.endsWith(",")) url = url.replace(/,+$/, "");
    else {
      const comma = srcset.indexOf(",", i);
      const stop = comma === -1 ? srcset.length : comma;
      descriptors = srcset.slice(i, stop);
      i = stop + 1;
    }
    if (url === "") continue;
    const w = /(\d+)w\b/i.exec(descriptors);
    const x = /(\d+(?:\.\d+)?)x\b/i.exec(descriptors);
    out.push({ url, width: w ? Number(w[1]) : 0, density: x ? Number(x[1]) : w ? 0 : 1 });
  }
  return out;
}

/** The URL of the widest (or densest) candidate; the first one when none says. */
export function largestCandidate(srcset: string): string | null {
  let best: Candidate | null = null;
  for (const c of parse(srcset)) {
    if (!best || c.width > best.width || (c.width === best.width && c.density > best.density)) {
      best = c;
    }
  }
  return best?.url ?? null;
}
