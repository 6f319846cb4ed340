import path from 'node:path';
import { type EvalScope, evaluate, evaluateNamed, type FileRead, type Value, withFunctions } from '../evaluation';
import type { Expr, Range } from '../hcl';
import { emptyTerragruntFile, type TerragruntAttribute, type TerragruntFile } from './terragruntFile';
import { type ParentSearch, type TerragruntContext, terragruntFunctions } from './terragruntFunctions';

/** What a unit's evaluation reads: the workspace's Terragrunt files by absolute path. */
export interface UnitSource {
  /** The workspace folder: parent searches stop there. */
  workspaceRoot: string;
  /** Git working trees in and around the workspace (`get_repo_root()` is the innermost around the unit). */
  gitRoots: readonly string[];
  /** The facts of a `.hcl` file the scan listed; undefined for any other path. */
  configOf(file: string): TerragruntFile | undefined;
  /** The file a configuration's facts come from, where another (a unit a stack generates) reads as it. */
  writtenIn?(file: string): string;
  /** Whether the workspace has a file that is no Terragrunt configuration (`global.yaml`, a `.tf`), for `find_in_parent_folders`. */
  exists?(file: string): boolean;
  /** Told each file `find_in_parent_folders` looks for (see `TerragruntContext.lookedFor`). */
  lookedFor?(file: string): void;
  /**
   * What `find_in_parent_folders` found above each folder, by folder and name, for units evaluated together
   * while no file changes: sibling units look in the folders above them once. Else each unit keeps its own.
   */
  parentSearches?: Map<string, ParentSearch>;
  /**
   * What `read_terragrunt_config` gave of each file, for units evaluated together while no file changes: a
   * file that asks nothing of the unit reading it (an `account.hcl` of literals) is evaluated once, not once a unit.
   */
  configReads?: Map<string, SharedRead>;
}

/** What a unit's evaluation notes as it goes: the configuration files it read, the folders it looked in, its reads. */
export interface ReadNotes {
  configRead(file: string): void;
  lookedIn(dir: string): void;
  /** `prefer`: over a read of the same target noted before (see `ReadSet.prefer`). */
  fileRead(found: FileRead, prefer: boolean): void;
}

/** `read_terragrunt_config` of one file: its value, and what reading it noted, told again to each unit that reads it. */
export interface SharedRead {
  readonly value: Value;
  replay(into: ReadNotes): void;
}

/** `files`, noting in `notes` each folder asked about and each file a parent search looks for. */
export function notingSource(files: UnitSource, notes: ReadNotes): UnitSource {
  return {
    ...files,
    configOf: (candidate) => {
      notes.lookedIn(path.dirname(candidate));
      return files.configOf(candidate);
    },
    // Where it looked, as `configOf` notes it: a search kept from another unit asks nothing of `configOf`.
    lookedFor: (candidate) => {
      notes.lookedIn(path.dirname(candidate));
      notes.fileRead(
        { target: { kind: 'file', path: candidate }, how: `find_in_parent_folders("${path.basename(candidate)}")` },
        false,
      );
    },
  };
}

/** What a configuration says that cannot be followed; `error` when Terragrunt itself fails on it. */
export interface TerragruntProblem {
  file: string;
  range: Range;
  message: string;
  error?: true;
}

export const EMPTY_SCOPE: EvalScope = new Map();

export const EMPTY_TERRAGRUNT: TerragruntFile = Object.freeze(emptyTerragruntFile());

/** Where Terragrunt's functions answer from: `configFile` parsed for the unit in `unitDir`, with `includes`. */
export function contextFor(
  source: UnitSource,
  configFile: string,
  unitDir: string,
  read: TerragruntContext['read'],
  includes: ReadonlyMap<string, string> = new Map(),
): TerragruntContext {
  return {
    configFile,
    unitDir,
    includes,
    workspaceRoot: source.workspaceRoot,
    repoRoot: repoRootOf(unitDir, source),
    exists: (candidate) => source.configOf(candidate) !== undefined || source.exists?.(candidate) === true,
    ...(source.lookedFor ? { lookedFor: source.lookedFor } : {}),
    ...(source.parentSearches ? { parentSearches: source.parentSearches } : {}),
    read,
  };
}

/** The innermost Git working tree around `dir`, else the workspace folder. */
function repoRootOf(dir: string, source: UnitSource): string {
  let best: string | undefined;
  for (const root of source.gitRoots)
    if ((dir === root || dir.startsWith(root + path.sep)) && (!best || root.length > best.length)) best = root;
  return best ?? source.workspaceRoot;
}

/** `base` with the file's locals (`local`), evaluated in `context`. */
export function localsScope(
  facts: TerragruntFile,
  context: TerragruntContext,
  base: EvalScope,
  problems: TerragruntProblem[],
  file: string,
): EvalScope {
  const exprs = new Map<string, Expr>(facts.locals.map((local) => [local.name, local.expr]));
  const { values, cycles } = withFunctions(terragruntFunctions(context), () =>
    evaluateNamed(exprs, 'local', base, facts.locals),
  );
  for (const cycle of cycles) {
    const first = facts.locals.find((local) => local.name === cycle[0]);
    if (first)
      problems.push({ file, range: first.range, message: `${cycle.map((n) => `local.${n}`).join(' -> ')} is a cycle` });
  }
  const scope = new Map(base);
  scope.set('local', Object.fromEntries(values));
  return scope;
}

export function evaluateIn(
  context: TerragruntContext,
  expr: Expr | TerragruntAttribute | undefined,
  scope: EvalScope,
): Value {
  if (!expr) return null;
  const target = 'expr' in expr ? expr.expr : expr;
  return withFunctions(terragruntFunctions(context), () => evaluate(target, scope));
}
