// The engine's graph algorithms: pure computation on ids, the same strongly connected sets the analysis finds.
import { DependencyGraph, stronglyConnectedComponents } from '../../server/src/engine/graph';

/**
 * The column each drawn node goes in. Unfolded, a module's column is its execution level; a module in a
 * cycle, or one that waits for one, has no level (README: levels) and goes after every level
 * (`modulePlaces.ts`). A folded folder stands for modules of several levels, so
 * its column is computed on the drawn graph: after the columns of everything it depends on, and not
 * before the first place among its modules; a module keeps its place unless something folded it depends
 * on pushes it further right. Nodes that depend on each other through folds (a strongly connected set
 * of the drawn graph) share a column, as the modules of a cycle do. So an edge never runs from left to
 * right.
 */
export interface ColumnNode {
  id: string;
  /** The first place (`modulePlaces.ts`) among the modules it stands for. */
  place: number;
  /** The execution levels among its modules that have one; null when none has. */
  levels: LevelSpan | null;
  /** It holds a module in a cycle, or one that waits for a cycle: modules with no level. */
  inCycle: boolean;
  waitsForCycle: boolean;
}

/** The lowest and highest execution level among some modules. */
export interface LevelSpan {
  first: number;
  last: number;
}

/** What a column holds: the execution levels drawn in it, and whether modules with no level are. */
export interface ColumnSpan {
  levels: LevelSpan | null;
  inCycle: boolean;
  waitsForCycle: boolean;
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
  const wanted = folded ? foldedColumns(nodes, edges) : new Map(nodes.map((node) => [node.id, node.place]));
  // Columns with nothing in them are left out: the ranks of the values used.
  const ranks = [...new Set(wanted.values())].sort((a, b) => a - b);
  const rank = new Map(ranks.map((value, index) => [value, index]));
  const column = new Map<string, number>();
  const spans: ColumnSpan[] = ranks.map(() => ({ levels: null, inCycle: false, waitsForCycle: false }));
  for (const node of nodes) {
    const at = rank.get(wanted.get(node.id)!)!;
    column.set(node.id, at);
    const span = spans[at]!;
    span.levels = joinedLevels(span.levels, node.levels);
    span.inCycle ||= node.inCycle;
    span.waitsForCycle ||= node.waitsForCycle;
  }
  return { column, spans };
}

/** The levels of both; null when neither has any. */
export function joinedLevels(a: LevelSpan | null, b: LevelSpan | null): LevelSpan | null {
  if (!a || !b) return a ?? b;
  return { first: Math.min(a.first, b.first), last: Math.max(a.last, b.last) };
}

/** Longest paths over the strongly connected sets of the drawn graph, each at least its first place. */
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
  const place = new Map(nodes.map((node) => [node.id, node.place]));
  const columns = new Map<string, number>();
  // The engine's Tarjan gives the sets dependencies first.
  for (const set of sets) {
    let at = Math.max(...set.map((id) => place.get(id)!));
    for (const id of set) {
      for (const dependency of graph.dependencies(id)) {
        if (setOf.get(dependency) !== setOf.get(id)) at = Math.max(at, columns.get(dependency)! + 1);
      }
    }
    for (const id of set) columns.set(id, at);
  }
  return columns;
}

/** A heading over one or more columns side by side: `first` to `last`, the view's columns. */
export interface ColumnHeading {
  title: string;
  /** What a narrow heading shows: the numbers alone, a cycle's mark. */
  short: string;
  /** Over modules with no level only: `cycle` where some are in a cycle, `waits` where all wait for one. */
  noLevel: 'cycle' | 'waits' | null;
  first: number;
  last: number;
}

/**
 * The headings over the columns: one per column of levels; columns side by side with no level and the
 * same title under one (the modules in a cycle may take several columns, one cycle waiting for another).
 */
export function columnHeadings(spans: readonly ColumnSpan[]): ColumnHeading[] {
  const headings: ColumnHeading[] = [];
  spans.forEach((span, column) => {
    const title = columnTitle(span);
    const noLevel = span.levels ? null : span.inCycle ? 'cycle' : 'waits';
    const last = headings.at(-1);
    if (last && noLevel !== null && last.noLevel !== null && last.title === title && last.last === column - 1) {
      last.last = column;
      return;
    }
    headings.push({ title, short: columnTitle(span, true), noLevel, first: column, last: column });
  });
  return headings;
}

/**
 * A column's heading: `Level 3`, or `Levels 2–4` where folded nodes span several; `In a cycle`, `Waits
 * for a cycle` for modules with no level (`Levels 0–2 · in a cycle` where folded nodes hold both);
 * `short`, the numbers and a cycle's mark alone.
 */
export function columnTitle(span: ColumnSpan, short = false): string {
  const none = noLevelTitle(span, short);
  const levels = span.levels;
  if (!levels) return none;
  const numbers = levels.first === levels.last ? String(levels.first) : `${levels.first}–${levels.last}`;
  const title = short ? numbers : `${levels.first === levels.last ? 'Level' : 'Levels'} ${numbers}`;
  if (!none) return title;
  return short ? `${title} ${none}` : `${title} · ${none.toLowerCase()}`;
}

function noLevelTitle(span: ColumnSpan, short: boolean): string {
  if (short) return span.inCycle || span.waitsForCycle ? '↻' : '';
  if (span.inCycle && span.waitsForCycle) return 'In or behind a cycle';
  if (span.inCycle) return 'In a cycle';
  return span.waitsForCycle ? 'Waits for a cycle' : '';
}
