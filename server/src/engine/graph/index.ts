/** Graph algorithms on numbered nodes: the dependency graph, strongly connected components and cycles, levels, closures. */
export { closure } from './closure';
export {
  compareIds,
  coveringCycles,
  cyclePath,
  cyclesThroughEdges,
  cyclicComponents,
  MAX_CYCLES_PER_SET,
  stronglyConnectedComponents,
} from './cycles';
export { DependencyGraph } from './dependencyGraph';
export { levelLists, numberedLevels } from './levels';
export { cyclesAmong, type Dependencies, subgraph } from './subgraph';
