/**
 * Reads Linux's /proc under any of linkpeek's permission sets. Deno refuses every path under
 * /proc unless all of its permissions are granted (`--allow-all`: even `--allow-read=/proc` is
 * refused with NotCapable, "Requires all access"), and `deno task start` grants fewer. It does
 * grant spawning, so once a direct read is refused (the answer is remembered for the process)
 * a ProcReader reads through one small long-lived `sh` instead: directory listings and first
 * lines with builtins only (no fork per sample, the renderer watchdog asks ten times a second),
 * whole files with one `cat`. Every reader answers null or leaves a file out where /proc
 * cannot be read (gone, another OS, a sandbox).
 */

/** False once Deno refused a /proc read for want of --allow-all. */
let direct = true;

function refused(error: unknown): boolean {
  if (!(error instanceof Deno.errors.NotCapable)) return false;
  direct = false;
  return true;
}

/**
 * One request a line (`op path...`), its answer then a line with the end marker ($1). Paths
 * are checked before they are sent (procPaths), so splitting them on spaces is safe.
 */
const SCRIPT = `exec 2>/dev/null
while read -r op paths; do
  case $op in
    list) for f in $paths/*; do [ -e "$f" ] || [ -L "$f" ] && printf '%s\\n' "\${f##*/}"; done ;;
    first) for p in $paths; do IFS= read -r line < "$p" && printf '%s %s\\n' "$p" "$line"; done ;;
    cat) cat -- $paths ;;
  esac
  printf '\\n%s\\n' "$1"
done`;

/** Paths a ProcReader reads: under /proc, with nothing a shell would split or expand. */
const PROC_PATH = /^\/proc(\/[A-Za-z0-9_.-]+)*$/;

function procPaths(paths: string[]): string[] {
  return paths.filter((path) => PROC_PATH.test(path) && !path.includes(".."));
}

export class ProcReader implements AsyncDisposable {
  #shell: ProcShell | null = null;
  #closed = false;

  /** Names in a /proc directory, or null when it cannot be listed. */
  async list(dir: string): Promise<string[] | null> {
    if (direct) {
      try {
        const names: string[] = [];
        for await (const entry of Deno.readDir(dir)) names.push(entry.name);
        return names;
      } catch (error) {
        if (!refused(error)) return null;
      }
    }
    if (procPaths([dir]).length === 0) return null;
    const text = await this.#ask("list", [dir]);
    return text ? text.split("\n").filter(Boolean) : null;
  }

  /** The files' texts one after the other; files that cannot be read (gone) are left out. */
  async read(paths: string[]): Promise<string> {
    if (direct) {
      try {
        const texts = await Promise.all(
          paths.map((path) =>
            Deno.readTextFile(path).catch((error) => {
              if (error instanceof Deno.errors.NotCapable) throw error;
              return "";
            })
          ),
        );
        return texts.join("");
      } catch (error) {
        if (!refused(error)) return "";
      }
    }
    const wanted = procPaths(paths);
    if (wanted.length === 0) return "";
    return await this.#ask("cat", wanted) ?? "";
  }

  /** The first line of each file, by path; files that cannot be read (gone) are left out. */
  async firstLines(paths: string[]): Promise<Map<string, string>> {
    const lines = new Map<string, string>();
    if (direct) {
      try {
        await Promise.all(paths.map(async (path) => {
          try {
            lines.set(path, (await Deno.readTextFile(path)).split("\n", 1)[0]!);
          } catch (error) {
            if (error instanceof Deno.errors.NotCapable) throw error;
          }
        }));
        return lines;
      } catch (error) {
        if (!refused(error)) return lines;
        lines.clear();
      }
    }
    const wanted = procPaths(paths);
    if (wanted.length === 0) return lines;
    for (const line of (await this.#ask("first", wanted) ?? "").split("\n")) {
      const space = line.indexOf(" ");
      if (space > 0) lines.set(line.slice(0, space), line.slice(space + 1));
    }
    return lines;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const shell = this.#shell;
    this.#shell = null;
    await shell?.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** The shell's answer, or null when it could not be asked (closed, or it ended). */
  async #ask(op: string, paths: string[]): Promise<string | null> {
    if (this.#closed) return null;
    let shell: ProcShell | null = null;
    try {
      shell = this.#shell ??= new ProcShell();
      return await shell.ask(`${op} ${paths.join(" ")}`);
    } catch {
      // No shell here, or it ended (killed, say): the next request starts another.
      if (shell && this.#shell === shell) this.#shell = null;
      await shell?.close();
      return null;
    }
  }
}

/** The long-lived `sh`; requests are answered one at a time, in order. */
class ProcShell {
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #encoder = new TextEncoder();
  readonly #decoder = new TextDecoder();
  /** Ends each answer; random, so that no file's text can hold it. */
  readonly #end = `--end-${crypto.randomUUID()}--`;
  #buffered = "";
  #queue: Promise<unknown> = Promise.resolve();

  constructor() {
    this.#child = new Deno.Command("sh", {
      args: ["-c", SCRIPT, "proc_reader", this.#end],
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    // It never keeps the process alive on its own.
    this.#child.unref();
    this.#writer = this.#child.stdin.getWriter();
    this.#reader = this.#child.stdout.getReader();
  }

  ask(request: string): Promise<string> {
    const answer = this.#queue.then(async () => {
      await this.#writer.write(this.#encoder.encode(request + "\n"));
      return await this.#answer();
    });
    this.#queue = answer.catch(() => {});
    return answer;
  }

  async #answer(): Promise<string> {
    const end = `\n${this.#end}\n`;
    while (!this.#buffered.includes(end)) {
      const { value, done } = await this.#reader.read();
      if (done) throw new Error("the /proc reader's shell ended");
      this.#buffered += this.#decoder.decode(value, { stream: true });
    }
    const at = this.#buffered.indexOf(end);
    const text = this.#buffered.slice(0, at);
    this.#buffered = this.#buffered.slice(at + end.length);
    return text;
  }

  async close(): Promise<void> {
    await this.#writer.close().catch(() => {});
    await this.#reader.cancel().catch(() => {});
    try {
      this.#child.kill("SIGKILL");
    } catch {
      // already gone
    }
    await this.#child.status.catch(() => {});
  }
}
