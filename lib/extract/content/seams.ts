/**
 * Where two sibling elements meet with no text between them, whether a reader sees two words.
 * A page's styles lay such elements apart (a specs row's "Publisher" and "Houghton Mifflin",
 * a product card's brand and name), yet the markup alone would glue their words into one.
 */

/** A lower-case letter or digit before a capital, a lower-case letter or digit before a digit. */
const NEW_WORD = /^(?:\p{Ll}[\p{Lu}\p{Nd}]|\p{Nd}[\p{Lu}\p{Nd}])$/u;

/**
 * Whether the seam between a piece ending in `before` and one starting with `after` (one
 * character each) starts a new word: the case changes as only a new word's start does, or a
 * number follows a word or another number (a year, then a running time: "1994", "2h 22m"). A
 * word split for styling (a drop cap, a highlighted stem) keeps its case and stays whole.
 */
export function startsNewWord(before: string, after: string): boolean {
  return NEW_WORD.test(before + after);
}

/** Inline tags whose text belongs to the word before it (x², H₂O): never a seam. */
export const ATTACHED: ReadonlySet<string> = new Set(["sup", "sub"]);
