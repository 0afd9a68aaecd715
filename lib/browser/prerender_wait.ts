/**
 * What a page rendered for `prerender=auto` is waited for after its load event. A bot challenge
 * (or a meta-refresh wall) solves itself by navigating: it sets a cookie and reloads, or
 * refreshes to the real page, so the main frame may navigate on its own and the capture waits
 * for the page it ends on. An application shell mounts its content by script, often after load
 * (dynamic imports, data fetches): the capture waits for the first visible text.
 */
import type { HTTPResponse, Page } from "puppeteer-core";
import type { Deadline } from "../util/deadline.ts";
import { ApiError } from "../util/errors.ts";

/** How long the first page may take to navigate on its own (a challenge computes first). */
const FIRST_WAIT_MS = 5000;
/** After a followed navigation, how long a chained one may take to start. */
const NEXT_WAIT_MS = 500;
const MAX_HOPS = 3;
/**
 * The whole follow, from the first navigation on: a page that reloads before its load event
 * (or two that bounce) never lets a load be waited for, so time bounds it as well as count.
 */
const FOLLOW_MS = 15_000;
/** How long a shell may take to show its first text after load. */
const TEXT_WAIT_MS = 5000;

export interface MainDocuments {
  /** Waits for the navigations the page makes by itself; the last main document's response. */
  follow(deadline: Deadline): Promise<HTTPResponse | null>;
}

/**
 * Watches the main frame's documents from before the navigation on. A page that navigates
 * more than MAX_HOPS times by itself, or is still moving after FOLLOW_MS, fails the visit
 * (`deadline`): the caller's fetched HTML stands.
 */
export function trackMainDocuments(page: Page, deadline: Deadline, url: string): MainDocuments {
  let commits = 0;
  let followed = false;
  const giveUp = (why: string) => {
    if (followed) return;
    deadline.fail(new ApiError("EBRWSRTIMEOUT", `The page "${url}" ${why}.`));
  };
  const timer = setTimeout(
    () => giveUp(`was still navigating by itself after ${FOLLOW_MS} ms`),
    FOLLOW_MS,
  );
  Deno.unrefTimer(timer);
  /** A document committed and has not fired its load event yet. */
  let loading = false;
  let last: HTTPResponse | null = null;
  let wake = () => {};
  page.on("framenavigated", (frame) => {
    if (frame !== page.mainFrame()) return;
    commits++;
    // The first commit is the visit's own navigation.
    if (commits > 1 + MAX_HOPS) giveUp(`navigated by itself more than ${MAX_HOPS} times`);
    loading = true;
    wake();
  });
  page.on("load", () => {
    loading = false;
    wake();
  });
  page.on("response", (response) => {
    const request = response.request();
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) last = response;
  });

  /** Resolves true once `ready()` holds, false after `ms`. */
  const until = (ready: () => boolean, ms: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => settle(false), ms);
      function settle(value: boolean) {
        clearTimeout(timer);
        wake = () => {};
        resolve(value);
      }
      wake = () => ready() && settle(true);
      wake();
    });
  const loaded = (deadline: Deadline) =>
    deadline.run(until(() => !loading, deadline.remaining(1000)));

  return {
    async follow(deadline) {
      try {
        for (let hop = 0; hop < MAX_HOPS; hop++) {
          await loaded(deadline);
          // A page that already moved during its first load has solved its challenge.
          const first = hop === 0 && commits <= 1;
          const wait = Math.min(first ? FIRST_WAIT_MS : NEXT_WAIT_MS, deadline.remaining(2000));
          const before = commits;
          if (!await deadline.run(until(() => commits > before, wait))) break;
        }
        await loaded(deadline);
        return last;
      } finally {
        followed = true;
        clearTimeout(timer);
      }
    },
  };
}

/** Waits (bounded) until the page shows some text; a shell that never does is captured as is. */
export async function waitForText(page: Page, deadline: Deadline): Promise<void> {
  const timeout = Math.min(TEXT_WAIT_MS, deadline.remaining(2000));
  await deadline.run(
    page.waitForFunction("(document.body?.innerText ?? '').trim().length > 0", {
      timeout,
      polling: "mutation",
    }),
  ).catch((error) => {
    if (!(error instanceof Error && error.name === "TimeoutError")) throw error;
  });
}
