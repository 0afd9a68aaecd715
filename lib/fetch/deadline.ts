/** One AbortSignal per operation: fires on our deadline or on the caller's signal. */
import { ApiError, isApiError } from "../errors.ts";

export interface Deadline extends Disposable {
  signal: AbortSignal;
}

/** `message` becomes the ETIMEOUT error; a caller's abort reason is kept if it is an ApiError. */
export function deadline(
  ms: number,
  options: { message: string; signal?: AbortSignal },
): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new ApiError("ETIMEOUT", options.message)), ms);
  const outer = options.signal;
  const onAbort = () => {
    const reason = outer?.reason;
    controller.abort(isApiError(reason) ? reason : new ApiError("ETIMEOUT", options.message));
  };
  if (outer?.aborted) onAbort();
  else outer?.addEventListener("abort", onAbort, { once: true });
  return {
    signal: controller.signal,
    [Symbol.dispose]() {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onAbort);
    },
  };
}
