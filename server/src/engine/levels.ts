import { compareIds } from './cycles';
import type { DependencyGraph } from './dependencyGraph';

/**
 * Execution levels by Kahn's algorithm: level 0 holds the modules with no dependencies, level N
 * the modules whose dependencies are all on lower levels; modules in one level can run in
 * parallel. A cycle is condensed into one unit first, so all its members share one level, right
 * above the highest level of their dependencies outside the cycle.
 */
export function executionLevels(graph: DependencyGraph, cyclic: readonly string[][]): Map<string, number> {
  const levels = levelsIfAcyclic(graph, cyclic);
  if (!levels) throw new Error('executionLevels: the graph has a cycle that was not given');
  return levels;
}

/**
 * The levels when every cycle of the graph is among `cyclic`; undefined when Kahn's algorithm
 * could not place every module, that is, when the graph has a cycle that was not given. With no
 * cycles given this doubles as the cheap test for a DAG, so Tarjan's algorithm runs only when a
 * cycle exists.
 */
export function levelsIfAcyclic(graph: DependencyGraph, cyclic: readonly string[][]): Map<string, number> | undefined {
  // Integer indices and typed arrays: this runs after every edit, on graphs of thousands of modules.
  const nodes = graph.nodes();
  const index = new Map<string, number>();
  for (let i = 0; i < nodes.length; i++) index.set(nodes[i]!, i);
  const unit = Int32Array.from(nodes, (_, i) => i);
  const given = new Uint8Array(nodes.length);
  for (const component of cyclic) {
    const representative = index.get(component[0]!)!;
    for (const member of component) {
      unit[index.get(member)!] = representative;
      given[index.get(member)!] = 1;
    }
  }
  let hiddenSelfLoop = false;
  const pending = new Int32Array(nodes.length);
  const dependents: number[][] = Array.from(nodes, () => []);
  // Edges between two units can repeat only when a unit is a cycle of several modules.
  const seen = cyclic.length > 0 ? new Set<number>() : undefined;
  nodes.forEach((node, i) => {
    const from = unit[i]!;
    for (const dep of graph.dependencies(node)) {
      const to = unit[index.get(dep)!]!;
      if (to === from) {
        // A module reading its own state is a cycle of one, which Kahn's algorithm cannot see.
        if (!given[i]) hiddenSelfLoop = true;
        continue;
      }
      if (seen) {
        const pair = from * nodes.length + to;
        if (seen.has(pair)) continue;
        seen.add(pair);
      }
      pending[from]!++;
      dependents[to]!.push(from);
    }
  });
  const levelOfUnit = new Int32Array(nodes.length);
  let units = 0;
  let placed = 0;
  let frontier: number[] = [];
  nodes.forEach((_, i) => {
    if (unit[i] !== i) return;
    units++;
    if (pending[i] === 0) frontier.push(i);
  });
  for (let level = 0; frontier.length > 0; level++) {
    const next: number[] = [];
    for (const u of frontier) {
      levelOfUnit[u] = level;
      placed++;
      for (const dependent of dependents[u]!) if (--pending[dependent]! === 0) next.push(dependent);
    }
    frontier = next;
  }
  if (placed < units || hiddenSelfLoop) return undefined;
  const levels = new Map<string, number>();
  for (let i = 0; i < nodes.length; i++) levels.set(nodes[i]!, levelOfUnit[unit[i]!]!);
  return levels;
}

/** `levels` as lists, `result[n]` being the sorted ids on level n. */
export function levelLists(levels: ReadonlyMap<string, number>): string[][] {
  const lists: string[][] = [];
  for (const [node, level] of levels) {
    lists[level] ??= [];
    lists[level].push(node);
  }
  return Array.from(lists, (list) => (list ?? []).sort(compareIds));
}
