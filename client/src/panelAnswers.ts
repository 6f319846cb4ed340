import type { GraphModel, PanelProblem } from '../../server/src/protocol';

// What the panel's page asks the host about the modules it shows, answered from the folder's whole graph
// model (`PanelGraph.model()`): the page has only what it draws.

/** The address of a module's state, as a hover card shows it; null without a backend. */
export function moduleAddress(graph: GraphModel, id: string): string | null {
  return graph.modules.find((module) => module.id === id)?.backend?.address ?? null;
}

/**
 * The first `limit` unresolved and ambiguous references of `modules`, each module's unresolved then
 * ambiguous in turn, as the panel counted them: what a hover card lists.
 */
export function problemTexts(graph: GraphModel, modules: readonly string[], limit: number): PanelProblem[] {
  const wanted = new Set(modules);
  const byReader = new Map<string, PanelProblem[]>();
  for (const [kind, list] of [
    ['unresolved', graph.unresolved],
    ['ambiguous', graph.ambiguous],
  ] as const) {
    for (const { location: _location, ...problem } of list) {
      if (!wanted.has(problem.from)) continue;
      const found = byReader.get(problem.from) ?? [];
      found.push({ ...problem, kind });
      byReader.set(problem.from, found);
    }
  }
  return modules.flatMap((id) => byReader.get(id) ?? []).slice(0, Math.max(0, limit));
}
