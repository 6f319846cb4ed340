import path from 'node:path';
import { type EvalScope, evaluate, evaluateNamed, isUnknown, unknown, type Value, withFunctions } from '../evaluation';
import { type Expr, FILE_START } from '../hcl';
import { STACK_DIR, STACK_FILE, type StackEntry, UNIT_FILE } from './terragruntFile';
import { terragruntFunctions } from './terragruntFunctions';
import { isRemoteSource } from './unitBlocks';
import { contextFor, type TerragruntProblem, type UnitSource } from './unitContext';

/** A unit that `terragrunt stack generate` makes from a stack's `unit` block. */
export interface StackUnit {
  /** Where the generated unit lives (`<stack>/.terragrunt-stack/<path>`), and its `terragrunt.hcl` there. */
  dir: string;
  file: string;
  /** The `terragrunt.hcl` it is copied from: its `source` folder's. */
  source: string;
  /** The folder of the top-level stack file: where `terragrunt stack generate` runs. */
  stackDir: string;
  /** Its `values`, what the unit's configuration reads as `values.*`. */
  values: Value;
}

export interface StackExpansion {
  units: StackUnit[];
  /** The configuration files its blocks copy (units' and nested stacks'): templates, not units or stacks of their own. */
  sources: string[];
  problems: TerragruntProblem[];
}

/**
 * `source` with the generated units' configuration files in it: each reads as the file it is
 * copied from, at the place it is generated (so `find_in_parent_folders` and relative paths start
 * there, as they do for terragrunt).
 */
export function withGeneratedUnits(source: UnitSource, units: Iterable<StackUnit>): UnitSource {
  const copies = new Map<string, string>();
  for (const unit of units) copies.set(unit.file, unit.source);
  if (copies.size === 0) return source;
  return {
    ...source,
    configOf: (file) => source.configOf(copies.get(file) ?? file),
    writtenIn: (file) => copies.get(file) ?? file,
  };
}

/** Nested stacks deeper than this are reported, not expanded. */
const MAX_DEPTH = 8;

/** Units one stack file expands to, at most: stacks that embed others many times grow exponentially. */
export const MAX_STACK_UNITS = 10_000;

/**
 * The units of the stack file `file` as `terragrunt stack generate` would write them: each `unit`
 * block a unit under `.terragrunt-stack/<path>` (or `<path>` with `no_dot_terragrunt_stack`),
 * each `stack` block the units of its source's stack file, generated under its own path. Only
 * local sources are read; a remote one is said.
 */
export function expandStack(file: string, source: UnitSource): StackExpansion {
  const expansion: StackExpansion = { units: [], sources: [], problems: [] };
  expandInto(expansion, file, file, null, path.dirname(file), source, [file]);
  return expansion;
}

/** `within`: the stack files being expanded, outermost first (`real` last). */
function expandInto(
  expansion: StackExpansion,
  located: string,
  real: string,
  values: Value,
  stackDir: string,
  source: UnitSource,
  within: readonly string[],
): void {
  const facts = source.configOf(real);
  if (!facts) return;
  const dir = path.dirname(located);
  // A stack file's locals seldom read other files: `read_terragrunt_config` there is not followed.
  const context = contextFor(source, located, dir, () =>
    unknown('read_terragrunt_config() is not evaluated in a stack file'),
  );
  const run = <T>(body: () => T): T => withFunctions(terragruntFunctions(context), body);
  const base = new Map<string, Value>([['values', values]]);
  const locals = run(() =>
    evaluateNamed(new Map(facts.locals.map((local) => [local.name, local.expr])), 'local', base),
  );
  const scope: EvalScope = new Map([...base, ['local', Object.fromEntries(locals.values)]]);
  const value = (expr: Expr | undefined): Value => (expr ? run(() => evaluate(expr, scope)) : null);
  for (const entry of facts.stackEntries) {
    const target = entryTarget(entry, dir, value, (message) =>
      expansion.problems.push({ file: real, range: entry.headerRange, message }),
    );
    if (!target) continue;
    const copied = path.join(target.from, entry.kind === 'unit' ? UNIT_FILE : STACK_FILE);
    if (!source.configOf(copied)) {
      expansion.problems.push({
        file: real,
        range: entry.headerRange,
        message: `${entry.kind} "${entry.name}": no ${path.basename(copied)} in ${path.relative(dir, target.from) || '.'}`,
      });
      continue;
    }
    if (entry.kind === 'stack' && within.includes(copied)) {
      const itself = copied === real;
      expansion.problems.push({
        file: real,
        range: entry.headerRange,
        message: `stack "${entry.name}": sources ${itself ? 'the stack file it is in' : `${path.relative(dir, copied)}, which embeds this one`}; Terragrunt refuses a stack that embeds itself`,
        error: true,
      });
      continue;
    }
    if (expansion.units.length >= MAX_STACK_UNITS) {
      expansion.problems.push({
        file: within[0]!,
        range: FILE_START,
        message: `this stack expands to more than the ${MAX_STACK_UNITS} units Terrace follows; the rest are not read`,
      });
      return;
    }
    expansion.sources.push(copied);
    const entryValues = value(entry.values);
    if (entry.kind === 'unit') {
      const unitFile = path.join(target.to, UNIT_FILE);
      expansion.units.push({ dir: target.to, file: unitFile, source: copied, stackDir, values: entryValues });
    } else if (within.length > MAX_DEPTH) {
      expansion.problems.push({
        file: real,
        range: entry.headerRange,
        message: `stack "${entry.name}": stacks nested too deep`,
      });
    } else {
      const nested = path.join(target.to, STACK_FILE);
      expandInto(expansion, nested, copied, entryValues, stackDir, source, [...within, copied]);
    }
  }
}

/** The local folder a `unit`/`stack` block copies, and where it is generated; undefined (with a problem) otherwise. */
function entryTarget(
  entry: StackEntry,
  dir: string,
  value: (expr: Expr | undefined) => Value,
  problem: (message: string) => void,
): { from: string; to: string } | undefined {
  const label = `${entry.kind} "${entry.name}"`;
  const from = value(entry.source);
  const where = value(entry.path);
  if (typeof from !== 'string' || typeof where !== 'string') {
    const unknown = [from, where].find(isUnknown);
    problem(`${label}: its source and path must be known: ${unknown ? unknown.reasons.join('; ') : 'one is missing'}`);
    return undefined;
  }
  if (isRemoteSource(from)) {
    problem(`${label}: its source is not in the workspace (${from}); its units are not read`);
    return undefined;
  }
  const noDot = value(entry.noDot) === true;
  return { from: path.resolve(dir, from), to: noDot ? path.resolve(dir, where) : path.resolve(dir, STACK_DIR, where) };
}
