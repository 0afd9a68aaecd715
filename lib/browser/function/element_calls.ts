/**
 * The narrow ElementHandle a sandboxed `function` gets from page.$ and page.$$: a number in the
 * sandbox, the real handle here (ElementTable). The user-like actions (click, hover, focus,
 * type, press), caller code run with the element as its first argument (evaluate, $eval,
 * $$eval), a property's JSON value (getProperty, as `jsonValue()` reads it), boundingBox and
 * dispose. Caller code reaches the element through a page global under a random name, set by
 * linkpeek's own function and removed by the first read: caller code is never compiled here.
 */
import type { ElementHandle, KeyInput, Page } from "puppeteer-core";
import { toBase64Url } from "../../util/base64url.ts";
import {
  type Args,
  callee,
  CLICK,
  type Handler,
  inPage,
  integer,
  MAX_TEXT,
  options,
  selector,
  text,
} from "./call_args.ts";

/** Runs `expression` (which reads `element` and `args`) in the page, for `handle`'s element. */
async function withElement(
  page: Page,
  handle: ElementHandle,
  expression: string,
  args: Args,
): Promise<unknown> {
  const slot = `__linkpeek_element_${toBase64Url(crypto.getRandomValues(new Uint8Array(12)))}`;
  await handle.evaluate((element, name) => {
    (globalThis as unknown as Record<string, unknown>)[name] = element;
  }, slot);
  const key = JSON.stringify(slot);
  return await inPage(
    page,
    `(() => { const element = globalThis[${key}]; delete globalThis[${key}];
  return ${expression}; })()`,
    args,
  );
}

/** A property's name: a plain identifier-like string, read as `element[name]`. */
const property = (value: unknown) => text(value, "The property name", 100);

export const ELEMENT_HANDLERS: Record<string, Handler> = {
  "element.click": async ([id, opts], { elements }) => {
    await elements.get(id).click(options(opts, CLICK));
    return null;
  },
  "element.hover": async ([id], { elements }) => (await elements.get(id).hover(), null),
  "element.focus": async ([id], { elements }) => (await elements.get(id).focus(), null),
  "element.type": async ([id, value, opts], { elements }) => {
    const o = options(opts, { delay: integer(0, 200) });
    await elements.get(id).type(text(value, "The text", MAX_TEXT), o);
    return null;
  },
  "element.press": async ([id, key, opts], { elements }) => {
    const o = options(opts, { delay: integer(0, 2000) });
    // puppeteer checks the key name against its own table.
    await elements.get(id).press(text(key, "The key", 40) as KeyInput, o);
    return null;
  },
  "element.evaluate": ([id, code, ...args], { page, elements }) =>
    withElement(page, elements.get(id), callee(code, "element, "), args),
  "element.$eval": ([id, sel, code, ...args], { page, elements }) =>
    withElement(
      page,
      elements.get(id),
      `(() => { const found = element.querySelector(${JSON.stringify(selector(sel))});
  if (!found) throw new Error("Error: failed to find element matching selector " +
    ${JSON.stringify(JSON.stringify(sel))});
  return ${callee(code, "found, ")}; })()`,
      args,
    ),
  "element.$$eval": ([id, sel, code, ...args], { page, elements }) =>
    withElement(
      page,
      elements.get(id),
      `(() => { const found = [...element.querySelectorAll(${JSON.stringify(selector(sel))})];
  return ${callee(code, "found, ")}; })()`,
      args,
    ),
  "element.getProperty": ([id, name], { page, elements }) =>
    withElement(page, elements.get(id), `element[${JSON.stringify(property(name))}]`, []),
  "element.boundingBox": ([id], { elements }) => elements.get(id).boundingBox(),
  "element.dispose": async ([id], { elements }) => (await elements.dispose(id), null),
};
