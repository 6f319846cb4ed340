import { COLUMN_GAP, NODE_HEIGHT, NODE_SPACING } from './layoutOptions';
import type { ViewGraph } from './viewModel';

/**
 * Columns that wrap: a level with many nodes would make the drawing many times taller than the panel
 * (a column of 94 units is 5,400 px tall), so its nodes are laid out in several columns side by side,
 * within the level's band, until the drawing has about the panel's shape. Each step wraps the tallest
 * column once more, as long as that lets the whole drawing be shown larger.
 *
 * An edge leaves a node to the left, towards what it depends on, and so passes the columns of its own
 * level that lie left of it; an edge from a reader passes those right of it. elkjs gives each passing
 * edge a few pixels of the column's height, so a column's share of the level's nodes is smaller the
 * more edges pass it.
 */
export interface WrapColumn {
  /** How many nodes it holds. */
  count: number;
  /** Edges per node, on average, to the columns on its left (dependencies) and from those on its right (dependents). */
  left: number;
  right: number;
  /** Must stay one column (its nodes have edges between them: a cycle's arcs). */
  fixed: boolean;
}

export interface WrapInput {
  columns: readonly WrapColumn[];
  nodeWidth: number;
  /** The panel's drawing area; none (0 × 0) before it is known: nothing wraps. */
  panel: { width: number; height: number };
}

/** What the drawing keeps around its nodes on each side: the level bands' margin and the room beyond (`render.ts`). */
const DRAWING_MARGIN = 48;
/** The height an edge passing a column takes there, in node heights (elkjs's edge spacing over a node's row). */
const PASSING_EDGE = 8 / (NODE_HEIGHT + NODE_SPACING);

/** How many of each column's nodes go in each of the columns it wraps into, left to right ([n]: not wrapped). */
export function wrapColumns({ columns, nodeWidth, panel }: WrapInput): number[][] {
  let wraps = columns.map((column) => [column.count]);
  if (panel.width <= 0 || panel.height <= 0) return wraps;
  let best = drawnZoom(columns, wraps, nodeWidth, panel);
  for (;;) {
    const tallest = tallestColumn(columns, wraps);
    if (tallest < 0) return wraps;
    const next = wraps.map((sizes, i) => (i === tallest ? shares(columns[i]!, sizes.length + 1) : sizes));
    const zoom = drawnZoom(columns, next, nodeWidth, panel);
    if (zoom <= best) return wraps;
    best = zoom;
    wraps = next;
  }
}

/** The zoom at which the drawing fits the panel whole. */
export function drawnZoom(
  columns: readonly WrapColumn[],
  wraps: readonly number[][],
  nodeWidth: number,
  panel: { width: number; height: number },
): number {
  const count = wraps.reduce((sum, sizes) => sum + sizes.length, 0);
  const rows = Math.max(0, ...wraps.map((sizes, i) => wrappedRows(columns[i]!, sizes)));
  const width = count * nodeWidth + Math.max(0, count - 1) * COLUMN_GAP + 2 * DRAWING_MARGIN;
  const height = rows * (NODE_HEIGHT + NODE_SPACING) + 2 * DRAWING_MARGIN;
  return Math.min(panel.width / Math.max(width, 1), panel.height / Math.max(height, 1));
}

/** The rows of a column's tallest part: its nodes, and the edges of its level that pass it. */
function wrappedRows(column: WrapColumn, sizes: readonly number[]): number {
  return Math.max(...sizes.map((_, j) => partRows(column, sizes, j)));
}

function partRows(column: WrapColumn, sizes: readonly number[], j: number): number {
  const leftOf = sizes.slice(0, j).reduce((sum, size) => sum + size, 0);
  const rightOf = sizes.slice(j + 1).reduce((sum, size) => sum + size, 0);
  return sizes[j]! + PASSING_EDGE * (column.left * rightOf + column.right * leftOf);
}

/** A column's nodes shared among `parts` columns so that the tallest part is as short as it can be. */
function shares(column: WrapColumn, parts: number): number[] {
  const sizes = new Array<number>(parts).fill(0);
  for (let placed = 0; placed < column.count; placed++) {
    let best = 0;
    let bestRows = Number.POSITIVE_INFINITY;
    for (let j = 0; j < parts; j++) {
      sizes[j]!++;
      const rows = wrappedRows(column, sizes);
      sizes[j]!--;
      if (rows < bestRows) {
        bestRows = rows;
        best = j;
      }
    }
    sizes[best]!++;
  }
  return sizes;
}

/** The column with the most rows that may still wrap; -1 when none has two nodes to share. */
function tallestColumn(columns: readonly WrapColumn[], wraps: readonly number[][]): number {
  let tallest = -1;
  let rows = 1;
  wraps.forEach((sizes, i) => {
    const column = columns[i]!;
    const own = wrappedRows(column, sizes);
    if (!column.fixed && own > rows && sizes.length < column.count) {
      rows = own;
      tallest = i;
    }
  });
  return tallest;
}

/** Each column of the view as wrapping sees it: its nodes, their edges left and right, and whether it may wrap. */
export function wrapShape(view: ViewGraph): WrapColumn[] {
  const columns: WrapColumn[] = view.columns.map(() => ({ count: 0, left: 0, right: 0, fixed: false }));
  const columnOf = new Map(view.nodes.map((node) => [node.id, node.column]));
  for (const node of view.nodes) columns[node.column]!.count++;
  for (const edge of view.edges) {
    const [reader, writer] = [columnOf.get(edge.from)!, columnOf.get(edge.to)!];
    if (reader === writer) columns[reader]!.fixed = true;
    else {
      columns[reader]!.left++;
      columns[writer]!.right++;
    }
  }
  for (const column of columns) {
    column.left /= Math.max(1, column.count);
    column.right /= Math.max(1, column.count);
  }
  return columns;
}
