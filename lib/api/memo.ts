/**
 * What the API remembers between requests, each table bounded (client-chosen keys). The API owns
 * it: the services object below knows nothing of plans, checked queries or answer templates,
 * and the handler adds the memo when it builds the API's services (ApiServices).
 */
import type { Services } from "../services/mod.ts";
import { BoundedMap } from "../util/bounded_map.ts";
import type { Plan } from "./respond.ts";
import type { Prepared } from "./prepare.ts";
import { Templates } from "./templates.ts";

export interface Memo {
  /** Plan by Host header: a service answers under a few host names. */
  plans: BoundedMap<string, Plan>;
  /** Checked queries by their query string (see prepare). */
  prepared: BoundedMap<string, Prepared>;
  /** Answers cloned from templates (see Templates). */
  templates: Templates;
}

/**
 * Longest query string whose checked form is kept. A checked query holds ~18 times its query
 * (its rules, canonical pairs, forwarded names): 1000 of 33 KB held 600 MB, from requests any
 * client may send (a query is checked before its daily count). Popular queries are short.
 */
export const MAX_KEPT_QUERY_CHARS = 2048;

export function createMemo(): Memo {
  return {
    plans: new BoundedMap(256),
    prepared: new BoundedMap(1000, { maxKeyLength: MAX_KEPT_QUERY_CHARS }),
    templates: new Templates(),
  };
}

/** The services the API's routes run on: the shared ones and the API's memo. */
export interface ApiServices extends Services {
  memo: Memo;
}
