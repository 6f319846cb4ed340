import type { DependencyGraph } from './dependencyGraph';

export type Direction = 'upstream' | 'downstream';

/**
 * The given modules plus everything they reach: `upstream` follows dependencies (what must run
 * before them), `downstream` follows dependents (what a change to them affects).
 */
export function closure(graph: DependencyGraph, start: Iterable<string>, direction: Direction): Set<string> {
  const seen = new Set<string>();
  const stack = [...start].filter((node) => graph.has(node));
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    const next = direction === 'upstream' ? graph.dependencies(node) : graph.dependents(node);
    for (const other of next) if (!seen.has(other)) stack.push(other);
  }
  return seen;
}
