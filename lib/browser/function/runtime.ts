/**
 * Where the `function` sandbox can start: a `deno run` child of the very `deno` executable
 * that runs linkpeek. A binary made by `deno compile` is linkpeek itself (Deno.execPath()
 * names it, and its modules live under Deno's `deno-compile-` root): starting it again would
 * start another linkpeek, not a sandbox, so there `function` is refused before any work
 * (EFUNCTIONUNAVAILABLE) instead of failing obscurely.
 */

export type SandboxRuntime = { deno: string } | { refused: string };

/** The decision, from what the running process says about itself. */
export function sandboxRuntime(self: { execPath: string; moduleUrl: string }): SandboxRuntime {
  const compiled = /[/\\]deno-compile-[^/\\]+[/\\]/.test(decodeURI(self.moduleUrl));
  const isDeno = /(^|[/\\])deno(\.exe)?$/i.test(self.execPath);
  if (compiled || !isDeno) {
    return {
      refused: "The parameter `function` needs linkpeek run by deno (deno task start): this " +
        "is a compiled binary, which cannot start the function's sandbox.",
    };
  }
  return { deno: self.execPath };
}

let current: SandboxRuntime | undefined;

/** This process's answer, decided once. */
export function currentSandboxRuntime(): SandboxRuntime {
  return current ??= sandboxRuntime({
    execPath: Deno.execPath(),
    moduleUrl: import.meta.url,
  });
}
