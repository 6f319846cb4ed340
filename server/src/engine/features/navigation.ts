import type { AnalysisResult, ModuleSummary } from '../analysis';
import type { Position, Range } from '../hcl';
import type { MatchedEdge, UnmatchedReference } from '../state';

/** What a `terraform_remote_state` block resolved to, per instance. */
export type ReferenceOutcome =
  | { kind: 'edge'; edge: MatchedEdge }
  | { kind: 'unresolved'; item: UnmatchedReference }
  | { kind: 'ambiguous'; item: UnmatchedReference };

export function contains(range: Range, position: Position): boolean {
  const after =
    position.line > range.start.line ||
    (position.line === range.start.line && position.character >= range.start.character);
  const before =
    position.line < range.end.line || (position.line === range.end.line && position.character <= range.end.character);
  return after && before;
}

/** Every instance of the remote_state block at `position` in `file`, with what it resolved to. */
export function referenceOutcomesAt(result: AnalysisResult, file: string, position: Position): ReferenceOutcome[] {
  const outcomes: ReferenceOutcome[] = [
    ...result.edges.map((edge): ReferenceOutcome => ({ kind: 'edge', edge })),
    ...result.unresolved.map((item): ReferenceOutcome => ({ kind: 'unresolved', item })),
    ...result.ambiguous.map((item): ReferenceOutcome => ({ kind: 'ambiguous', item })),
  ];
  return outcomes.filter((outcome) => {
    const reference = outcome.kind === 'edge' ? outcome.edge.reference : outcome.item.reference;
    return reference.file === file && contains(reference.range, position);
  });
}

/** The module whose backend (or `cloud {}`) block is at `position` in `file`, or whose backend file starts at that line. */
export function moduleWithBackendAt(
  result: AnalysisResult,
  file: string,
  position: Position,
): ModuleSummary | undefined {
  return result.modules.find(
    (module) => module.backend?.file === file && (contains(module.backend.range, position) || position.line === 0),
  );
}

/** The root module a file belongs to: the deepest module folder that contains it. */
export function moduleContaining(result: AnalysisResult, file: string): ModuleSummary | undefined {
  let best: ModuleSummary | undefined;
  for (const module of result.modules) {
    const inside = file === module.dir || file.startsWith(`${module.dir}/`);
    if (inside && (!best || module.dir.length > best.dir.length)) best = module;
  }
  return best;
}

export function moduleById(result: AnalysisResult, id: string): ModuleSummary | undefined {
  return result.modules.find((module) => module.id === id);
}

/** Where to open a module: its backend block, or the top of its first file. */
export function moduleLocation(module: ModuleSummary): { file: string; range: Range } {
  if (module.backend) return { file: module.backend.file, range: module.backend.headerRange };
  return { file: module.firstFile, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } };
}

/** Sorted ids of what `id` depends on, and of what depends on it. */
export function neighbours(result: AnalysisResult, id: string): { dependencies: string[]; dependents: string[] } {
  return {
    dependencies: [...result.graph.dependencies(id)].sort(),
    dependents: [...result.graph.dependents(id)].sort(),
  };
}

/** The cycle path a module is part of, if any. */
export function cycleOf(result: AnalysisResult, id: string): string[] | undefined {
  const index = result.cycleMembers.findIndex((members) => members.includes(id));
  return index >= 0 ? result.cycles[index] : undefined;
}
