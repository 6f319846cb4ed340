import path from 'node:path';
import { type FileRead, ReadSet, unknown, type Value } from '../evaluation';
import type { Expr } from '../hcl';
import { ConfigReader } from './configReads';
import type { TerragruntFile } from './terragruntFile';
import {
  backendOf,
  codeDirOf,
  dependenciesOf,
  type GeneratedFile,
  generatedOf,
  inputsOf,
  type Layer,
  reasonOf,
  type UnitBackend,
  type UnitDependency,
} from './unitBlocks';
import {
  contextFor,
  EMPTY_SCOPE,
  EMPTY_TERRAGRUNT,
  evaluateIn,
  localsScope,
  notingSource,
  type ReadNotes,
  type TerragruntProblem,
  type UnitSource,
} from './unitContext';
import { extraArgumentReads, fileCallReads } from './unitReads';

/** One Terragrunt unit, its configuration evaluated with everything it includes. */
export interface EvaluatedUnit {
  file: string;
  dir: string;
  /** Where its own blocks are written: `file`, or for a unit a stack generates, the file it is copied from. */
  writtenIn: string;
  /** The other configuration files the evaluation read (includes, `read_terragrunt_config`): an edit to one re-evaluates the unit. */
  read: string[];
  /** Every folder where it looked for a file (`find_in_parent_folders`, includes): a file added there may change it. */
  lookedIn: string[];
  /**
   * The files its configuration reads, with how: its own, what it includes, what `read_terragrunt_config`,
   * `find_in_parent_folders`, the file functions and `extra_arguments` name (not its Terraform code's).
   */
  reads: FileRead[];
  /** From `remote_state`, the unit's own or inherited. */
  backend: UnitBackend | undefined;
  /** The folder of the unit's Terraform code when it is local: its `terraform.source`, or its own folder without one. */
  codeDir: string | undefined;
  /** The inputs, merged over the includes: the Terraform code's variables. */
  inputs: ReadonlyMap<string, Value>;
  dependencies: UnitDependency[];
  /** The files `generate` blocks write into the code's folder, when their contents are known. */
  generated: GeneratedFile[];
  problems: TerragruntProblem[];
}

/**
 * Evaluates the unit whose configuration is `file` like Terragrunt: its `include` blocks first
 * (their paths, then the included files' locals, evaluated with the unit as the current
 * configuration), then its own locals (with `include.<name>.locals`), then everything else; the
 * unit's own blocks override the included ones.
 */
