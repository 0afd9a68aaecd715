// The `function` parameter's sandbox: run as its own `deno run` process with no permissions, a
// V8 heap cap and every local module import refused (FunctionSandbox starts it). It is plain
// JavaScript with no imports so that process compiles nothing and reads nothing.
//
// Protocol, one JSON object a line. In on stdin: the job first
// ({ source, argument, limitChars, tooLarge, maxDepth, maxLogChars }), then replies to page
// calls ({ id, ok, value } or { id, ok: false, error }). Out on stdout: page calls
// ({ type: "call", id, method, args }), console output ({ type: "log", level, text }), and last
// ({ type: "done", isFulfilled, value, usage }). "start" and "built" mark the compile's span.

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

/**
 * An object whose unknown methods throw a clear TypeError naming what is offered, rather than
 * "x is not a function": most of Puppeteer's API does not cross into this process.
 */
function offering(name, methods) {
  const offered = Object.keys(methods).join(", ");
  return new Proxy(methods, {
    get(target, key) {
      // Inherited ones too (toString, valueOf): printing the object stays safe.
      if (typeof key === "symbol" || key in target) return target[key];
      // Not a thenable, not JSON-shaped: awaiting or logging the object stays safe.
      if (key === "then" || key === "toJSON") return undefined;
      return () => {
        throw new TypeError(
          `${name}.${key}() is not available in linkpeek's function sandbox (offered: ${offered}).`,
        );
      };
    },
  });
}

/**
 * An element found by page.$ or page.$$: a number on this side, the real ElementHandle in the
 * parent, which disposes of every one when the function ends.
 */
function elementHandle(id) {
  const on = (method, ...args) => call(`element.${method}`, [id, ...args]);
  return offering("ElementHandle", {
    click: (options) => on("click", options),
    hover: () => on("hover"),
    focus: () => on("focus"),
    type: (text, options) => on("type", text, options),
    press: (key, options) => on("press", key, options),
    evaluate: (fn, ...args) => on("evaluate", code(fn), ...args),
    $eval: (selector, fn, ...args) => on("$eval", selector, code(fn), ...args),
    $$eval: (selector, fn, ...args) => on("$$eval", selector, code(fn), ...args),
    getProperty: async (name) => {
      const value = await on("getProperty", name);
      return offering("JSHandle", {
        jsonValue: () => Promise.resolve(value),
        dispose: () => Promise.resolve(),
      });
    },
    boundingBox: () => on("boundingBox"),
    dispose: () => on("dispose"),
  });
}

const elements = (ids) => ids === null ? null : ids.map(elementHandle);

const page = offering("page", {
  title: () => call("title", []),
  url: () => call("url", []),
  content: () => call("content", []),
  goto: (url, options) => call("goto", [url, options]).then(asResponse),
  reload: (options) => call("reload", [options]).then(asResponse),
  goBack: (options) => call("goBack", [options]).then(asResponse),
  goForward: (options) => call("goForward", [options]).then(asResponse),
  waitForNavigation: (options) => call("waitForNavigation", [options]).then(asResponse),
  click: (selector, options) => call("click", [selector, options]),
  type: (selector, text, options) => call("type", [selector, text, options]),
  focus: (selector) => call("focus", [selector]),
  hover: (selector) => call("hover", [selector]),
  select: (selector, ...values) => call("select", [selector, ...values]),
  waitForSelector: (selector, options) =>
    call("waitForSelector", [selector, options]).then((id) =>
      id === null ? null : elementHandle(id)
    ),
  waitForFunction: (fn, options, ...args) => call("waitForFunction", [code(fn), options, ...args]),
  waitForNetworkIdle: (options) => call("waitForNetworkIdle", [options]),
  // Gone from Puppeteer since v22, still in Microlink's guides: a plain timer here (the
  // sandbox is killed at the deadline whatever it waits for).
  waitForTimeout: (ms) => {
    if (typeof ms !== "number" || !(ms >= 0)) {
      return Promise.reject(new TypeError("waitForTimeout takes a number of milliseconds."));
    }
    return new Promise((resolve) => setTimeout(resolve, ms));
  },
  evaluate: (fn, ...args) => call("evaluate", [code(fn), ...args]),
  $eval: (selector, fn, ...args) => call("$eval", [selector, code(fn), ...args]),
  $$eval: (selector, fn, ...args) => call("$$eval", [selector, code(fn), ...args]),
  $: (selector) => call("$", [selector]).then((id) => id === null ? null : elementHandle(id)),
  $$: (selector) => call("$$", [selector]).then(elements),
  setViewport: (viewport) => call("setViewport", [viewport]),
  viewport: () => call("viewport", []),
  screenshot: async (options) => {
    const base64 = await call("screenshot", [options]);
    if (options && options.encoding === "base64") return base64;
    return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  },
  keyboard: offering("page.keyboard", {
    press: (key, options) => call("keyboard.press", [key, options]),
    type: (text, options) => call("keyboard.type", [text, options]),
  }),
  mouse: offering("page.mouse", {
    click: (x, y, options) => call("mouse.click", [x, y, options]),
    move: (x, y, options) => call("mouse.move", [x, y, options]),
    down: (options) => call("mouse.down", [options]),
    up: (options) => call("mouse.up", [options]),
    wheel: (options) => call("mouse.wheel", [options]),
  }),
});

/**
 * `String(read())`, else `fallback`: what was thrown may be a null-prototype object, or have
 * getters and a `toString` that throw themselves.
 */
function text(read, fallback) {
  try {
    return String(read());
  } catch {
    return fallback;
  }
}

function errorValue(error) {
  const value = {
    name: text(() => (error && error.name) || "Error", "Error"),
    message: text(() => (error && error.message) || error, "[object Object]"),
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

// Held before the function runs: what it replaces on the globals does not change its profiling.
const cpuUsage = process.cpuUsage.bind(process);
const memoryUsage = Deno.memoryUsage;
/** CPU time of this process so far, in microseconds (user and system). */
const cpuMicros = () => {
  const { user, system } = cpuUsage();
  return user + system;
};
// Measured from here: the runtime's own start is not the function's.
const baseline = { cpu: cpuMicros(), rss: memoryUsage().rss };

/** Microlink's profiling.cpu (ms) and memory (bytes), `used` being the growth since the job. */
const usage = () => {
  const now = memoryUsage();
  return {
    cpu: Math.round((cpuMicros() - baseline.cpu) / 1000),
    memory: {
      total: now.rss,
      used: Math.max(0, now.rss - baseline.rss),
      heap: now.heapUsed,
      external: now.external,
    },
  };
};

let json;
let isFulfilled = true;
write({ type: "start" });
try {
  const run = (0, eval)(`(\n${job.source}\n)`);
  write({ type: "built" });
  const argument = { ...job.argument, page, response: asResponse(job.argument.response) };
  const value = await (typeof run === "function" ? run(argument) : run);
  json = settle(value, job);
} catch (error) {
  isFulfilled = false;
  json = JSON.stringify(errorValue(error));
}
// The value goes out as text already checked above: the parent reads one bounded line.
writeLine(
  `{"type":"done","isFulfilled":${isFulfilled},"usage":${JSON.stringify(usage())},` +
    `"value":${json}}`,
);
Deno.exit(0);
