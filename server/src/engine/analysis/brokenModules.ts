import { closure, compareIds } from '../graph';
import type { AnalysisResult, ModuleSummary } from './analysisResult';

/** Why a module cannot be planned in order: terraform would stop on it, or Terrace does not know what it depends on. */
export type BrokenReason = 'does not parse' | 'could not be evaluated';

/** A module a pipeline or a run leaves out: it does not parse or could not be evaluated, or depends on one. */
export interface SkippedModule {
  id: string;
  /** The module that does not parse or could not be evaluated: itself, or one it depends on. */
  because: string;
  /** What is wrong with `because`. */
  why: BrokenReason;
}

/** The modules to run or plan whose files do not parse, or that Terrace could not evaluate in full. */
export class BrokenModulesError extends Error {
  constructor(readonly modules: readonly ModuleSummary[]) {
    const ids = (of: readonly ModuleSummary[]) => of.map((module) => module.id).join(', ');
    const unparsed = modules.filter((module) => brokenReason(module) === 'does not parse');
    const unevaluated = modules.filter((module) => brokenReason(module) === 'could not be evaluated');
    const parts = [
      ...(unparsed.length > 0
        ? [`${ids(unparsed)} ${unparsed.length === 1 ? 'does' : 'do'} not parse, and terraform would stop there`]
        : []),
      ...(unevaluated.length > 0
        ? [
            `Terrace could not evaluate ${ids(unevaluated)} in full (see the errors), so what ${unevaluated.length === 1 ? 'it depends' : 'they depend'} on is not known`,
          ]
        : []),
    ];
    const fix =
      unevaluated.length === 0
        ? 'fix the syntax errors'
        : unparsed.length === 0
          ? 'fix what they name'
          : 'fix the errors';
    super(`${parts.join('; ')}: ${fix}, or leave those modules and their dependents out`);
  }
}

/** What is wrong with a module that cannot be planned in order. */
export function brokenReason(module: ModuleSummary): BrokenReason {
  return module.syntaxErrors.length > 0 ? 'does not parse' : 'could not be evaluated';
}

/**
 * The modules of `selected` (all when undefined) that do not parse, or that Terrace could not evaluate
 * in full. A Stack's components are not among them: nothing here runs them (HCP Terraform does), their
 * errors are in the Problems view.
 */
export function brokenModules(result: AnalysisResult, selected?: ReadonlySet<string>): ModuleSummary[] {
  return result.modules.filter(
    (module) =>
      module.kind !== 'component' &&
      (module.syntaxErrors.length > 0 || module.notEvaluated !== undefined) &&
      (!selected || selected.has(module.id)),
  );
}

/** The modules of `selected` (all when undefined) that are broken or depend on one that is, sorted by id. */
export function skippedAsBroken(result: AnalysisResult, selected?: ReadonlySet<string>): SkippedModule[] {
  const because = new Map<string, ModuleSummary>();
  for (const module of brokenModules(result, selected))
    for (const id of closure(result.graph, [module.id], 'downstream')) if (!because.has(id)) because.set(id, module);
  return [...because]
    .filter(([id]) => !selected || selected.has(id))
    .sort(([a], [b]) => compareIds(a, b))
    .map(([id, cause]) => ({ id, because: cause.id, why: brokenReason(cause) }));
}

/** `a (does not parse), b (depends on a)`. */
export function skippedList(skipped: readonly SkippedModule[]): string {
  return skipped.map(({ id, because, why }) => `${id} (${id === because ? why : `depends on ${because}`})`).join(', ');
}

/** What the modules left out have wrong, for a sentence about them: `do not parse`, `could not be evaluated`. */
export function skippedCause(skipped: readonly SkippedModule[], one = false): string {
  const unparsed = skipped.some((module) => module.why === 'does not parse');
  const unevaluated = skipped.some((module) => module.why === 'could not be evaluated');
  const parse = one ? 'does not parse' : 'do not parse';
  return unparsed && unevaluated
    ? `${parse} or could not be evaluated`
    : unevaluated
      ? 'could not be evaluated'
      : parse;
}
