// The engine's graph algorithms: pure computation on ids, the same strongly connected sets the analysis finds.
import { DependencyGraph, stronglyConnectedComponents } from '../../server/src/engine/graph';

/**
 * The column each drawn node goes in. Unfolded, a module's column is its execution level. A folded
 * folder stands for modules of several levels, so its column is computed on the drawn graph: after the
 * columns of everything it depends on, and not before the lowest level among its modules; a module
 * keeps its level unless something folded it depends on pushes it further right. Nodes that depend on
 * each other through folds (a strongly connected set of the drawn graph) share a column, as the
 * modules of a cycle do. So an edge never runs from left to right.
 */
export interface ColumnNode {
  id: string;
  /** The lowest and highest execution level among the modules it stands for. */
  level: number;
  lastLevel: number;
}

export interface ColumnSpan {
  /** The lowest and highest execution level drawn in the column. */
  first: number;
  last: number;
}

export interface Columns {
  column: Map<string, number>;
  spans: ColumnSpan[];
}

/** Edges from the reader to the writer (`from` depends on `to`); `folded` when a node stands for several modules. */
export function viewColumns(
  nodes: readonly ColumnNode[],
  edges: readonly { from: string; to: string }[],
  folded: boolean,
): Columns {
  const wanted = folded ? foldedColumns(nodes, edges) : new Map(nodes.map((node) => [node.id, node.level]));
  // Columns with nothing in them are left out: the ranks of the values used.
  const ranks = [...new Set(wanted.values())].sort((a, b) => a - b);
  const rank = new Map(ranks.map((value, index) => [value, index]));
  const column = new Map<string, number>();
  const spans: ColumnSpan[] = ranks.map(() => ({ first: Number.POSITIVE_INFINITY, last: Number.NEGATIVE_INFINITY }));
  for (const node of nodes) {
    const at = rank.get(wanted.get(node.id)!)!;
    column.set(node.id, at);
    spans[at]!.first = Math.min(spans[at]!.first, node.level);
    spans[at]!.last = Math.max(spans[at]!.last, node.lastLevel);
  }
  return { column, spans };
}

/** Longest paths over the strongly connected sets of the drawn graph, each at least its lowest level. */
function foldedColumns(
  nodes: readonly ColumnNode[],
  edges: readonly { from: string; to: string }[],
): Map<string, number> {
  const graph = new DependencyGraph(nodes.map((node) => node.id));
  for (const edge of edges) if (edge.from !== edge.to) graph.addEdge(edge.from, edge.to);
  const sets = stronglyConnectedComponents(graph);
  const setOf = new Map<string, number>();
  sets.forEach((set, index) => {
    for (const id of set) setOf.set(id, index);
  });
  const level = new Map(nodes.map((node) => [node.id, node.level]));
  const columns = new Map<string, number>();
  // The engine's Tarjan gives the sets dependencies first.
  for (const set of sets) {
    let at = Math.max(...set.map((id) => level.get(id)!));
    for (const id of set) {
      for (const dependency of graph.dependencies(id)) {
        if (setOf.get(dependency) !== setOf.get(id)) at = Math.max(at, columns.get(dependency)! + 1);
      }
    }
    for (const id of set) columns.set(id, at);
  }
  return columns;
}

/** A column's heading: `Level 3`, or `Levels 2–4` where folded nodes span several; `short`, the numbers alone. */
export function columnTitle(span: ColumnSpan, short = false): string {
  const numbers = span.first === span.last ? String(span.first) : `${span.first}–${span.last}`;
  if (short) return numbers;
  return `${span.first === span.last ? 'Level' : 'Levels'} ${numbers}`;
}
