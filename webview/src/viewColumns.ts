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
  const dependencies = new Map<string, string[]>(nodes.map((node) => [node.id, []]));
  for (const edge of edges) if (edge.from !== edge.to) dependencies.get(edge.from)?.push(edge.to);
  const sets = stronglyConnected(
    nodes.map((node) => node.id),
    dependencies,
  );
  const setOf = new Map<string, number>();
  sets.forEach((set, index) => {
    for (const id of set) setOf.set(id, index);
  });
  const level = new Map(nodes.map((node) => [node.id, node.level]));
  const columns = new Map<string, number>();
  // Tarjan's algorithm gives the sets dependencies first.
  for (const set of sets) {
    let at = Math.max(...set.map((id) => level.get(id)!));
    for (const id of set) {
      for (const dependency of dependencies.get(id)!) {
        if (setOf.get(dependency) !== setOf.get(id)) at = Math.max(at, columns.get(dependency)! + 1);
      }
    }
    for (const id of set) columns.set(id, at);
  }
  return columns;
}

/** Tarjan's strongly connected components, iteratively; each set comes after the sets it depends on. */
export function stronglyConnected(ids: readonly string[], next: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const sets: string[][] = [];
  let counter = 0;
  for (const start of ids) {
    if (index.has(start)) continue;
    const work: { id: string; child: number }[] = [{ id: start, child: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work.at(-1)!;
      const children = next.get(frame.id) ?? [];
      if (frame.child < children.length) {
        const child = children[frame.child++]!;
        if (!index.has(child)) {
          index.set(child, counter);
          low.set(child, counter++);
          stack.push(child);
          onStack.add(child);
          work.push({ id: child, child: 0 });
        } else if (onStack.has(child)) {
          low.set(frame.id, Math.min(low.get(frame.id)!, index.get(child)!));
        }
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) low.set(parent.id, Math.min(low.get(parent.id)!, low.get(frame.id)!));
      if (low.get(frame.id) === index.get(frame.id)) {
        const set: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          set.push(member);
        } while (member !== frame.id);
        sets.push(set);
      }
    }
  }
  return sets;
}

/** A column's heading: `Level 3`, or `Levels 2–4` where folded nodes span several; `short`, the numbers alone. */
export function columnTitle(span: ColumnSpan, short = false): string {
  const numbers = span.first === span.last ? String(span.first) : `${span.first}–${span.last}`;
  if (short) return numbers;
  return `${span.first === span.last ? 'Level' : 'Levels'} ${numbers}`;
}