export function evaluateUnit(file: string, files: UnitSource, values: Value = null): EvaluatedUnit {
  const dir = path.dirname(file);
  const lookedIn = new Set<string>();
  const fileReads = new ReadSet();
  const read = new Set<string>();
  const notes: ReadNotes = {
    configRead: (found) => read.add(found),
    lookedIn: (folder) => lookedIn.add(folder),
    fileRead: (found, prefer) => (prefer ? fileReads.prefer(found) : fileReads.add(found)),
  };
  const shared: UnitSource = { ...files, parentSearches: files.parentSearches ?? new Map() };
  const source = notingSource(shared, notes);
  const problems: TerragruntProblem[] = [];
  const facts = source.configOf(file) ?? EMPTY_TERRAGRUNT;
  // Blocks are placed where they are written: a generated unit's in the file it is copied from.
  const written = source.writtenIn?.(file) ?? file;
  fileReads.add({ target: { kind: 'file', path: written }, how: 'its configuration' });
  const reads = new ConfigReader(shared, dir, notes);
  const includes = includedFiles(file, facts, source, problems);
  for (const include of facts.includes) {
    const at = includes.get(include.name);
    if (at === undefined) continue;
    const how = include.name === '' ? 'include' : `include "${include.name}"`;
    fileReads.prefer({
      target: { kind: 'file', path: at },
      how,
      at: { file: written, line: include.range.start.line + 1 },
    });
  }
  const readConfig = (candidate: string) => reads.read(candidate);
  const included = [...includes].map(([name, at]) => ({ name, at, facts: source.configOf(at)! }));
  // `dependency.<name>.outputs` of every layer: known only once that unit is applied.
  const dependencyNames: Record<string, Value> = {};
  for (const layer of [...included, { facts }])
    for (const block of layer.facts.dependencies)
      dependencyNames[block.name] = unknown(`dependency.${block.name}'s outputs are only known once it is applied`);
  const layers: Layer[] = [];
  const exposed: Record<string, Value> = {};
  for (const { name, at, facts: includedFacts } of included) {
    read.add(at);
    const includedContext = contextFor(source, file, dir, readConfig, new Map([[name, at]]));
    const base = new Map<string, Value>([['dependency', dependencyNames]]);
    const scope = localsScope(includedFacts, includedContext, base, problems, at);
    const inputs = evaluateIn(includedContext, includedFacts.inputs, scope);
    layers.push({ file: at, facts: includedFacts, scope, context: includedContext, inputs });
    exposed[name] = { locals: scope.get('local') ?? {}, inputs };
  }
  const ownContext = contextFor(source, file, dir, readConfig, includes);
  const base = new Map<string, Value>([
    ['include', exposed],
    ['dependency', dependencyNames],
    // A unit generated from a stack reads its block's `values`.
    ['values', values],
  ]);
  const ownScope = localsScope(facts, ownContext, base, problems, written);
  layers.push({ file: written, facts, scope: ownScope, context: ownContext });
  for (const layer of layers) {
    const evaluateArg = (expr: Expr) => evaluateIn(layer.context, expr, layer.scope);
    for (const found of fileCallReads(layer.facts, evaluateArg, layer.file)) fileReads.add(found);
    for (const found of extraArgumentReads(layer.facts, evaluateArg, dir, layer.file)) fileReads.add(found);
  }
  return {
    file,
    dir,
    writtenIn: written,
    read: [...read],
    lookedIn: [...lookedIn],
    reads: fileReads.list(),
    backend: backendOf(layers),
    codeDir: codeDirOf(layers, dir, problems),
    inputs: inputsOf(layers),
    dependencies: dependenciesOf(layers, dir),
    generated: generatedOf(layers, dir, problems),
    problems,
  };
}

/** The files a unit's `include` blocks name, by include name; problems for paths not known or not in the workspace. */
function includedFiles(
  file: string,
  facts: TerragruntFile,
  source: UnitSource,
  problems: TerragruntProblem[],
): Map<string, string> {
  const includes = new Map<string, string>();
  const context = contextFor(source, file, path.dirname(file), () =>
    unknown('read_terragrunt_config() is not evaluated in an include path'),
  );
  const written = source.writtenIn?.(file) ?? file;
  for (const include of facts.includes) {
    if (!include.path) continue;
    const value = evaluateIn(context, include.path, EMPTY_SCOPE);
    if (typeof value !== 'string') {
      problems.push({
        file: written,
        range: include.headerRange,
        message: `include path is not known: ${reasonOf(value)}`,
      });
      continue;
    }
    const target = path.resolve(path.dirname(file), value);
    if (target === file) {
      // Terragrunt refuses it; read as a parent, the unit would vanish from the graph without a word.
      problems.push({
        file: written,
        range: include.headerRange,
        message: `include "${include.name}": includes this file itself, which Terragrunt refuses`,
        error: true,
      });
      continue;
    }
    if (source.configOf(target) === undefined) {
      problems.push({
        file: written,
        range: include.headerRange,
        message: `include: ${path.relative(path.dirname(file), target)} is not a Terragrunt file of this workspace`,
      });
      continue;
    }
    includes.set(include.name, target);
  }
  return includes;
}

/** The files a unit includes, for discovery: an included `terragrunt.hcl` is a parent, not a unit. */
export function unitIncludes(file: string, source: UnitSource): string[] {
  return [...includedFiles(file, source.configOf(file) ?? EMPTY_TERRAGRUNT, source, []).values()];
}
