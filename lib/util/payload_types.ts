/** Shapes shared across modules: the payload the API answers with. */

/** image, logo, audio, video, screenshot, pdf. Unknown members are null, never absent. */
/** data.screenshot.animated as Microlink documents it. */
export interface AnimatedMedia extends MediaObject {
  /** Milliseconds, as Microlink gives it here (media elsewhere count seconds). */
  duration: number;
  duration_pretty: string;
  fps: number;
  codec: string;
  /** How the frames were taken: Chromium's screencast, as Microlink names it. */
  backend: "screencast";
}

export interface MediaObject {
  url: string;
  type: string | null;
  size: number | null;
  size_pretty: string | null;
  width: number | null;
  height: number | null;
  /** audio and video only, when the file's header tells. */
  duration?: number | null;
  duration_pretty?: string | null;
  /** screenshot.animated: the recording, a video media object (Microlink's fields). */
  animated?: AnimatedMedia;
  /** A PDF target read as a document: its pages (null when it could not be read). */
  pages?: number | null;
  /** With `palette=true` on image and logo. */
  palette?: string[];
  background_color?: string | null;
  color?: string | null;
  alternative_color?: string | null;
}

export const MEDIA_FIELDS = ["image", "logo", "audio", "video"] as const;
export type MediaField = typeof MEDIA_FIELDS[number];

export const TEXT_FIELDS = [
  "title",
  "description",
  "lang",
  "author",
  "publisher",
  "date",
  "url",
] as const;

/** Every default field of `data`, in the contract's order. */
export const DEFAULT_FIELDS = [...TEXT_FIELDS, ...MEDIA_FIELDS] as const;

export interface Redirect {
  statusCode: number;
  url: string;
}

/**
 * How the page was read: fetched, rendered in Chromium, or not read (x-fetch-mode); with
 * Microlink's `-proxy` suffix when an upstream proxy (`proxy=`, EGRESS_PROXY) carried it.
 */
export type FetchMode = "fetch" | "prerender" | "skipped" | "fetch-proxy" | "prerender-proxy";
