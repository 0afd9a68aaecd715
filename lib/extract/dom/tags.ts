/**
 * Element names that both the parser and the DOM's readers ask about. A leaf module: the DOM
 * module imports the parser, so the parser cannot import these from there.
 */

/** The heading elements, h1 to h6. */
export const HEADING_TAGS: ReadonlySet<string> = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);
