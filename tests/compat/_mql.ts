/** What the @microlink/mql tests share: the MicrolinkError a call rejects with. */
import assert from "node:assert/strict";
import { MicrolinkError } from "@microlink/mql";

// deno-lint-ignore no-explicit-any
export type Any = any;

/** The MicrolinkError a call rejects with. */
export async function failure(call: Promise<unknown>): Promise<Any> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof MicrolinkError, `not a MicrolinkError: ${error}`);
    return error;
  }
  assert.fail("the call succeeded");
}
