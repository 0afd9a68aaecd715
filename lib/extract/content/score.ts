/**
 * Candidate scoring, after Readability: every paragraph of running text (a <p>, a <pre>, a
 * cell, or a run of inline text and <br>s inside a <div>) scores for its commas and length,
 * and gives that score to its container, half to the next one up, less further up. Containers
 * start from their tag and class weight and end scaled by the share of their text outside
 * links. Returns the scores of every container that received any.
 */
import { type AnyNode, type Element, isTag, isText } from "domhandler";
import { spend } from "../dom/budget.ts";
import { walkElements } from "../dom/mod.ts";
import { classWeight, isUnlikely } from "./classes.ts";
import { BLOCKS, countText, linkDensity, type PageStats, SILENT } from "./stats.ts";

export interface Flags {
  /** Skip subtrees whose class or id names chrome. */
  stripUnlikely: boolean;
  /** Add class and id weights to the scores. */
  weightClasses: boolean;
}

/** Scored alone: their whole text is one paragraph. */
const PARAGRAPHS = new Set(["p", "pre", "td", "blockquote"]);
const MIN_PARAGRAPH = 25;
const LEVELS = 5;

/** Readability's start for a container by tag, plus its class weight. */
function initialScore(el: Element, flags: Flags): number {
  let score = flags.weightClasses ? classWeight(el) : 0;
  switch (el.name) {
    case "div":
    case "article":
    case "main":
      score += 5;
      break;
    case "pre":
    case "td":
    case "blockquote":
      score += 3;
      break;
    case "address":
    case "ol":
    case "ul":
    case "dl":
    case "dd":
    case "dt":
    case "li":
    case "form":
      score -= 3;
      break;
    case "h1":
    case "h2":
    case "h3":
    case "h4":
    case "h5":
    case "h6":
    case "th":
      score -= 5;
      break;
  }
  if (el.attribs.itemprop === "articleBody") score += 25;
  return score;
}

/** Readability's paragraph score: one, one per comma, one per 100 characters up to three. */
function scoreOf(length: number, commas: number): number {
  return 1 + commas + Math.min(Math.floor(length / 100), 3);
}

export type Scores = Map<Element, number>;

/** Scores, and whether the pass skipped any subtree as unlikely (else stripping changed nothing). */
export interface Scoring {
  scores: Scores;
  stripped: boolean;
}

/** Scores every container of `root`'s paragraphs; `skip` holds subtrees to leave out. */
export function scoreCandidates(root: Element, stats: PageStats, flags: Flags): Scoring {
  const scores: Scores = new Map();
  let stripped = false;
  // The inline runs of the element at hand, reused from element to element.
  const runs = new InlineRuns(stats);
  const give = (from: Element | null, score: number) => {
    let el = from;
    for (let level = 0; el && level < LEVELS; level++) {
      spend();
      const divider = level === 0 ? 1 : level === 1 ? 2 : level * 3;
      scores.set(el, (scores.get(el) ?? initialScore(el, flags)) + score / divider);
      el = parentElement(el);
    }
  };
  walkElements(root, (el) => {
    if (SILENT.has(el.name) || stats.hidden.has(el)) return false;
    if (flags.stripUnlikely && el.name !== "body" && el.name !== "a" && isUnlikely(el)) {
      stripped = true;
      return false;
    }
    const own = stats.of(el);
    // A paragraph's whole text is its own: its counted size and commas score it, no string
    // is built (the page's figures were counted once, in measure).
    if (PARAGRAPHS.has(el.name) && !own.hasBlock) {
      if (own.text >= MIN_PARAGRAPH) give(parentElement(el), scoreOf(own.text, own.commas));
      return false;
    }
    if (!own.hasBlock) {
      // Paragraphs written as text between <br>s: the block holding them is the candidate.
      if (BLOCKS.has(el.name) && el.children.some(isBr)) {
        runs.read(el);
        if (runs.count(MIN_PARAGRAPH) > 1) {
          for (let i = 0; i < runs.sizes.length; i += 2) {
            const text = runs.sizes[i]!;
            if (text >= MIN_PARAGRAPH) give(el, scoreOf(text, runs.sizes[i + 1]!));
          }
          return false;
        }
      }
      // A block of inline content only reads as one paragraph; an inline element was read
      // as part of its parent's run.
      if (own.text >= MIN_PARAGRAPH && BLOCKS.has(el.name)) {
        give(parentElement(el), scoreOf(own.text, own.commas));
      }
      return false;
    }
    runs.read(el);
    for (let i = 0; i < runs.sizes.length; i += 2) {
      const text = runs.sizes[i]!;
      if (text >= MIN_PARAGRAPH) give(el, scoreOf(text, runs.sizes[i + 1]!));
    }
    return true;
  });
  for (const [el, score] of scores) scores.set(el, score * (1 - linkDensity(stats.of(el))));
  return { scores, stripped };
}

const isBr = (node: AnyNode) => isTag(node) && node.name === "br";

/**
 * The size and commas of each inline run directly in an element (children up to a block child
 * or a <br>), from the page's counted figures: no run's text is built, and one InlineRuns reads
 * element after element into the same list.
 */
class InlineRuns {
  /** Of the element read last: each run's size then its commas, runs of no text left out. */
  readonly sizes: number[] = [];
  readonly #run = { text: 0, commas: 0 };

  constructor(readonly stats: PageStats) {}

  read(el: Element): void {
    this.sizes.length = 0;
    const run = this.#run;
    run.text = run.commas = 0;
    for (const child of el.children) {
      spend();
      if (isText(child)) countText(child.data, run, 0);
      else if (isTag(child)) {
        if (child.name === "br" || BLOCKS.has(child.name) || this.stats.of(child).hasBlock) {
          this.#close();
        } else if (!SILENT.has(child.name) && !this.stats.hidden.has(child)) {
          const own = this.stats.of(child);
          run.text += own.text;
          run.commas += own.commas;
        }
      }
    }
    this.#close();
  }

  /** Runs of at least `min` characters. */
  count(min: number): number {
    let n = 0;
    for (let i = 0; i < this.sizes.length; i += 2) if (this.sizes[i]! >= min) n++;
    return n;
  }

  #close(): void {
    const run = this.#run;
    if (run.text) this.sizes.push(run.text, run.commas);
    run.text = run.commas = 0;
  }
}

/** Visible text of inline nodes, whitespace collapsed. */
export function textOfInline(nodes: AnyNode[]): string {
  const parts: string[] = [];
  const stack = [...nodes].reverse();
  while (stack.length) {
    spend();
    const node = stack.pop()!;
    if (isText(node)) parts.push(node.data);
    else if (isTag(node)) {
      if (SILENT.has(node.name)) continue;
      if (node.name === "br") parts.push(" ");
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    }
  }
  return parts.join("").replace(/\s+/g, " ").trim();
}

export function parentElement(el: AnyNode): Element | null {
  const parent = el.parent;
  return parent && isTag(parent) ? parent : null;
}
