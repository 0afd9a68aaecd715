/**
 * The platforms linkpeek knows by host, as metascraper's platform packages do: each file
 * declares the rules it puts before the generic ones for the fields it defines, the probes it
 * adds to the streaming pass, and optionally an endpoint read by fetchPlatformData
 * (endpoint.ts). Scholarly citation_* metadata is read by the generic rules, on any host.
 */
import { amazon } from "./amazon.ts";
import { bluesky } from "./bluesky.ts";
import { dribbble } from "./dribbble.ts";
import { imdb } from "./imdb.ts";
import { instagram } from "./instagram.ts";
import { reddit } from "./reddit.ts";
import { soundcloud } from "./soundcloud.ts";
import { spotify } from "./spotify.ts";
import { telegram } from "./telegram.ts";
import { tiktok } from "./tiktok.ts";
import type { Platform } from "./platform.ts";
import { uol } from "./uol.ts";
import { x } from "./x.ts";
import { youtube } from "./youtube.ts";

export const PLATFORMS: readonly Platform[] = [
  youtube,
  x,
  tiktok,
  instagram,
  spotify,
  soundcloud,
  amazon,
  reddit,
  bluesky,
  telegram,
  dribbble,
  imdb,
  uol,
];

/** The platform of the page at `url`, or null. */
export function platformFor(url: string): Platform | null {
  const parsed = URL.parse(url);
  return parsed && (PLATFORMS.find((p) => p.test(parsed)) ?? null);
}
