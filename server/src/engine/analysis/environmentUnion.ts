import type { MatchedEdge, MatchResult, UnmatchedReference } from '../state';
import { referenceKey } from '../workspace';

/** One module's matches when evaluated in one environment (its variables, tfvars and workspace). */
export interface EnvironmentMatches {
  environment: string;
  matches: MatchResult;
}

/**
 * "All environments" is the union of them: a reference that finds no writer without an environment
 * (its variables have no default) but does in some environments depends on each writer it finds
 * there — `inferred` when every such environment names one writer, `ambiguous` when they name
 * several (running after all of them is safe). The edge says which environments gave it. What
 * resolves without an environment is left as it is.
 */
export function unionOverEnvironments(base: MatchResult, perEnvironment: readonly EnvironmentMatches[]): MatchResult {
  if (base.unresolved.length === 0 || perEnvironment.length === 0) return base;
  const found = new Map<
    string,
    { item: UnmatchedReference; writers: Map<string, { edge: MatchedEdge; in: string[] }> }
  >();
  for (const item of base.unresolved) found.set(referenceKey(item.reference), { item, writers: new Map() });
  for (const { environment, matches } of perEnvironment) {
    for (const edge of matches.edges) {
      const entry = found.get(referenceKey(edge.reference));
      if (!entry) continue;
      const writer = entry.writers.get(edge.to) ?? { edge, in: [] };
      if (!writer.in.includes(environment)) writer.in.push(environment);
      entry.writers.set(edge.to, writer);
    }
  }
  if ([...found.values()].every((entry) => entry.writers.size === 0)) return base;
  const result: MatchResult = { edges: [...base.edges], unresolved: [], ambiguous: [...base.ambiguous] };
  for (const { item, writers } of found.values()) {
    if (writers.size === 0) {
      result.unresolved.push(item);
      continue;
    }
    const candidates = [...writers.keys()].sort();
    const match = candidates.length === 1 ? 'inferred' : 'ambiguous';
    const unknowns = [item.reason.replace(/^the state address cannot be resolved statically: /, '')];
    for (const to of candidates) {
      const { edge, in: environments } = writers.get(to)!;
      result.edges.push({
        from: item.from,
        to,
        reference: item.reference,
        address: edge.address,
        matchedBy: edge.matchedBy,
        match,
        assumed: [{ hole: 'environment', side: 'reader', value: environments.join(' or ') }, ...edge.assumed],
        candidates: match === 'ambiguous' ? candidates : [],
        unknowns,
      });
    }
    if (match === 'ambiguous') {
      result.ambiguous.push({
        from: item.from,
        reference: item.reference,
        reason: `the environments read the states of ${candidates.length} modules: ${candidates
          .map((to) => `${to} (${writers.get(to)!.in.join(', ')})`)
          .join(', ')}`,
        address: candidates.map((to) => writers.get(to)!.edge.address).join(' or '),
        writers: candidates,
      });
    }
  }
  return result;
}
