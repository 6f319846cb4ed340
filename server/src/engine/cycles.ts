import type { DependencyGraph } from './dependencyGraph';

/**
 * The components that are cycles: two or more nodes, or one node with a self-edge. Each
 * component's nodes are sorted, and the components by their first node.
 */
export function cyclicComponents(graph: DependencyGraph): string[][] {
  return stronglyConnectedComponents(graph)
    .filter((component) => component.length > 1 || graph.dependencies(component[0]!).has(component[0]!))
    .sort((a, b) => compareIds(a[0]!, b[0]!));
}

/**
 * Every strongly connected component by Tarjan's algorithm (iterative, so deep chains cannot
 * overflow the stack), dependencies first: the order in which they can be evaluated. Each
 * component's nodes are sorted.
 */
export function stronglyConnectedComponents(graph: DependencyGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;

  for (const start of graph.nodes()) {
    if (index.has(start)) continue;
    const work: { node: string; next: Iterator<string> }[] = [];
    const visit = (node: string) => {
      index.set(node, counter);
      low.set(node, counter);
      counter++;
      stack.push(node);
      onStack.add(node);
      work.push({ node, next: graph.dependencies(node)[Symbol.iterator]() });
    };
    visit(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const step = frame.next.next();
      if (!step.done) {
        const dep = step.value;
        if (!index.has(dep)) visit(dep);
        else if (onStack.has(dep)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(dep)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
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
  const start = component[0]!;
  if (graph.dependencies(start).has(start)) return [start, start];
  const members = new Set(component);
  const previous = new Map<string, string>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head]!;
    for (const dep of [...graph.dependencies(node)].sort(compareIds)) {
      if (!members.has(dep)) continue;
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
  return [...component, start];
}

/** Module ids compare by code unit, so the order is the same on every machine and locale. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
