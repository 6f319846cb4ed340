import type { GraphModel, PanelProblem } from '../../server/src/protocol';

// The page's questions answered as the host answers them through the server (`panelDetails.ts`), here from the
// graph model the test posted: the webview tier runs the page alone, without a host or a server.

/** The address of a module's state, as a hover card shows it; null without a backend. */
export function moduleAddress(graph: GraphModel, id: string): string | null {
  return graph.modules.find((module) => module.id === id)?.backend?.address ?? null;
}

/** The first `limit` unresolved and ambiguous references of `modules`, each module's unresolved then ambiguous. */
export function problemTexts(graph: GraphModel, modules: readonly string[], limit: number): PanelProblem[] {
  const problems = (kind: PanelProblem['kind'], list: GraphModel['unresolved'], id: string): PanelProblem[] =>
    list.filter((item) => item.from === id).map(({ from, name, reason }) => ({ from, name, reason, kind }));
  return modules
    .flatMap((id) => [...problems('unresolved', graph.unresolved, id), ...problems('ambiguous', graph.ambiguous, id)])
    .slice(0, Math.max(0, limit));
}
