/**
 * Resident sizes of processes by pid, read from /proc/<pid>/statm by one small long-lived `sh`.
 * Deno 2.9 refuses /proc reads to anything short of --allow-all, and `deno task start` grants
 * --allow-run, not that: the shell reads with builtins only (no fork per sample), one line
 * of pids in, one line of `pid:bytes` out.
 */

const SCRIPT = `exec 2>/dev/null
page=$(getconf PAGESIZE || echo 4096)
while read -r pids; do
  out=""
  for p in $pids; do
    if read -r _ rss _ < "/proc/$p/statm"; then out="$out $p:$((rss * page))"; fi
  done
  echo "$out"
done`;

export class RssSampler {
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #encoder = new TextEncoder();
  readonly #decoder = new TextDecoder();
  #buffered = "";

  constructor() {
    this.#child = new Deno.Command("sh", {
      args: ["-c", SCRIPT],
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.#child.unref();
    this.#writer = this.#child.stdin.getWriter();
    this.#reader = this.#child.stdout.getReader();
  }

  /** Resident bytes of each pid still running; one call at a time. */
  async sample(pids: number[]): Promise<Map<number, number>> {
    await this.#writer.write(this.#encoder.encode(pids.join(" ") + "\n"));
    const sizes = new Map<number, number>();
    for (const pair of (await this.#line()).trim().split(/\s+/)) {
      const [pid, bytes] = pair.split(":").map(Number);
      if (Number.isInteger(pid) && Number.isFinite(bytes)) sizes.set(pid!, bytes!);
    }
    return sizes;
  }

  async #line(): Promise<string> {
    while (!this.#buffered.includes("\n")) {
      const { value, done } = await this.#reader.read();
      if (done) throw new Error("the memory sampler ended");
      this.#buffered += this.#decoder.decode(value, { stream: true });
    }
    const end = this.#buffered.indexOf("\n");
    const line = this.#buffered.slice(0, end);
    this.#buffered = this.#buffered.slice(end + 1);
    return line;
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
