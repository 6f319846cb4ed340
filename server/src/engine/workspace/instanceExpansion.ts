import {
  catchValue,
  type EvalScope,
  evaluate,
  isObjectValue,
  isUnknown,
  referencedNames,
  toNumberValue,
  unknown,
  type Value,
} from '../evaluation';
import type { Expr, Range } from '../hcl';
import type { ModuleProblem } from './evaluatedModule';

/**
 * How many instances one `count` or `for_each` expands into, and a root module's evaluation in all,
 * child modules' instances included (`count = 4` ten calls deep is a million). Real monorepos read
 * states in a few instances, not thousands; past either limit the block is reported on its line
 * and read as one instance of unknown key, so its reads are unresolved, with the reason.
 */
export const MAX_BLOCK_INSTANCES = 10_000;
export const MAX_MODULE_INSTANCES = 10_000;

/** What expanding a block needs of its module's evaluation. */
export interface ExpansionContext {
  /** Values given from outside: tfvars for a root, call arguments for a child. */
  variables: (name: string) => Value | undefined;
  /**
   * How many more instances the evaluation may expand (`MAX_MODULE_INSTANCES`), shared with child
   * modules, and the blocks already reported past it (a call expanded a thousand times is told once).
   */
  instances: { left: number; reported: Set<string> };
  problems: ModuleProblem[];
}

export interface Instance {
  key: string | null;
  scope: EvalScope;
}

/**
 * The instances of a block with `for_each` or `count`: one per element, with `each` or `count`
 * in scope. An unknown collection gives one instance whose `each`/`count` is unknown, so the
 * reference is reported unresolved with the reason; so does one past the instance limits, reported
 * on the block's line.
 */
export function expand(
  forEach: Expr | undefined,
  count: Expr | undefined,
  scope: EvalScope,
  context: ExpansionContext,
  where: { file: string; range: Range; what: string },
): Instance[] {
  const tooMany = (instances: number, argument: 'count' | 'for_each'): Instance[] => {
    const reason =
      instances > MAX_BLOCK_INSTANCES
        ? `${argument} gives ${Number.isFinite(instances) ? instances : 'infinitely many'} instances, more than the ${MAX_BLOCK_INSTANCES} Terrace follows`
        : `with the module calls around it, more than the ${MAX_MODULE_INSTANCES} instances Terrace follows in a root module`;
    const block = `${where.file}\0${where.range.start.line}\0${where.range.start.character}`;
    if (!context.instances.reported.has(block)) {
      context.instances.reported.add(block);
      context.problems.push({ file: where.file, range: where.range, message: `${where.what}: ${reason}` });
    }
    return unknownInstance(scope, argument, [reason]);
  };
  const within = (instances: number) => instances <= MAX_BLOCK_INSTANCES && instances <= context.instances.left;
  if (forEach) {
    const collection = evaluate(forEach, scope);
    if (isUnknown(collection))
      return unknownInstance(
        scope,
        'for_each',
        collection.reasons.map((reason) => `for_each: ${reason}`),
      );
    const entries: [string, Value][] = Array.isArray(collection)
      ? collection.map((item) => [typeof item === 'string' ? item : JSON.stringify(item), item])
      : isObjectValue(collection)
        ? Object.entries(collection)
        : [];
    if (!within(entries.length)) return tooMany(entries.length, 'for_each');
    context.instances.left -= entries.length;
    return entries.map(([key, value]) => ({ key, scope: withRoot(scope, 'each', { key, value }) }));
  }
  if (count) {
    // Terraform converts count as it converts any number argument: "3" is 3.
    const n = catchValue(() => toNumberValue(evaluate(count, scope), 'count'));
    if (typeof n !== 'number') {
      const reasons = isUnknown(n) ? n.reasons : ['count is not a number'];
      return unknownInstance(
        scope,
        'count',
        reasons.map((reason) => `count: ${reason}`),
      );
    }
    const instances = Math.max(0, Math.floor(n));
    // `count = var.enabled` with a default of 0 is a block a run switches on: read as one instance.
    const switchedOff = instances === 0 ? defaultedVariables(count, context) : [];
    if (switchedOff.length > 0)
      return unknownInstance(scope, 'count', [
        `count: ${switchedOff.map((name) => `var.${name}`).join(', ')} may be set at run time`,
      ]);
    if (!within(instances)) return tooMany(instances, 'count');
    context.instances.left -= instances;
    return Array.from({ length: instances }, (_, index) => ({
      key: String(index),
      scope: withRoot(scope, 'count', { index }),
    }));
  }
  return [{ key: null, scope }];
}

/** One instance whose `count.index` or `each` is unknown, for `reasons`: its reads are unresolved, saying why. */
function unknownInstance(scope: EvalScope, argument: 'count' | 'for_each', reasons: string[]): Instance[] {
  const value = unknown(...reasons);
  const bound =
    argument === 'count' ? withRoot(scope, 'count', { index: value }) : withRoot(scope, 'each', { key: value, value });
  return [{ key: null, scope: bound }];
}

/** The variables `expr` reads that have their default value: no value was given for them here. */
function defaultedVariables(expr: Expr, context: ExpansionContext): string[] {
  return [...referencedNames(expr, 'var')].filter((name) => context.variables(name) === undefined);
}

function withRoot(scope: EvalScope, name: string, value: Value): EvalScope {
  return new Map(scope).set(name, value);
}
