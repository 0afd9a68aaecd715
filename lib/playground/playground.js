// linkpeek playground: builds the query, calls the API on this origin, shows the answer.
// Payload text is written with textContent only; links and images accept only http(s) URLs;
// the API key lives in the input field and is never stored (nor put in the address bar).
"use strict";

const $ = (id) => document.getElementById(id);

/** Only http(s) URLs become links or image sources. */
function safeUrl(value) {
  if (typeof value !== "string") return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

const FLAGS = ["screenshot", "palette", "markdown", "iframe", "pdf"]; // off by default
const DEFAULT_ON = ["ping", "meta"];
const RULE_PARTS = ["selector", "attr", "type"];

/** The options as API query parameters, defaults left out. */
function queryFor(url) {
  const query = new URLSearchParams({ url });
  for (const flag of FLAGS) if ($(flag).checked) query.set(flag, "true");
  if ($("prerender").value !== "auto") query.set("prerender", $("prerender").value);
  for (const flag of DEFAULT_ON) if (!$(flag).checked) query.set(flag, "false");
  const name = $("rule-name").value.trim();
  if (name && $("rule-selector").value.trim()) {
    for (const part of RULE_PARTS) {
      const value = $(`rule-${part}`).value.trim();
      if (value) query.set(`data.${name}.${part}`, value);
    }
  }
  return query;
}

/** The controls as a query describes them (the address bar's fragment, on load). */
function applyQuery(query) {
  $("url").value = query.get("url") || "";
  for (const flag of FLAGS) $(flag).checked = query.get(flag) === "true";
  for (const flag of DEFAULT_ON) $(flag).checked = query.get(flag) !== "false";
  const prerender = query.get("prerender");
  $("prerender").value = prerender === "true" || prerender === "false" ? prerender : "auto";
  $("rule-name").value = "";
  for (const part of RULE_PARTS) $(`rule-${part}`).value = "";
  for (const [name, value] of query) {
    const rule = /^data\.([A-Za-z][A-Za-z0-9_]*)\.(selector|attr|type)$/.exec(name);
    if (!rule) continue;
    $("rule-name").value = rule[1];
    $(`rule-${rule[2]}`).value = value;
  }
}

function shellQuote(text) {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function curlSnippet(query, withKey) {
  const lines = [`curl -G ${shellQuote(location.origin + "/")}`];
  for (const [name, value] of query) {
    const plain = name !== "url" && /^[\w.-]*$/.test(value);
    lines.push(`  ${plain ? "-d" : "--data-urlencode"} ${shellQuote(`${name}=${value}`)}`);
  }
  if (withKey) lines.push(`  -H "x-api-key: $LINKPEEK_API_KEY"`);
  return lines.join(" \\\n");
}

/** A JavaScript object literal, keys unquoted where they can be. */
function literal(value, indent) {
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  const inner = indent + "  ";
  const entries = Object.entries(value).map(([key, item]) => {
    const name = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
    return `${inner}${name}: ${literal(item, inner)},`;
  });
  return `{\n${entries.join("\n")}\n${indent}}`;
}

function mqlSnippet(query, withKey) {
  // mql takes nested options: data.price.selector=x is { data: { price: { selector: "x" } } }.
  const options = { endpoint: location.origin + "/" };
  for (const [name, value] of query) {
    if (name === "url") continue;
    const path = name.split(".");
    let node = options;
    for (const key of path.slice(0, -1)) {
      if (!Object.hasOwn(node, key)) node[key] = {};
      node = node[key];
    }
    node[path[path.length - 1]] = value === "true" || value === "false" ? value === "true" : value;
  }
  let body = literal(options, "");
  if (withKey) body = body.replace(/\n}$/, "\n  apiKey: process.env.LINKPEEK_API_KEY,\n}");
  return [
    'import mql from "@microlink/mql";',
    "",
    `const { data } = await mql(${JSON.stringify(query.get("url"))}, ${body});`,
  ].join("\n");
}

function setImage(img, media) {
  const src = safeUrl(media && media.url);
  img.hidden = !src;
  if (src) img.src = src;
  else img.removeAttribute("src");
}

function text(value) {
  return typeof value === "string" || typeof value === "number" ? String(value) : "";
}

/** "2 January 2026 at 03:04 UTC"; a date at midnight UTC is shown as a day only. */
function readableDate(iso) {
  const date = new Date(typeof iso === "string" ? iso : NaN);
  if (Number.isNaN(date.getTime())) return null;
  const dayOnly = /T00:00:00(\.0+)?Z$/.test(iso);
  const style = dayOnly
    ? { dateStyle: "long", timeZone: "UTC" }
    : { dateStyle: "long", timeStyle: "short", timeZone: "UTC" };
  return new Intl.DateTimeFormat(undefined, style).format(date) + (dayOnly ? "" : " UTC");
}

/** Author · date · lang, the date as a <time> whose datetime keeps the ISO value. */
function showMeta(data) {
  const parts = [];
  if (text(data.author)) parts.push(document.createTextNode(text(data.author)));
  const readable = readableDate(data.date);
  if (readable) {
    const time = document.createElement("time");
    time.dateTime = data.date;
    time.textContent = readable;
    parts.push(time);
  }
  if (text(data.lang)) parts.push(document.createTextNode(text(data.lang)));
  const meta = $("card-meta");
  meta.replaceChildren();
  parts.forEach((part, i) => {
    if (i > 0) meta.append(" · ");
    meta.append(part);
  });
}

function showPdf(pdf) {
  const href = safeUrl(pdf && pdf.url);
  $("pdf-row").hidden = !href;
  if (href) $("pdf-link").href = href;
  else $("pdf-link").removeAttribute("href");
  $("pdf-meta").textContent = href ? text(pdf.size_pretty) : "";
}

function showCustom(data, name) {
  $("custom").hidden = !name;
  if (!name) return;
  const value = Object.prototype.hasOwnProperty.call(data, name) ? data[name] : null;
  $("custom-name").textContent = name;
  $("custom-value").textContent = typeof value === "string"
    ? value
    : value === null
    ? "null (nothing matched)"
    : JSON.stringify(value, null, 2);
}

function showCard(data, query) {
  const link = $("card-title");
  link.textContent = text(data.title) || text(data.url) || "(no title)";
  const href = safeUrl(data.url);
  if (href) link.href = href;
  else link.removeAttribute("href");
  $("card-description").textContent = text(data.description);
  $("card-publisher").textContent = text(data.publisher);
  showMeta(data);
  setImage($("card-image"), data.image);
  setImage($("card-logo"), data.logo);

  const shot = safeUrl(data.screenshot && data.screenshot.url);
  $("shot").hidden = !shot;
  if (shot) {
    $("shot-image").src = shot;
    const { width, height, size_pretty: size } = data.screenshot;
    $("shot-caption").textContent = [width && height ? `${width}×${height}` : "", text(size)]
      .filter(Boolean).join(" · ");
  }
  showPdf(data.pdf);

  const html = data.iframe && data.iframe.html;
  $("embed").hidden = typeof html !== "string";
  $("embed-html").textContent = typeof html === "string" ? html : "";

  const markdown = typeof data.markdown === "string" ? data.markdown : null;
  $("md").hidden = markdown === null;
  $("md-text").textContent = markdown || "";

  const rule = [...query.keys()].map((name) => /^data\.([^.]+)\./.exec(name)).find(Boolean);
  showCustom(data, rule ? rule[1] : null);
}

/** Nothing of an earlier answer may stay on screen after a failure. */
function hideAnswer() {
  for (const id of ["card", "shot", "pdf-row", "custom", "embed", "md"]) $(id).hidden = true;
}

function setStatus(message, isError) {
  $("status").textContent = message;
  $("status").classList.toggle("error", Boolean(isError));
}

async function peek() {
  const url = $("url").value.trim();
  if (!url) return;
  const key = $("apiKey").value;
  const query = queryFor(url);
  // The address bar holds the query (never the key), so a result can be shared and reloaded.
  history.replaceState(null, "", `#${query}`);
  $("curl").textContent = curlSnippet(query, Boolean(key));
  $("mql").textContent = mqlSnippet(query, Boolean(key));
  $("submit").disabled = true;
  setStatus("Loading…");
  const started = performance.now();
  try {
    const headers = { accept: "application/json" };
    if (key) headers["x-api-key"] = key;
    const response = await fetch(`/?${query}`, { headers, cache: "no-store" });
    const body = await response.json();
    const ms = Math.round(performance.now() - started);
    $("json").textContent = JSON.stringify(body, null, 2);
    $("result").hidden = false;
    if (body.status === "success") {
      showCard(body.data || {}, query);
      $("card").hidden = false;
      const cache = response.headers.get("x-cache-status") || "";
      setStatus(`${response.status} · ${ms} ms · cache ${cache}`.trim());
    } else {
      hideAnswer();
      setStatus(`${text(body.code)}: ${text(body.message)}`, true);
    }
  } catch (error) {
    hideAnswer();
    setStatus(`Request failed: ${error && error.message ? error.message : error}`, true);
  } finally {
    $("submit").disabled = false;
  }
}

/** Runs the query held in the address bar's fragment, if it names a url. */
function runShared() {
  const shared = new URLSearchParams(location.hash.slice(1));
  if (!shared.get("url")) return;
  applyQuery(shared);
  peek();
}

async function copy(event) {
  const target = $(event.currentTarget.dataset.target);
  try {
    await navigator.clipboard.writeText(target.textContent);
    event.currentTarget.textContent = "Copied";
  } catch {
    // Clipboard refused (insecure origin): select the text for a manual copy.
    getSelection().selectAllChildren(target);
  }
}

document.addEventListener("DOMContentLoaded", () => {
  $("query").addEventListener("submit", (event) => {
    event.preventDefault();
    peek();
  });
  for (const button of document.querySelectorAll(".copy")) button.addEventListener("click", copy);
  // A shared or reloaded address runs its query again, and so does one pasted over this one
  // (replaceState, used after each run, fires no hashchange).
  runShared();
  addEventListener("hashchange", runShared);
});
