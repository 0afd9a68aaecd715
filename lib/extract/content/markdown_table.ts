/**
 * HTML tables as GFM tables: the first row (the <thead>'s, else the first) is the header, as
 * GFM requires one; colspan and rowspan keep the columns aligned (a spanned place is left
 * empty); cells holding paragraphs or line breaks are joined into one line. What a GFM table
 * cannot draw (nested tables, lists, headings, code in cells; one row or column; a grid too large)
 * is read as plain blocks instead: the layout tables of old pages, or the rare complex table.
 */
import { type Element, isTag } from "domhandler";
import { attr } from "../dom/mod.ts";
import { spend } from "../dom/budget.ts";

/** Past this many cells (columns x rows, padded) a table is read as plain blocks. */
const MAX_TABLE_CELLS = 100_000;
/** The most columns one cell may span, or rows it may reach down. */
const MAX_SPAN = 50;
const ALIGN = new Map([["left", ":---"], ["center", ":---:"], ["right", "---:"]]);
/** Content a GFM cell cannot hold. */
const NOT_IN_CELLS = new Set([
  "table",
  "ul",
  "ol",
  "dl",
  "pre",
  "blockquote",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "hr",
  "figure",
]);

export interface TableRender {
  /** A cell's content as one line of inline Markdown. */
  cellText: (cell: Element) => string;
  /** An element's content as plain blocks (the fallback). */
  blocks: (el: Element) => string[];
  /** The caption's Markdown. */
  caption: (caption: Element) => string;
}

/** The Markdown blocks of a <table>. */
export function tableBlocks(table: Element, render: TableRender): string[] {
  const rows = tableRows(table);
  const cells = rows.map((tr) =>
    tr.children.filter((c): c is Element => isTag(c) && (c.name === "td" || c.name === "th"))
  ).filter((row) => row.length);
  if (!cells.length) return [];
  if (cells.some((row) => row.some(holdsBlocks))) return render.blocks(table);
  const grid = layOut(cells, render);
  if (!grid) return render.blocks(table);
  const width = grid.reduce((widest, row) => Math.max(widest, row.length), 0);
  // One column or one row is a layout wrapper, not data to compare across.
  if (width < 2 || grid.length < 2) return render.blocks(table);
  const line = (row: string[]) =>
    `| ${[...row, ...Array<string>(width - row.length).fill("")].join(" | ")} |`;
  const head = cells[0]!;
  const align = Array.from({ length: width }, (_, i) => {
    const cell = head[i];
    const value = (cell && (attr(cell, "align") ??
      /text-align\s*:\s*(\w+)/i.exec(attr(cell, "style") ?? "")?.[1])) ?? "";
    return ALIGN.get(value.toLowerCase()) ?? "---";
  });
  const caption = table.children.find((c): c is Element => isTag(c) && c.name === "caption");
  const out = [line(grid[0]!), `| ${align.join(" | ")} |`, ...grid.slice(1).map(line)];
  return [caption ? render.caption(caption) : "", out.join("\n")];
}

/** Rows in reading order: the <thead>'s first, then the body's, the <tfoot>'s last. */
function tableRows(table: Element): Element[] {
  const head: Element[] = [];
  const body: Element[] = [];
  const foot: Element[] = [];
  for (const child of table.children) {
    if (!isTag(child)) continue;
    if (child.name === "tr") body.push(child);
    const into = child.name === "thead" ? head : child.name === "tfoot" ? foot : body;
    if (["thead", "tbody", "tfoot"].includes(child.name)) {
      for (const tr of child.children) if (isTag(tr) && tr.name === "tr") into.push(tr);
    }
  }
  return [...head, ...body, ...foot];
}

/** A cell holding what a one-line GFM cell cannot. */
function holdsBlocks(cell: Element): boolean {
  const stack: Element[] = [cell];
  while (stack.length) {
    spend();
    const el = stack.pop()!;
    for (const child of el.children) {
      if (!isTag(child)) continue;
      if (NOT_IN_CELLS.has(child.name)) return true;
      stack.push(child);
    }
  }
  return false;
}

/**
 * The grid of cell texts with spans laid out: a colspan fills the places to its right, a
 * rowspan the places below it, with empty cells. Null when the grid would be too large.
 */
function layOut(cells: Element[][], render: TableRender): string[][] | null {
  const grid: string[][] = [];
  /** Column -> rows still covered by a rowspan from above. */
  const covered: number[] = [];
  let size = 0;
  for (const row of cells) {
    const out: string[] = [];
    let column = 0;
    const skipCovered = () => {
      while ((covered[column] ?? 0) > 0) {
        covered[column]!--;
        out.push("");
        column++;
      }
    };
    for (const cell of row) {
      spend();
      skipCovered();
      const text = render.cellText(cell).replace(/\|/g, "\\|");
      const colspan = span(attr(cell, "colspan"));
      const rowspan = Math.min(span(attr(cell, "rowspan")), cells.length);
      for (let i = 0; i < colspan; i++) {
        out.push(i === 0 ? text : "");
        if (rowspan > 1) covered[column] = rowspan - 1;
        column++;
      }
    }
    // Rowspans reaching past this row's last cell still hold their places.
    while (column < covered.length) {
      if ((covered[column] ?? 0) > 0) skipCovered();
      else column++;
      while (out.length < column) out.push("");
    }
    size += out.length;
    if (size > MAX_TABLE_CELLS) return null;
    grid.push(out);
  }
  const width = grid.reduce((widest, row) => Math.max(widest, row.length), 0);
  return width * grid.length > MAX_TABLE_CELLS ? null : grid;
}

function span(value: string | null): number {
  const n = Number.parseInt(value ?? "1", 10);
  return Number.isFinite(n) && n > 1 ? Math.min(n, MAX_SPAN) : 1;
}
