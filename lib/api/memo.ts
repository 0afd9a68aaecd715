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

export function createMemo(): Memo {
  return { plans: new BoundedMap(256), prepared: new BoundedMap(1000), templates: new Templates() };
}

/** The services the API's routes run on: the shared ones and the API's memo. */
export interface ApiServices extends Services {
  memo: Memo;
}
