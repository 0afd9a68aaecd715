/**
 * Web components (custom elements: a hyphen in the name) standing for the page's furniture:
 * `<pp-header>`, `<site-footer>`, `<main-nav>`, `<app-sidebar>`. Their names say what they are
 * as a standard tag would, and the rules for page furniture read them as that tag.
 */
import type { Element } from "domhandler";

/** The last word of a custom element's name, and the standard tag it stands for. */
const FURNITURE_WORDS = new Map([
  ["header", "header"],
  ["masthead", "header"],
  ["footer", "footer"],
  ["nav", "nav"],
  ["navbar", "nav"],
  ["navigation", "nav"],
  ["menu", "menu"],
  ["sidebar", "aside"],
]);

/** `el`'s tag, or for a custom element named as page furniture, the tag it stands for. */
export function furnitureTag(el: Element): string {
  const name = el.name;
  const dash = name.lastIndexOf("-");
  if (dash < 0) return name;
  return FURNITURE_WORDS.get(name.slice(dash + 1)) ?? name;
}
