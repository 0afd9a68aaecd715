/**
 * Lighthouse's Chromium, started and owned by the server's thread, not by the Worker that drives
 * it: a Worker's child outlives the Worker, and one terminated while its Chromium was still
 * starting never told anyone the pid (a whole Chromium and its profile leaked per request).
 * Here the pid and the profile folder are known before anything is awaited, and `kill()`
 * always ends both. The Worker talks CDP through this thread: the pipe's bytes are handed to
 * it as they come (transferred, not copied), its messages written back NUL-terminated, as
 * Chromium's `--remote-debugging-pipe` expects.
 */
import { spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import puppeteer from "puppeteer-core";
import { chromiumArgs, LEFT_OUT_DEFAULTS, removeDir } from "../browser/launch.ts";

export interface PipedChromium {
  pid: number | null;
  userDataDir: string;
  /** Sends one CDP message. */
  send(message: string): void;
  /** Kills the process (if still running) and removes its profile; safe to call twice. */
  kill(): Promise<void>;
}

/** The same flags the pool's browser gets (puppeteer's defaults, linkpeek's, a pipe). */
export async function pipedChromiumArgs(proxyPort: number): Promise<string[]> {
  const defaults = await puppeteer.defaultArgs({ headless: true, args: chromiumArgs(proxyPort) });
  return [...defaults.filter((arg) => !LEFT_OUT_DEFAULTS.includes(arg)), "--remote-debugging-pipe"];
}

/**
 * Starts Chromium with a fresh profile in `userDataDir` (made by the caller, so that it is
 * known before this starts). `onData` gets the pipe's bytes, `onExit` the process's end.
 */
export function spawnPipedChromium(options: {
  executablePath: string;
  /** From pipedChromiumArgs(). */
  args: string[];
  userDataDir: string;
  onData: (chunk: Uint8Array) => void;
  onExit: () => void;
}): PipedChromium {
  const args = [...options.args, `--user-data-dir=${options.userDataDir}`];
  const child = spawn(options.executablePath, args, {
    stdio: ["ignore", "ignore", "ignore", "pipe", "pipe"],
  });
  const input = child.stdio[3] as Writable;
  const output = child.stdio[4] as Readable;
  let exited = false;
  const gone = new Promise<void>((resolve) => {
    child.once("exit", () => {
      exited = true;
      resolve();
    });
    // A binary that cannot start: spawn reports it here, and there is no exit to wait for.
    child.once("error", () => {
      exited = true;
      resolve();
    });
  });
  void gone.then(options.onExit);
  input.on("error", () => {}); // Chromium gone: the write fails, the exit says why
  output.on("data", (chunk: Uint8Array) => options.onData(new Uint8Array(chunk)));
  return {
    pid: child.pid ?? null,
    userDataDir: options.userDataDir,
    send(message) {
      if (!exited) input.write(message + "\0");
    },
    async kill() {
      if (!exited) child.kill("SIGKILL");
      await gone;
      await removeDir(options.userDataDir);
    },
  };
}
