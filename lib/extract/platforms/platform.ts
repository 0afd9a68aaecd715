/**
 * What a platform module (one file per platform, chosen by the page's host) declares: its own
 * rules for the fields it knows better than the generic ones, probes read in the same streaming
 * pass, and optionally a JSON or embed endpoint that holds what the HTML does not.
 */
import type { ElementProbe } from "../stream/record.ts";
import type { PlatformData, PlatformRules } from "../fields/rules.ts";

export type { Field, PlatformData } from "../fields/rules.ts";

export interface Endpoint {
  /** The endpoint for the page at `page`, or null when this page has none. */
  url(page: URL): string | null;
  /** The Accept header to send. */
  accept: string;
  /** The endpoint's body read into field values; null when it is not what was expected. */
  read(body: string, page: URL): PlatformData | null;
}

export interface Platform extends PlatformRules {
  name: string;
  /** Does the page at `url` belong to this platform (by its host)? */
  test(url: URL): boolean;
  /** Extra probes for the streaming pass over this platform's pages. */
  probes?(url: URL): ElementProbe[];
  endpoint?: Endpoint;
}
