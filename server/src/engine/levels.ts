import { compareIds } from './cycles';
import type { DependencyGraph } from './dependencyGraph';

/**
 * Execution levels by Kahn's algorithm: level 0 holds the modules with no dependencies, level N
 * the modules whose dependencies are all on lower levels; modules in one level can run in
 * parallel. A cycle is condensed into one unit first, so all its members share one level, right
 * above the highest level of their dependencies outside the cycle.
 */
export function executionLevels(graph: DependencyGraph, cyclic: readonly string[][]): Map<string, number> {
  const unitOf = new Map<string, string>();
  for (const component of cyclic) for (const member of component) unitOf.set(member, component[0]!);
  const unit = (node: string) => unitOf.get(node) ?? node;

  const members = new Map<string, string[]>();
  for (const node of graph.nodes()) {
    const u = unit(node);
    const list = members.get(u);
    if (list) list.push(node);
    else members.set(u, [node]);
  }

  const pending = new Map<string, number>();
  const dependents = new Map<string, Set<string>>();
  for (const [u, nodes] of members) {
    const deps = new Set<string>();
    for (const node of nodes) for (const dep of graph.dependencies(node)) if (unit(dep) !== u) deps.add(unit(dep));
    pending.set(u, deps.size);
    for (const dep of deps) {
      const set = dependents.get(dep);
      if (set) set.add(u);
      else dependents.set(dep, new Set([u]));
    }
  }

  const levelOfUnit = new Map<string, number>();
  let frontier = [...pending].filter(([, count]) => count === 0).map(([u]) => u);
  for (let level = 0; frontier.length > 0; level++) {
    const next: string[] = [];
    for (const u of frontier) {
      levelOfUnit.set(u, level);
      for (const dependent of dependents.get(u) ?? []) {
        const left = pending.get(dependent)! - 1;
        pending.set(dependent, left);
        if (left === 0) next.push(dependent);
      }
    }
    frontier = next;
  }

  const levels = new Map<string, number>();
  for (const [u, nodes] of members) for (const node of nodes) levels.set(node, levelOfUnit.get(u)!);
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
