import { closure, compareIds, type DependencyGraph } from '../graph';

/** Which modules a run covers. */
export interface RunSelection {
  /** Module ids; undefined = every module. */
  modules?: readonly string[];
  /** Add everything the chosen modules depend on, transitively (what must be planned before them). */
  withDependencies?: boolean;
  /** Add everything that depends on the chosen modules, transitively (what a change to them affects). */
  withDependents?: boolean;
}

/** A module id that the workspace does not have. */
export class UnknownModuleError extends Error {}

/** The selected module ids, sorted. Throws `UnknownModuleError` for an id the graph does not have. */
export function selectModules(graph: DependencyGraph, selection: RunSelection = {}): string[] {
  if (selection.modules === undefined) return graph.nodes().sort(compareIds);
  const unknown = selection.modules.filter((id) => !graph.has(id));
  if (unknown.length > 0) {
    const known = graph.nodes().sort(compareIds);
    const hints = unknown.map((id) => {
      const near = known.filter((other) => other.endsWith(`/${id}`) || other.includes(id)).slice(0, 3);
      return near.length > 0 ? `'${id}' (did you mean ${near.map((n) => `'${n}'`).join(' or ')}?)` : `'${id}'`;
    });
    throw new UnknownModuleError(`no such module: ${hints.join(', ')}`);
  }
  const chosen = new Set(selection.modules);
  if (selection.withDependencies) for (const id of closure(graph, selection.modules, 'upstream')) chosen.add(id);
  if (selection.withDependents) for (const id of closure(graph, selection.modules, 'downstream')) chosen.add(id);
  return [...chosen].sort(compareIds);
}
