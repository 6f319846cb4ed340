/** Graph algorithms on numbered nodes: the dependency graph, strongly connected components and cycles, levels, closures. */
export { closure } from './closure';
export { compareIds, cyclePath, cyclicComponents, stronglyConnectedComponents } from './cycles';
export { DependencyGraph } from './dependencyGraph';
export { levelLists, numberedLevels } from './levels';
