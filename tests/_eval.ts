/** TypeScript source run in a fresh `deno eval` process (LOG_LEVEL=info): its output as text. */
export async function evalTs(script: string): Promise<{ stdout: string; stderr: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--ext=ts", script],
    env: { NO_COLOR: "1", LOG_LEVEL: "info" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return { stdout: text.decode(output.stdout), stderr: text.decode(output.stderr) };
}
