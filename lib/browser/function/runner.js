// The `function` parameter's sandbox: run as its own `deno run` process with no permissions, a
// V8 heap cap and every local module import refused (FunctionSandbox starts it). It is plain
// JavaScript with no imports so that process compiles nothing and reads nothing.
//
// Protocol, one JSON object a line. In on stdin: the job first
// ({ source, argument, limitChars, tooLarge, maxDepth, maxLogChars }), then replies to page
// calls ({ id, ok, value } or { id, ok: false, error }). Out on stdout: page calls
// ({ type: "call", id, method, args }), console output ({ type: "log", level, text }), and last
// ({ type: "done", isFulfilled, value, memory }).

const encoder = new TextEncoder();
const writeLine = (line) => {
  const bytes = encoder.encode(line + "\n");
  for (let at = 0; at < bytes.length;) at += Deno.stdout.writeSync(bytes.subarray(at));
};
const write = (message) => writeLine(JSON.stringify(message));

const pending = new Map();
let nextId = 0;

/** One message to the parent, which performs it on the real page and answers. */
function call(method, args) {
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    write({ type: "call", id, method, args });
  });
}

/** A function the page runs is sent as its source text; anything else must be JSON. */
const code = (fn) => typeof fn === "function" ? { fn: String(fn) } : { expression: String(fn) };

/** What a navigation answered, shaped like puppeteer's HTTPResponse methods. */
function asResponse(plain) {
  if (!plain) return null;
  return {
    url: () => plain.url,
    status: () => plain.status,
    statusText: () => plain.statusText,
    ok: () => plain.status === 0 || (plain.status >= 200 && plain.status <= 299),
    headers: () => ({ ...plain.headers }),
  };
}

const page = {
  title: () => call("title", []),
  url: () => call("url", []),
  content: () => call("content", []),
  goto: (url, options) => call("goto", [url, options]).then(asResponse),
  reload: (options) => call("reload", [options]).then(asResponse),
  waitForNavigation: (options) => call("waitForNavigation", [options]).then(asResponse),
  click: (selector, options) => call("click", [selector, options]),
  type: (selector, text, options) => call("type", [selector, text, options]),
  focus: (selector) => call("focus", [selector]),
  hover: (selector) => call("hover", [selector]),
  select: (selector, ...values) => call("select", [selector, ...values]),
  waitForSelector: (selector, options) => call("waitForSelector", [selector, options]),
  waitForFunction: (fn, options, ...args) => call("waitForFunction", [code(fn), options, ...args]),
  waitForNetworkIdle: (options) => call("waitForNetworkIdle", [options]),
  evaluate: (fn, ...args) => call("evaluate", [code(fn), ...args]),
  $eval: (selector, fn, ...args) => call("$eval", [selector, code(fn), ...args]),
  $$eval: (selector, fn, ...args) => call("$$eval", [selector, code(fn), ...args]),
  screenshot: async (options) => {
    const base64 = await call("screenshot", [options]);
    if (options && options.encoding === "base64") return base64;
    return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  },
  keyboard: {
    press: (key, options) => call("keyboard.press", [key, options]),
    type: (text, options) => call("keyboard.type", [text, options]),
  },
};

function errorValue(error) {
  const value = {
    name: String((error && error.name) || "Error"),
    message: String((error && error.message) || error),
  };
  // Deno's refusal, in the shape Microlink gives its sandbox's (code and permission).
  if (value.name === "NotCapable" || value.name === "PermissionDenied") {
    value.name = "Error";
    value.code = "ERR_ACCESS_DENIED";
    const what = /Requires (\w+) access/.exec(value.message);
    if (what) value.permission = what[1];
  }
  return value;
}

function captureConsole(maxChars) {
  let left = maxChars;
  const format = (value) => {
    if (typeof value === "string") return value;
    try {
      return JSON.stringify(value) ?? String(value);
    } catch {
      return String(value);
    }
  };
  for (const level of ["log", "info", "warn", "error", "debug"]) {
    // deno-lint-ignore no-console -- replaced, not used: the output goes to `logging`
    console[level] = (...values) => {
      if (left <= 0) return;
      const text = values.map(format).join(" ").slice(0, left);
      left -= text.length;
      write({ type: "log", level, text });
    };
  }
}

async function* lines() {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of Deno.stdin.readable) {
    buffered += decoder.decode(chunk, { stream: true });
    let end;
    while ((end = buffered.indexOf("\n")) >= 0) {
      yield JSON.parse(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
    }
  }
}

/** The value's JSON text, or the rejection that replaces it. */
function settle(value, job) {
  const stack = [[value, 0]];
  const seen = new Set();
  while (stack.length) {
    const [item, depth] = stack.pop();
    if (item === null || typeof item !== "object" || seen.has(item)) continue;
    if (depth >= job.maxDepth) {
      throw new RangeError(
        `The value nests arrays and objects deeper than ${job.maxDepth} levels`,
      );
    }
    seen.add(item);
    for (const name of Object.keys(item)) stack.push([item[name], depth + 1]);
  }
  let json;
  try {
    json = JSON.stringify(value === undefined ? null : value) ?? "null";
  } catch (error) {
    throw new TypeError(`The value is not JSON (${(error && error.message) || error})`);
  }
  if (json.length > job.limitChars) throw new RangeError(job.tooLarge);
  return json;
}

const input = lines();
const job = (await input.next()).value;
captureConsole(job.maxLogChars);
// Workers would be new isolates beside this one: the function gets none.
delete globalThis.Worker;

(async () => {
  for await (const reply of input) {
    const waiting = pending.get(reply.id);
    if (!waiting) continue;
    pending.delete(reply.id);
    if (reply.ok) waiting.resolve(reply.value);
    else waiting.reject(Object.assign(new Error(reply.error.message), reply.error));
  }
})();

const memory = () => {
  const used = Deno.memoryUsage();
  return { total: used.rss, heap: used.heapUsed, external: used.external };
};

let json;
let isFulfilled = true;
write({ type: "start" });
try {
  const run = (0, eval)(`(\n${job.source}\n)`);
  const argument = { ...job.argument, page, response: asResponse(job.argument.response) };
  const value = await (typeof run === "function" ? run(argument) : run);
  json = settle(value, job);
} catch (error) {
  isFulfilled = false;
  json = JSON.stringify(errorValue(error));
}
// The value goes out as text already checked above: the parent reads one bounded line.
writeLine(
  `{"type":"done","isFulfilled":${isFulfilled},"memory":${JSON.stringify(memory())},` +
    `"value":${json}}`,
);
Deno.exit(0);
