// linkpeek playground: builds the query, calls the API on this origin, shows the answer.
// Payload text is written with textContent only; links and images accept only http(s) URLs;
// the API key lives in the input field and is never stored.
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

/** The options as API query parameters, defaults left out. */
function queryFor(url) {
  const query = new URLSearchParams({ url });
  if ($("screenshot").checked) query.set("screenshot", "true");
  if ($("prerender").value !== "auto") query.set("prerender", $("prerender").value);
  if (!$("ping").checked) query.set("ping", "false");
  if (!$("meta").checked) query.set("meta", "false");
  if ($("palette").checked) query.set("palette", "true");
  if ($("markdown").checked) query.set("markdown", "true");
  return query;
}

function shellQuote(text) {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function curlSnippet(query, withKey) {
  const lines = [`curl -G ${shellQuote(location.origin + "/")}`];
  for (const [name, value] of query) {
    const flag = name === "url" ? "--data-urlencode" : "-d";
    lines.push(`  ${flag} ${shellQuote(`${name}=${value}`)}`);
  }
  if (withKey) lines.push(`  -H "x-api-key: $LINKPEEK_API_KEY"`);
  return lines.join(" \\\n");
}

function mqlSnippet(query, withKey) {
  const options = [`  endpoint: ${JSON.stringify(location.origin + "/")},`];
  for (const [name, value] of query) {
    if (name === "url") continue;
    const literal = value === "true" || value === "false" ? value : JSON.stringify(value);
    options.push(`  ${name}: ${literal},`);
  }
  if (withKey) options.push("  apiKey: process.env.LINKPEEK_API_KEY,");
  return [
    'import mql from "@microlink/mql";',
    "",
    `const { data } = await mql(${JSON.stringify(query.get("url"))}, {`,
    ...options,
    "});",
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

function showCard(data) {
  const link = $("card-title");
  link.textContent = text(data.title) || text(data.url) || "(no title)";
  const href = safeUrl(data.url);
  if (href) link.href = href;
  else link.removeAttribute("href");
  $("card-description").textContent = text(data.description);
  $("card-publisher").textContent = text(data.publisher);
  $("card-meta").textContent = [data.author, data.date, data.lang].map(text).filter(Boolean)
    .join(" · ");
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

  const html = data.iframe && data.iframe.html;
  $("embed").hidden = typeof html !== "string";
  $("embed-html").textContent = typeof html === "string" ? html : "";
}

function setStatus(message, isError) {
  $("status").textContent = message;
  $("status").classList.toggle("error", Boolean(isError));
}

async function peek(event) {
  event.preventDefault();
  const url = $("url").value.trim();
  if (!url) return;
  const key = $("apiKey").value;
  const query = queryFor(url);
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
      showCard(body.data || {});
      $("card").hidden = false;
      const cache = response.headers.get("x-cache-status") || "";
      setStatus(`${response.status} · ${ms} ms · cache ${cache}`.trim());
    } else {
      $("card").hidden = true;
      $("shot").hidden = true;
      $("embed").hidden = true;
      setStatus(`${text(body.code)}: ${text(body.message)}`, true);
    }
  } catch (error) {
    setStatus(`Request failed: ${error && error.message ? error.message : error}`, true);
  } finally {
    $("submit").disabled = false;
  }
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
  $("query").addEventListener("submit", peek);
  for (const button of document.querySelectorAll(".copy")) button.addEventListener("click", copy);
  const preset = new URLSearchParams(location.hash.slice(1)).get("url");
  if (preset) $("url").value = preset;
});
