import { cyclePath, cyclicComponents } from './cycles';
import { DependencyGraph } from './dependencyGraph';

/** What a subgraph reads of a graph: a node's direct dependencies (`DependencyGraph` fits). */
export interface Dependencies {
  dependencies(id: string): Iterable<string>;
}

/** The graph restricted to `nodes`: their edges among themselves (a dependency outside them is dropped). */
export function subgraph(graph: Dependencies, nodes: readonly string[]): DependencyGraph {
  const inside = new Set(nodes);
  const induced = new DependencyGraph(nodes);
  for (const id of nodes) for (const dep of graph.dependencies(id)) if (inside.has(dep)) induced.addEdge(id, dep);
  return induced;
}

/**
 * The cycles among `nodes` alone, one closed path per strongly connected set: what a run or a pipeline of those
 * nodes cannot order. A cycle of the graph with a node outside them is not one of theirs (that node is not run).
 */
export function cyclesAmong(graph: Dependencies, nodes: readonly string[]): string[][] {
  const induced = subgraph(graph, nodes);
  return cyclicComponents(induced).map((component) => cyclePath(induced, component));
}
