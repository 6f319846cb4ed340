import type { Direction } from './layoutGraph';
import { type FlowSize, flowSize, NODE_SPACING } from './layoutOptions';
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
 *
 * Going down (`Direction`), the same holds turned a quarter: a level is a row, wrapping into rows
 * one under the other, and a node's extent along the rows is its width. All of it is reckoned in
 * the rightward layout's terms (`FlowBox`), the panel turned with it.
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

/** A node and the panel as the rightward layout sees them (`flowSize`): going down, turned a quarter. */
interface FlowBox extends FlowSize {
  /** The panel's drawing area, turned with the layout; none (0 × 0) before it is known: nothing wraps. */
  panel: { width: number; height: number };
}

function flowBox(direction: Direction, nodeWidth: number, panel: { width: number; height: number }): FlowBox {
  const turned = direction === 'down' ? { width: panel.height, height: panel.width } : panel;
  return { ...flowSize(direction, nodeWidth), panel: turned };
}

export interface WrapInput {
  columns: readonly WrapColumn[];
  nodeWidth: number;
  /** The panel's drawing area; none (0 × 0) before it is known: nothing wraps. */
  panel: { width: number; height: number };
}

/** What the drawing keeps around its nodes on each side: the level bands' margin and the room beyond (`render.ts`). */
const DRAWING_MARGIN = 48;
/** The extent an edge passing a column takes there (elkjs's edge spacing). */
const PASSING_EDGE = 8;

/** How many of each column's nodes go in each of the columns it wraps into, left to right ([n]: not wrapped). */
function wrapColumns(columns: readonly WrapColumn[], box: FlowBox): number[][] {
  let wraps = columns.map((column) => [column.count]);
  if (box.panel.width <= 0 || box.panel.height <= 0) return wraps;
  let best = drawnZoom(columns, wraps, box);
  for (;;) {
    const tallest = tallestColumn(columns, wraps, box);
    if (tallest < 0) return wraps;
    const next = wraps.map((sizes, i) => (i === tallest ? shares(columns[i]!, sizes.length + 1, box) : sizes));
    const zoom = drawnZoom(columns, next, box);
    if (zoom <= best) return wraps;
    best = zoom;
    wraps = next;
  }
}

/**
 * The columns' arrangement: rightward, wrapped towards the panel's shape; or downward when rightward
 * the whole drawing would be shown smaller than `turnBelow` and downward it is shown larger (a panel
 * beside an editor is tall: five levels of a few nodes each fit it as rows at about twice the size
 * they would as columns). `turnBelow` 0: never turned.
 */
export function arrangeColumns(
  { columns, nodeWidth, panel }: WrapInput,
  turnBelow: number,
): { direction: Direction; wraps: number[][]; zoom: number } {
  const arranged = (direction: Direction) => {
    const box = flowBox(direction, nodeWidth, panel);
    const wraps = wrapColumns(columns, box);
    return { direction, wraps, zoom: drawnZoom(columns, wraps, box) };
  };
  const right = arranged('right');
  if (right.zoom >= turnBelow || panel.width <= 0 || panel.height <= 0) return right;
  const down = arranged('down');
  return down.zoom > right.zoom ? down : right;
}

/** The zoom at which the drawing fits the panel whole. */
function drawnZoom(columns: readonly WrapColumn[], wraps: readonly number[][], box: FlowBox): number {
  const count = wraps.reduce((sum, sizes) => sum + sizes.length, 0);
  const rows = Math.max(0, ...wraps.map((sizes, i) => wrappedRows(columns[i]!, sizes, box)));
  const width = count * box.along + Math.max(0, count - 1) * box.gap + 2 * DRAWING_MARGIN;
  const height = rows * (box.across + NODE_SPACING) + 2 * DRAWING_MARGIN;
  return Math.min(box.panel.width / Math.max(width, 1), box.panel.height / Math.max(height, 1));
}

/** The rows of a column's tallest part: its nodes, and the edges of its level that pass it. */
function wrappedRows(column: WrapColumn, sizes: readonly number[], box: FlowBox): number {
  return Math.max(...partRows(column, sizes, box));
}

/** The rows of each part of a column: its nodes, and the edges of its level that pass it. */
function partRows(column: WrapColumn, sizes: readonly number[], box: FlowBox): number[] {
  const passing = PASSING_EDGE / (box.across + NODE_SPACING);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  let leftOf = 0;
  return sizes.map((size) => {
    const rightOf = total - leftOf - size;
    const rows = size + passing * (column.left * rightOf + column.right * leftOf);
    leftOf += size;
    return rows;
  });
}

/**
 * A column's nodes shared among `parts` columns so that the tallest part is as short as it can be: each
 * node goes where the tallest part grows least. A node added to part j adds a row to it, and an edge's
 * passing to each part on either side; with the tallest part on each side known, each choice is one step
 * (a level of 11,000 modules wraps into 47 columns in a quarter of a second, where trying each choice in
 * full would have taken hours).
 */
function shares(column: WrapColumn, parts: number, box: FlowBox): number[] {
  const sizes = new Array<number>(parts).fill(0);
  const passing = PASSING_EDGE / (box.across + NODE_SPACING);
  // Part j's rows grow by this much for each node added left of it, and right of it.
  const byLeft = passing * column.right;
  const byRight = passing * column.left;
  const tallestBefore = new Array<number>(parts + 1).fill(Number.NEGATIVE_INFINITY);
  const tallestAfter = new Array<number>(parts + 1).fill(Number.NEGATIVE_INFINITY);
  for (let placed = 0; placed < column.count; placed++) {
    const rows = partRows(column, sizes, box);
    for (let j = 0; j < parts; j++) tallestBefore[j + 1] = Math.max(tallestBefore[j]!, rows[j]!);
    for (let j = parts - 1; j >= 0; j--) tallestAfter[j] = Math.max(tallestAfter[j + 1]!, rows[j]!);
    let best = 0;
    let bestRows = Number.POSITIVE_INFINITY;
    for (let j = 0; j < parts; j++) {
      const tallest = Math.max(tallestBefore[j]! + byRight, rows[j]! + 1, tallestAfter[j + 1]! + byLeft);
      if (tallest < bestRows) {
        bestRows = tallest;
        best = j;
      }
    }
    sizes[best]!++;
  }
  return sizes;
}

/** The column with the most rows that may still wrap; -1 when none has two nodes to share. */
function tallestColumn(columns: readonly WrapColumn[], wraps: readonly number[][], box: FlowBox): number {
  let tallest = -1;
  let rows = 1;
  wraps.forEach((sizes, i) => {
    const column = columns[i]!;
    const own = wrappedRows(column, sizes, box);
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
