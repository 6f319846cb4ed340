/**
 * What the panel asks the layout worker to lay out, and what comes back. The worker runs
 * `elkLayout` (`elkLayout.ts`) on a `LayoutInput`; the panel draws the `Layout`.
 */

export interface LayoutInput {
  /**
   * Each node with its column: the rank of its level among the levels drawn. Nodes with a `band` (the
   * group of an expanded group's modules, or of a folded node) are laid out in a band of
   * rows per band, boxed (`groupBands.ts`).
   */
  nodes: { id: string; column: number; band?: string }[];
  /** Reader → writer, as in the graph model. */
  edges: { id: string; from: string; to: string }[];
  /** The layout drawn before: the new one keeps its nodes' places and its edges' order where it can. */
  previous?: Pick<Layout, 'nodes' | 'edges' | 'columns' | 'nodeWidth' | 'direction'>;
  /** Every node's width: wide enough for the longest title of the view (`NODE_WIDTH` at least, the default). */
  nodeWidth?: number;
  /** For each column, the view's column (the level band) it is part of: several where a tall one wraps. Default: itself. */
  levelColumn?: number[];
  /** Which way the columns follow each other (`columnWrap.ts`): left to right by default. */
  direction?: Direction;
}

/**
 * Left to right, each level a column; or top to bottom, each level a row, in a panel too narrow for
 * the levels side by side. Both are laid out the same way: a downward layout is the rightward one of
 * the nodes turned a quarter (`elkLayout.ts`), drawn transposed.
 */
export type Direction = 'right' | 'down';

export interface Point {
  x: number;
  y: number;
}

export interface Rect extends Point {
  width: number;
  height: number;
}

export interface Layout {
  /** Top-left corner of each node. */
  nodes: Record<string, Point>;
  /**
   * Each edge's route from the reader to the writer (the arrow's end). Edges between nodes of one
   * column (in a cycle) are not laid out: they have no entry and are drawn as arcs.
   */
  edges: Record<string, Point[]>;
  /** The box around each band's nodes (`groupBands.ts`), by band; none when the input had no bands. */
  bands: Record<string, Rect>;
  /** Where each column starts along the direction: its left x, or its top y going down. */
  columns: number[];
  /** For each column, the view's column (the level band) it is part of. */
  levelColumn: number[];
  /** Every node's width. */
  nodeWidth: number;
  direction: Direction;
  width: number;
  height: number;
  /** Milliseconds the layout took. */
  ms: number;
}

/** What makes two layouts the same: the nodes in their columns and bands, the edges, the width and the level bands. */
export function layoutKey(input: LayoutInput, shape = shapeKey(input)): string {
  return `${input.nodeWidth} ${shape}`;
}

/** `layoutKey` but the nodes' width: layouts of one shape differ only in how far apart their columns are. */
export function shapeKey(input: LayoutInput): string {
  const nodes = input.nodes.map((node) => `${node.id}@${node.column}:${node.band ?? ''}`).join('\n');
  return `${input.direction ?? 'right'}\n${input.levelColumn?.join(',') ?? ''}\n${nodes}\n\n${input.edges.map((edge) => edge.id).join('\n')}`;
}

/** A layout made for a view's shape before a page asked for it (`LayoutService.layoutAhead`). */
export interface AheadLayout {
  shape: string;
  layout: Layout;
}

/**
 * How much wider than a page measured its nodes a layout made ahead may draw them: a few pixels of a
 * 200–360 px box, where laying the view out again would cost the page its wait.
 */
const WIDER_BY_AT_MOST = 40;

/** A layout made ahead draws a page's view: its nodes are at least as wide as the page measured, and not much wider. */
export function fitsWidth(layout: Layout, input: LayoutInput): boolean {
  const measured = input.nodeWidth ?? layout.nodeWidth;
  return layout.nodeWidth >= measured && layout.nodeWidth <= measured + WIDER_BY_AT_MOST;
}
