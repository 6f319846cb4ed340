import type { DependencyGraph } from './dependencyGraph';

/**
 * The components that are cycles: two or more nodes, or one node with a self-edge. Each
 * component's nodes are sorted, and the components by their first node.
 */
export function cyclicComponents(graph: DependencyGraph): string[][] {
  return stronglyConnectedComponents(graph)
    .filter((component) => component.length > 1 || graph.dependencies(component[0]!).includes(component[0]!))
    .sort((a, b) => compareIds(a[0]!, b[0]!));
}

/**
 * Every strongly connected component by Tarjan's algorithm (iterative, so deep chains cannot
 * overflow the stack), dependencies first: the order in which they can be evaluated. Each
 * component's nodes are sorted.
 */
export function stronglyConnectedComponents(graph: DependencyGraph): string[][] {
  const size = graph.size;
  // -1: not visited yet.
  const index = new Int32Array(size).fill(-1);
  const low = new Int32Array(size);
  const onStack = new Uint8Array(size);
  const stack: number[] = [];
  const components: string[][] = [];
  let counter = 0;
  // The depth-first path: each node with the position of the next dependency to follow.
  const path: number[] = [];
  const next: number[] = [];

  const visit = (node: number): void => {
    index[node] = counter;
    low[node] = counter;
    counter++;
    stack.push(node);
    onStack[node] = 1;
    path.push(node);
    next.push(0);
  };
  for (let start = 0; start < size; start++) {
    if (index[start] !== -1) continue;
    visit(start);
    while (path.length > 0) {
      const top = path.length - 1;
      const node = path[top]!;
      const dependencies = graph.dependencyNumbers(node);
      if (next[top]! < dependencies.length) {
        const dep = dependencies[next[top]!++]!;
        if (index[dep] === -1) visit(dep);
        else if (onStack[dep]) low[node] = Math.min(low[node]!, index[dep]!);
        continue;
      }
      path.pop();
      next.pop();
      if (path.length > 0) {
        const parent = path[path.length - 1]!;
        low[parent] = Math.min(low[parent]!, low[node]!);
      }
      if (low[node] === index[node]) {
        const component: string[] = [];
        let member: number;
        do {
          member = stack.pop()!;
          onStack[member] = 0;
          component.push(graph.idOf(member));
        } while (member !== node);
        components.push(component.sort(compareIds));
      }
    }
  }
  return components;
}

/**
 * One closed path through a cyclic component, starting at its smallest id and following edges
 * (reader → writer): `["a", "b", "c", "a"]`, or `["x", "x"]` for a self-reference. The path is
 * the shortest way back to the start, found by breadth-first search inside the component, so
 * the message stays stable and short even for a component with many cycles.
 */
export function cyclePath(graph: DependencyGraph, component: readonly string[]): string[] {
  return shortestCycleThrough(graph, new Set(component), component[0]!) ?? [...component, component[0]!];
}

/**
 * How many cycles `coveringCycles` lists for one strongly connected set: enough to show how its
 * modules close on each other; a set of a thousand modules around one hub would need five hundred.
 */
export const MAX_CYCLES_PER_SET = 10;

/**
 * Cycles through a cyclic component that together pass through each of its modules, shortest
 * first from its smallest uncovered id, at most `MAX_CYCLES_PER_SET`: `a -> b -> c -> a` and
 * `a -> c -> a` name every module of {a, b, c} where the shortest cycle alone leaves `b` out.
 */
export function coveringCycles(graph: DependencyGraph, component: readonly string[]): string[][] {
  const members = new Set(component);
  const covered = new Set<string>();
  const cycles: string[][] = [];
  for (const start of component) {
    if (cycles.length >= MAX_CYCLES_PER_SET) break;
    if (covered.has(start)) continue;
    // Round the others first: a set where every module also reads itself would list only self-reads.
    const cycle = shortestCycleThrough(graph, members, start, false);
    if (!cycle) continue;
    cycles.push(cycle);
    for (const id of cycle) covered.add(id);
  }
  return cycles;
}

/**
 * The shortest closed path from `start` back to it inside `members`, by breadth-first search. With
 * `selfReads` false, a module reading its own state is not a path, unless the set is that module alone.
 */
function shortestCycleThrough(
  graph: DependencyGraph,
  members: ReadonlySet<string>,
  start: string,
  selfReads = true,
): string[] | undefined {
  const readsItself = graph.dependencies(start).includes(start);
  if (readsItself && (selfReads || members.size === 1)) return [start, start];
  const previous = new Map<string, string>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head]!;
    for (const dep of [...graph.dependencies(node)].sort(compareIds)) {
      if (!members.has(dep) || dep === node) continue;
      if (dep === start) {
        const path = [start];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = previous.get(at)) path.push(at);
        return [start, ...path.slice(1).reverse(), start];
      }
      if (!previous.has(dep)) {
        previous.set(dep, node);
        queue.push(dep);
      }
    }
  }
  return undefined;
}

/**
 * A closed path through each edge of a cyclic component (`from` reads `to`, both in it): the edge, then
 * back from `to` to `from` through the component's first module, by one breadth-first search from it and
 * one towards it for the whole component (not one an edge: a set of thousands of modules has tens of
 * thousands of edges), any loop of that way back cut out, so that no module is on the path twice.
 */
export function cyclesThroughEdges(
  graph: DependencyGraph,
  component: readonly string[],
): (from: string, to: string) => string[] {
  const members = new Set(component);
  const hub = component[0]!;
  // The next module on a shortest way from each module to the hub, and the one before it on the hub's way to it.
  const towardHub = searchFrom(hub, (node) => graph.dependents(node), members);
  const fromHub = searchFrom(hub, (node) => graph.dependencies(node), members);
  return (from, to) => {
    if (from === to) return [from, from];
    const back: string[] = [];
    for (let at: string | undefined = to; at !== undefined && at !== hub; at = towardHub.get(at)) back.push(at);
    const out: string[] = [];
    for (let at: string | undefined = from; at !== undefined && at !== hub; at = fromHub.get(at)) out.push(at);
    return [from, ...withoutLoops([...back, hub, ...out.reverse()], from)];
  };
}

/** For each module `step` reaches from `start` inside `members`, the module it was first reached from. */
function searchFrom(
  start: string,
  step: (node: string) => readonly string[],
  members: ReadonlySet<string>,
): Map<string, string> {
  const reachedFrom = new Map<string, string>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head]!;
    for (const next of step(node)) {
      if (!members.has(next) || next === start || reachedFrom.has(next)) continue;
      reachedFrom.set(next, node);
      queue.push(next);
    }
  }
  return reachedFrom;
}

/** A walk made a path: from a module met again, on from its first meeting; it ends at the first `end`. */
function withoutLoops(walk: readonly string[], end: string): string[] {
  const path: string[] = [];
  const at = new Map<string, number>();
  for (const node of walk) {
    const seen = at.get(node);
    if (seen !== undefined) {
      for (const dropped of path.splice(seen + 1)) at.delete(dropped);
    } else {
      at.set(node, path.length);
      path.push(node);
    }
    if (node === end) break;
  }
  return path;
}

/** Module ids compare by code unit, so the order is the same on every machine and locale. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
