import type { Range } from '../hcl';
import type { TryCall, TryGuard } from '../workspace';
import { closestNames } from './closestNames';
import { declaredNamed, declaredNames } from './declaredNames';
import type { DeclaredOutput } from './declaredOutput';
import type { MockOutput } from './mockOutputs';
import type { ResolvedUse } from './resolvedUse';

/** A use of an output no writer declares, or a `mock_outputs` key the dependency's code does not declare. */
export interface ContractProblem {
  file: string;
  range: Range;
  severity: 'error' | 'warning';
  message: string;
  code: 'missing-output' | 'unknown-mock-output';
  /** The writers that do not declare it. */
  writers: string[];
  output: string;
}

/**
 * The uses of outputs their writers do not declare, less those a `try` or `can` catches: Terraform turns
 * an error in a `try` argument into the next argument, so a call fails only when every argument fails,
 * and `can` never does. A use is reported when every call around it fails (`try(x.outputs.a, x.outputs.b)`
 * with neither declared), in the uses of one node, each instance of a child module apart.
 */
export function missingOutputs(
  uses: readonly ResolvedUse[],
  outputs: Map<string, DeclaredOutput[]>,
): ContractProblem[] {
  const found = uses.map((use) => ({ use, problems: missingOutput(use, outputs) }));
  const failing = new Map<string, Map<TryCall, Set<number>>>();
  const failedIn = (use: ResolvedUse) => {
    let calls = failing.get(use.inModule);
    if (!calls) {
      calls = new Map();
      failing.set(use.inModule, calls);
    }
    return calls;
  };
  for (const { use, problems } of found) if (problems.length > 0 && use.guard) fail(failedIn(use), use.guard);
  return found.flatMap(({ use, problems }) =>
    problems.length > 0 && (!use.guard || fails(failedIn(use), use.guard)) ? problems : [],
  );
}

/** Notes a failing argument, and the argument of the outer call that a call failing in all of them fails. */
function fail(calls: Map<TryCall, Set<number>>, guard: TryGuard): void {
  for (let at: TryGuard | undefined = guard; at; at = at.call.outer) {
    let args = calls.get(at.call);
    if (!args) {
      args = new Set();
      calls.set(at.call, args);
    }
    const failedBefore = args.size === at.call.args;
    args.add(at.arg);
    if (failedBefore || args.size < at.call.args) return;
  }
}

/** Whether every call around a use fails. */
function fails(calls: Map<TryCall, Set<number>>, guard: TryGuard): boolean {
  for (let at: TryGuard | undefined = guard; at; at = at.call.outer)
    if ((calls.get(at.call)?.size ?? 0) < at.call.args) return false;
  return true;
}

/**
 * A use of an output its writers do not declare: an error on exact edges, a warning on inferred ones;
 * through an ambiguous edge, only when no candidate declares it.
 */
function missingOutput(use: ResolvedUse, outputs: Map<string, DeclaredOutput[]>): ContractProblem[] {
  const name = use.output;
  if (name === undefined || use.defaulted || use.writers.every((writer) => writer.declared !== undefined)) return [];
  const checked = use.writers.filter((writer) => writer.declared !== null);
  const missing = checked.filter((writer) => writer.declared === undefined);
  if (missing.length === 0) return [];
  const ambiguous = checked.some((writer) => writer.match === 'ambiguous');
  if (ambiguous && missing.length < checked.length) return [];
  const exact = missing.every((writer) => writer.match === 'exact');
  return [
    {
      file: use.file,
      range: use.range,
      severity: exact ? 'error' : 'warning',
      code: 'missing-output',
      message: missing.map((writer) => missingMessage(writer.id, name, outputs.get(writer.id) ?? [])).join('; '),
      writers: missing.map((writer) => writer.id),
      output: name,
    },
  ];
}

/** `network/vpc declares no output "private_subnet_idz"; did you mean "private_subnet_ids"?` */
function missingMessage(writer: string, name: string, declared: readonly DeclaredOutput[]): string {
  const close = closestNames(name, declaredNames(declared));
  const hint = close.length > 0 ? `; did you mean ${close.map((other) => `"${other}"`).join(' or ')}?` : '';
  return `${writer} declares no output "${name}"${hint}`;
}

/**
 * `mock_outputs` keys that the dependency's code does not declare: warnings; but with `skip_outputs`, the
 * mocks are the outputs Terragrunt gives, and a key of their own is no mistake.
 */
export function mockOutputProblems(
  mocks: readonly MockOutput[],
  outputs: Map<string, DeclaredOutput[]>,
): ContractProblem[] {
  return mocks.flatMap((mock): ContractProblem[] => {
    const declared = outputs.get(mock.writer);
    if (mock.skipOutputs || !declared || declaredNamed(declared, mock.name)) return [];
    return [
      {
        file: mock.file,
        range: mock.range,
        severity: 'warning',
        code: 'unknown-mock-output',
        message: `mock_outputs: ${missingMessage(mock.writer, mock.name, declared)}`,
        writers: [mock.writer],
        output: mock.name,
      },
    ];
  });
}
