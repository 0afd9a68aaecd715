/**
 * Page icons ranked the way a logo should be: square before non-square, then by a weight of
 * format (apple/android touch icons and PNGs read best, then JPEG, SVG, ICO) times width.
 */
import type { Context } from "./rules.ts";
import { resolveUrl } from "./resolve.ts";

interface Icon {
  url: string;
  square: boolean;
  priority: number;
  order: number;
}

const SIZE_IN_URL = /(\d+)x(\d+)/;
const IMAGEISH = /\.(png|jpe?g|gif|svg|ico|webp|avif)(?:[?#]|$)|\/[^/?#.]+(?:[?#]|$)/i;

function weight(url: string, width: number): number {
  const u = url.toLowerCase().replace(/[?#].*$/, "");
  const w = width || 1;
  if (url.includes("apple") || url.includes("android") || u.endsWith("png")) return 5 * w;
  if (u.endsWith("jpg") || u.endsWith("jpeg")) return 4 * w;
  if (u.endsWith("svg")) return 3 * w;
  if (u.endsWith("ico")) return 2 * w;
  return w;
}

function sizeOf(sizes: string, url: string): { w: number; h: number } {
  const spec = sizes.trim().split(/\s+/).map((s) => s.replace(/×/g, "x").toLowerCase())
    .filter((s) => /^\d+x\d+$/.test(s))
    .sort((a, b) => parseInt(b) - parseInt(a))[0] ?? SIZE_IN_URL.exec(url)?.[0];
  if (!spec) return { w: 0, h: 0 };
  const [h, w] = spec.split("x").map(Number);
  return { w: w || 0, h: h || 0 };
}

/** link rel*=icon and msapplication tile images, best first, as absolute URLs. */
export function rankedIcons(ctx: Context): string[] {
  const icons: Icon[] = [];
  const add = (href: string, sizes: string) => {
    const url = resolveUrl(href, ctx);
    if (url === null || url === ctx.url || !IMAGEISH.test(url)) return;
    const { w, h } = sizeOf(sizes, url);
    icons.push({ url, square: w === h, priority: weight(url, w), order: icons.length });
  };
  for (const l of ctx.rec.links) {
    if (l.rel.some((r) => r.includes("icon")) && l.type !== "image/x-mask") add(l.href, l.sizes);
  }
  for (const [key, values] of ctx.rec.meta) {
    if (key.includes("msapplication") && /tileimage|square\d+|wide\d+/.test(key)) {
      for (const v of values) add(v, "");
    }
  }
  icons.sort((a, b) =>
    Number(b.square) - Number(a.square) || b.priority - a.priority || a.order - b.order
  );
  return icons.map((i) => i.url);
}
