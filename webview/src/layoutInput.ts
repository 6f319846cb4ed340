import { arrangeColumns, wrapShape } from './columnWrap';
import { turnBelow } from './firstView';
import type { Direction, LayoutInput } from './layoutGraph';
import type { ViewGraph } from './viewModel';

/** How a view's columns are laid out: how many of each column's nodes go in each part it wraps into, and which way. */
export interface Arrangement {
  wraps: number[][];
  direction: Direction;
}

/**
 * What the layout is asked for a view in a panel: its columns wrapped towards the panel's shape, left
 * to right, or top to bottom where that shows a small view larger (`turnBelow`).
 */
export function layoutInput(view: ViewGraph, nodeWidth: number, panel: { width: number; height: number }): LayoutInput {
  const { wraps, direction } = arrangeColumns({ columns: wrapShape(view), nodeWidth, panel }, turnBelow(view));
  return arrangedInput(view, nodeWidth, { wraps, direction });
}

/** Each column whole (not wrapped), one way: how a view is laid out in a panel that wraps none of its columns. */
export function unwrapped(view: ViewGraph, direction: Direction): Arrangement {
  const counts = view.columns.map(() => 0);
  for (const node of view.nodes) counts[node.column]!++;
  return { wraps: counts.map((count) => [count]), direction };
}

/**
 * Each node in its layout column: its view column, or one of the columns a tall one wraps into
 * (`columnWrap.ts`), filled in the order of the nodes' ids, so that a folder's modules stay together.
 * With a group expanded, every group gets a band of its own: the expanded ones are boxed.
 */
export function arrangedInput(view: ViewGraph, nodeWidth: number, { wraps, direction }: Arrangement): LayoutInput {
  const first = wraps.map((_, i) => wraps.slice(0, i).reduce((sum, sizes) => sum + sizes.length, 0));
  const levelColumn = wraps.flatMap((sizes, column) => sizes.map(() => column));
  // Each node's part of its column: the parts' sizes, filled in the order of the nodes' ids.
  const part = new Map<string, number>();
  const byColumn = view.columns.map(() => [] as string[]);
  for (const node of view.nodes) byColumn[node.column]!.push(node.id);
  byColumn.forEach((ids, column) => {
    let at = 0;
    wraps[column]!.forEach((size, j) => {
      for (const id of ids.sort().slice(at, at + size)) part.set(id, j);
      at += size;
    });
  });
  const banded = view.nodes.some((node) => node.kind === 'module' && node.group !== null);
  return {
    nodes: view.nodes.map((node) => ({
      id: node.id,
      column: first[node.column]! + part.get(node.id)!,
      ...(banded && node.group !== null ? { band: node.group } : {}),
    })),
    edges: view.edges.map((edge) => ({ id: edge.id, from: edge.from, to: edge.to })),
    nodeWidth,
    levelColumn,
    direction,
  };
}
