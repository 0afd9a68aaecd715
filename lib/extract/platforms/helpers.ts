/** What the platform files share: host tests, endpoint values, constant fields, probes. */
import type { Rule } from "../fields/rules.ts";
import type { Field } from "./platform.ts";

/** The URL's host is `domain` or one of its subdomains (www.x.com, mobile.x.com). */
export function hostIs(url: URL, ...domains: string[]): boolean {
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  return domains.some((d) => host === d || host.endsWith(`.${d}`));
}

/** The value the platform's endpoint gave for `field`, when it was fetched. */
export const fromEndpoint = (field: Field): Rule => ({ fetched }) => fetched?.[field];

/** A field every page of the platform shares (publisher: "YouTube"). */
export const always = (value: string): Rule => () => value;

/** What a platform probe kept (see ElementProbe), all values in document order. */
export const probed = (name: string): Rule => ({ rec }) => rec.probed.get(name);

/** An element with this id. */
export const byId = (id: string) => (_tag: string, a: Record<string, string>) => a.id === id;

/** An element whose class list has `name`. */
export const byClass = (name: string) => (_tag: string, a: Record<string, string>) =>
  a.class !== undefined && a.class.includes(name) && a.class.split(/\s+/).includes(name);

/** An element with this data-testid. */
export const byTestId = (id: string) => (_tag: string, a: Record<string, string>) =>
  a["data-testid"] === id;

/** What comes before the first of each separator in turn ("A (@a) on X" -> "A"), trimmed. */
export const before = (text: string, ...separators: string[]): string =>
  separators.reduce((rest, sep) => rest.split(sep)[0]!, text).trim();

/** The first path segment of a URL ("kikobeats" for x.com/kikobeats/status/1). */
export const firstSegment = (url: string) => new URL(url).pathname.split("/")[1] ?? "";
