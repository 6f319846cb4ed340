import type { Range } from '../hcl';
import type { ModuleProblem } from './evaluatedModule';

/**
 * Why an evaluation threw, as its error says it: a stack overflow is a value nested deeper, or a
 * collection larger, than the evaluation's own code can walk.
 */
export function failureReason(error: unknown): string {
  return error instanceof RangeError ? `${error.message} (nesting or sizes past what Terrace reads)` : String(error);
}

/**
 * What `evaluate` gives, or `fallback` when it throws: then an error on `where` says what was not
 * evaluated, so that one pathological block loses only itself, and the module is known to be
 * evaluated in part (validate fails; pipelines and runs refuse it, see `ModuleSummary.notEvaluated`).
 */
export function guarded<T>(
  problems: ModuleProblem[],
  where: { file: string; range: Range; what: string },
  evaluate: () => T,
  fallback: T,
): T {
  try {
    return evaluate();
  } catch (error) {
    problems.push({
      file: where.file,
      range: where.range,
      message: `Terrace could not evaluate ${where.what}: ${failureReason(error)}`,
      error: 'not-evaluated',
    });
    return fallback;
  }
}
