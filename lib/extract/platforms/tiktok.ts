/**
 * TikTok: videos and profiles. The page embeds its state as JSON
 * (script#__UNIVERSAL_DATA_FOR_REHYDRATION__): the video's author, caption, cover and time, or
 * the profile's user and its creation time. A video id also encodes its upload time (its top 32
 * bits are epoch seconds).
 */
import { memo, type Rule } from "../fields/rules.ts";
import { always, before, byId, hostIs } from "./helpers.ts";
import type { Platform } from "./platform.ts";
import { parseJson } from "../../util/json_depth.ts";

type Json = Record<string, unknown> | undefined;
const STATE = "__UNIVERSAL_DATA_FOR_REHYDRATION__";

function scope(ctx: Parameters<Rule>[0]): Json {
  return memo(ctx, "tiktok-scope", () => {
    const raw = ctx.rec.probed.get("state")?.[0];
    if (!raw) return undefined;
    try {
      // deno-lint-ignore no-explicit-any
      return (parseJson(raw) as any)?.__DEFAULT_SCOPE__;
    } catch {
      return undefined;
    }
  });
}

const get = (v: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((o, k) => (o as Json)?.[k], v);

const video = (ctx: Parameters<Rule>[0]) =>
  get(scope(ctx), "webapp.video-detail", "itemInfo", "itemStruct") as Json;
const user = (ctx: Parameters<Rule>[0]) =>
  (get(video(ctx), "author") ?? get(scope(ctx), "webapp.user-detail", "userInfo", "user")) as Json;

/** The author's name and handle: from the state, else og:title ("Name (@handle) | TikTok"). */
function who(ctx: Parameters<Rule>[0]): { name?: string; handle?: string } {
  const u = user(ctx);
  if (typeof u?.nickname === "string") return { name: u.nickname, handle: String(u.uniqueId) };
  const og = ctx.rec.meta.get("og:title")?.[0];
  const name = og === undefined ? undefined : before(og, " on TikTok", " (@", " | TikTok");
  return { name, handle: /\/@([^/?#]+)/.exec(ctx.url)?.[1] };
}

/** Epoch seconds live in the top 32 bits of a video id. */
export function timeFromVideoId(id: string): string | null {
  if (!/^\d{15,20}$/.test(id)) return null;
  return new Date(Number(BigInt(id) >> 32n) * 1000).toISOString();
}

const epoch = (v: unknown) => typeof v === "number" || typeof v === "string" ? Number(v) : NaN;

export const tiktok: Platform = {
  name: "tiktok",
  test: (url) => hostIs(url, "tiktok.com"),
  probes: () => [{ name: "state", match: (tag, a) => tag === "script" && byId(STATE)(tag, a) }],
  rules: {
    author: [(ctx) => who(ctx).name],
    title: [(ctx) => {
      const { name, handle } = who(ctx);
      return name && handle ? `${name} (@${handle}) on TikTok` : name;
    }],
    description: [(ctx) => video(ctx)?.desc],
    image: [(ctx) => [get(video(ctx), "video", "originCover"), get(video(ctx), "video", "cover")]],
    date: [
      ({ url }) => timeFromVideoId(/\/video\/(\d+)/.exec(url)?.[1] ?? ""),
      (ctx) => {
        const t = epoch(video(ctx)?.createTime ?? user(ctx)?.createTime);
        return Number.isFinite(t) && t > 0 ? new Date(t * 1000).toISOString() : undefined;
      },
    ],
    publisher: [always("TikTok")],
  },
};
