import type { AnalysisResult, ModuleSummary } from '../analysis';
import { FILE_START, type Position, type Range } from '../hcl';
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
  return (outcomesByFile(result).get(file) ?? []).filter((outcome) => contains(referenceOf(outcome).range, position));
}

function referenceOf(outcome: ReferenceOutcome): MatchedEdge['reference'] {
  return outcome.kind === 'edge' ? outcome.edge.reference : outcome.item.reference;
}

/**
 * Each result's outcomes by file, made on the first hover or definition after an analysis: a hover then
 * looks at its own file's references, not at every edge of the workspace (25,000 at 10,000 modules).
 */
const byFile = new WeakMap<AnalysisResult, Map<string, ReferenceOutcome[]>>();

function outcomesByFile(result: AnalysisResult): Map<string, ReferenceOutcome[]> {
  let index = byFile.get(result);
  if (!index) {
    index = new Map();
    const add = (outcome: ReferenceOutcome) => {
      const file = referenceOf(outcome).file;
      const list = index!.get(file);
      if (list) list.push(outcome);
      else index!.set(file, [outcome]);
    };
    for (const edge of result.edges) add({ kind: 'edge', edge });
    for (const item of result.unresolved) add({ kind: 'unresolved', item });
    for (const item of result.ambiguous) add({ kind: 'ambiguous', item });
    byFile.set(result, index);
  }
  return index;
}

/**
 * The module whose backend (or `cloud {}`) block is at `position` in `file`, or whose backend file
 * starts at that line; for a Terragrunt unit, the first line of its `terragrunt.hcl` (its backend
 * usually sits in a parent file that many units share).
 */
export function moduleWithBackendAt(
  result: AnalysisResult,
  file: string,
  position: Position,
): ModuleSummary | undefined {
  return result.modules.find((module) =>
    module.component
      ? module.component.file === file && contains(module.component.range, position)
      : module.kind === 'unit'
        ? module.firstFile === file && position.line === 0
        : module.backend?.file === file && (contains(module.backend.range, position) || position.line === 0),
  );
}

/** The modules whose place (`moduleLocation`) is in `file`: where their code lens goes. */
export function modulesPlacedIn(result: AnalysisResult, file: string): ModuleSummary[] {
  return result.modules.filter((module) =>
    module.component
      ? module.component.file === file
      : module.kind === 'unit'
        ? module.firstFile === file
        : module.backend?.file === file,
  );
}

/**
 * The root module a file belongs to: the deepest module folder that contains it. A Stack's folder
 * holds several components: none of them is the file's module.
 */
export function moduleContaining(result: AnalysisResult, file: string): ModuleSummary | undefined {
  let best: ModuleSummary | undefined;
  for (const module of result.modules) {
    if (module.kind === 'component') continue;
    const inside = file === module.dir || file.startsWith(`${module.dir}/`);
    if (inside && (!best || module.dir.length > best.dir.length)) best = module;
  }
  return best;
}

/** The file a Stack node's `source` at `position` leads to: its module's, or its embedded Stack's. */
export function componentSourceAt(result: AnalysisResult, file: string, position: Position): string | undefined {
  for (const module of result.modules) {
    const link = module.component?.sourceLink;
    if (link && module.component?.file === file && contains(link.range, position)) return link.file;
  }
  return undefined;
}

export function moduleById(result: AnalysisResult, id: string): ModuleSummary | undefined {
  return result.modules.find((module) => module.id === id);
}

/** Where to open a module: its backend block, or the top of its first file; a unit's `terragrunt.hcl`; a component's block. */
export function moduleLocation(module: ModuleSummary): { file: string; range: Range } {
  if (module.component) return { file: module.component.file, range: module.component.headerRange };
  if (module.backend && module.kind === 'module')
    return { file: module.backend.file, range: module.backend.headerRange };
  return { file: module.firstFile, range: FILE_START };
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
