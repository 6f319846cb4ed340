import type { EvaluatedModule, Reference } from '../workspace';
import type { MatchResult } from './match';

/**
 * The edges of a Terraform Stack's component, added to its matches (those of its module's remote-state
 * reads): one to each node its `inputs`, `providers`, `depends_on` or `for_each` refer to, in its Stack
 * or, through `upstream_input` and embedding `stack` blocks, in another (by name, not by state
 * address); each reference to a node the Stack does not have, unresolved (an error: the Stack would
 * not validate).
 */
export function withComponentEdges(module: EvaluatedModule, own: MatchResult): MatchResult {
  const component = module.component;
  if (!component) return own;
  const reference = (name: string, file: string, range: Reference['range']): Reference => ({
    name,
    file,
    range,
    headerRange: range,
    instance: null,
    backend: 'component',
    config: {},
    workspace: 'default',
    cwd: module.dir,
    block: 'component',
  });
  return {
    edges: [
      ...own.edges,
      ...component.edges.map((edge) => ({
        from: module.id,
        to: edge.to,
        reference: reference(edge.to.split('/').at(-1)!, edge.file, edge.range),
        // What the hover shows for the edge: the argument, and a local or provider in between.
        address: edge.through ? `${edge.via}, through ${edge.through}` : edge.via,
        matchedBy: 'component' as const,
        match: 'exact' as const,
        assumed: [],
        candidates: [edge.to],
        unknowns: [],
      })),
    ],
    unresolved: [
      ...own.unresolved,
      ...component.unknown.map((problem) => ({
        from: module.id,
        reference: reference(problem.address, problem.file, problem.range),
        reason: problem.message,
        address: undefined,
        writers: [],
        missingComponent: true,
      })),
    ],
    ambiguous: own.ambiguous,
  };
}
