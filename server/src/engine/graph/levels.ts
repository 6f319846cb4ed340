import { compareIds } from './cycles';
import type { DependencyGraph } from './dependencyGraph';

/**
 * Execution levels by Kahn's algorithm, by node number (`result[n]` is the level of node `n`):
 * level 0 holds the modules with no dependencies, level N the modules whose dependencies are all
 * on lower levels; modules in one level can run in parallel. Each cycle in `cyclic` is condensed
 * into one unit first, so all its members share one level, right above the highest level of their
 * dependencies outside the cycle. Undefined when the graph has a cycle that was not given: with no
 * cycles given this doubles as the cheap test for a DAG, so Tarjan's algorithm runs only when a
 * cycle exists.
 */
export function numberedLevels(graph: DependencyGraph, cyclic: readonly string[][]): Int32Array | undefined {
  const size = graph.size;
  if (cyclic.length === 0) {
    const lists: (readonly number[])[] = new Array(size);
    for (let n = 0; n < size; n++) lists[n] = graph.dependencyNumbers(n);
    // A module reading its own state is a cycle of one: it waits for itself and is never placed.
    return kahn(lists);
  }
  // Each cycle becomes one unit, numbered by its first member; the other members have no list.
  const unit = new Int32Array(size);
  for (let n = 0; n < size; n++) unit[n] = n;
  const given = new Uint8Array(size);
  for (const component of cyclic) {
    const representative = graph.numberOf(component[0]!)!;
    for (const member of component) {
      unit[graph.numberOf(member)!] = representative;
      given[graph.numberOf(member)!] = 1;
    }
  }
  const units: (number[] | undefined)[] = new Array(size);
  for (let n = 0; n < size; n++) if (unit[n] === n) units[n] = [];
  for (let n = 0; n < size; n++) {
    const from = unit[n]!;
    for (const dep of graph.dependencyNumbers(n)) {
      const to = unit[dep]!;
      if (to === from) {
        // Inside a given cycle; a module outside them reading its own state is a cycle not given.
        if (!given[n]) return undefined;
        continue;
      }
      if (!units[from]!.includes(to)) units[from]!.push(to);
    }
  }
  const levelOfUnit = kahn(units);
  if (!levelOfUnit) return undefined;
  for (let n = 0; n < size; n++) levelOfUnit[n] = levelOfUnit[unit[n]!]!;
  return levelOfUnit;
}

/**
 * Kahn's algorithm over numbered nodes, `dependencies[n]` listing what node n waits for
 * (undefined: not a node); the level of each node, or undefined when some could not be placed.
 * The reverse edges are laid out in two typed arrays: this runs after every edit, on graphs of
 * thousands of modules, where growing arrays cost more than the algorithm.
 */
function kahn(dependencies: readonly (readonly number[] | undefined)[]): Int32Array | undefined {
  const size = dependencies.length;
  const pending = new Int32Array(size);
  // The nodes waiting for n are `waiting[start[n] .. start[n + 1]]`.
  const start = new Int32Array(size + 1);
  let nodes = 0;
  for (let n = 0; n < size; n++) {
    const list = dependencies[n];
    if (!list) continue;
    nodes++;
    pending[n] = list.length;
    for (let i = 0; i < list.length; i++) start[list[i]! + 1]!++;
  }
  for (let n = 0; n < size; n++) start[n + 1]! += start[n]!;
  const waiting = new Int32Array(start[size]!);
  const fill = start.slice(0, size);
  for (let n = 0; n < size; n++) {
    const list = dependencies[n];
    if (list) for (let i = 0; i < list.length; i++) waiting[fill[list[i]!]!++] = n;
  }
  const level = new Int32Array(size);
  let placed = 0;
  let frontier: number[] = [];
  for (let n = 0; n < size; n++) if (dependencies[n] && pending[n] === 0) frontier.push(n);
  for (let depth = 0; frontier.length > 0; depth++) {
    const next: number[] = [];
    for (const n of frontier) {
      level[n] = depth;
      placed++;
      for (let w = start[n]!; w < start[n + 1]!; w++) if (--pending[waiting[w]!]! === 0) next.push(waiting[w]!);
    }
    frontier = next;
  }
  return placed === nodes ? level : undefined;
}

/** Levels by node number as lists, `result[n]` being the sorted ids on level n. */
export function levelLists(graph: DependencyGraph, levels: Int32Array): string[][] {
  const lists: string[][] = [];
  for (let n = 0; n < graph.size; n++) {
    lists[levels[n]!] ??= [];
    lists[levels[n]!]!.push(graph.idOf(n));
  }
  return Array.from(lists, (list) => (list ?? []).sort(compareIds));
}
