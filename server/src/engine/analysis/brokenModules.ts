import { closure, compareIds } from '../graph';
import type { AnalysisResult, ModuleSummary } from './analysisResult';

/** A module a pipeline or a run leaves out: it does not parse, or depends on one that does not. */
export interface SkippedModule {
  id: string;
  /** The module that does not parse: itself, or one it depends on. */
  because: string;
}

/** The modules to run or plan whose files do not parse: terraform would stop on them. */
export class BrokenModulesError extends Error {
  constructor(readonly modules: readonly ModuleSummary[]) {
    const ids = modules.map((module) => module.id).join(', ');
    super(
      `${ids} ${modules.length === 1 ? 'does' : 'do'} not parse, and terraform would stop there: ` +
        'fix the syntax errors, or leave those modules and their dependents out',
    );
  }
}

/**
 * The modules of `selected` (all when undefined) that do not parse. A Stack's components are not
 * among them: nothing here runs them (HCP Terraform does), their errors are in the Problems view.
 */
export function brokenModules(result: AnalysisResult, selected?: ReadonlySet<string>): ModuleSummary[] {
  return result.modules.filter(
    (module) => module.kind !== 'component' && module.syntaxErrors.length > 0 && (!selected || selected.has(module.id)),
  );
}

/** The modules of `selected` (all when undefined) that do not parse or depend on one that does, sorted by id. */
export function skippedAsBroken(result: AnalysisResult, selected?: ReadonlySet<string>): SkippedModule[] {
  const because = new Map<string, string>();
  for (const module of brokenModules(result, selected))
    for (const id of closure(result.graph, [module.id], 'downstream')) if (!because.has(id)) because.set(id, module.id);
  return [...because]
    .filter(([id]) => !selected || selected.has(id))
    .sort(([a], [b]) => compareIds(a, b))
    .map(([id, cause]) => ({ id, because: cause }));
}

/** `a (does not parse), b (depends on a)`. */
export function skippedList(skipped: readonly SkippedModule[]): string {
  return skipped
    .map(({ id, because }) => `${id} (${id === because ? 'does not parse' : `depends on ${because}`})`)
    .join(', ');
}
