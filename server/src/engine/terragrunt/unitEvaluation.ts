import path from 'node:path';
import {
  type EvalScope,
  evaluate,
  evaluateNamed,
  type FileRead,
  isObjectValue,
  isUnknown,
  type ObjectValue,
  ReadSet,
  type Unknown,
  unknown,
  type Value,
  withFunctions,
} from '../evaluation';
import type { Expr, Range } from '../hcl';
import {
  type DependencyBlock,
  emptyTerragruntFile,
  type TerragruntAttribute,
  type TerragruntFile,
} from './terragruntFile';
import { type ParentSearch, type TerragruntContext, terragruntFunctions } from './terragruntFunctions';
import { extraArgumentReads, fileCallReads } from './unitReads';

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
}

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

/** A file a `generate` block writes, and the block: its configuration file, label and range. */
export interface GeneratedFile {
  file: string;
  text: string;
  from: { file: string; block: string; range: Range };
}

/** What a configuration says that cannot be followed; `error` when Terragrunt itself fails on it. */
export interface TerragruntProblem {
  file: string;
  range: Range;
  message: string;
  error?: true;
}

export interface UnitBackend {
  type: string | Unknown;
  config: ObjectValue | Unknown;
  file: string;
  range: Range;
  headerRange: Range;
}

/** A `dependency` block, or one entry of `dependencies { paths }`: an edge to the unit in `dir`. */
export interface UnitDependency {
  /** The block's label, or the path as written for a `dependencies` entry. */
  name: string;
  kind: 'dependency' | 'dependencies';
  /** The target folder, absolute, or why it is not known. */
  dir: string | Unknown;
  /** Set when Terragrunt refuses the block as written (a single `dependencies` path): why, and the fix. */
  refused?: true;
  file: string;
  range: Range;
  headerRange: Range;
}

/** One configuration file as the unit sees it: its facts and the scope its expressions evaluate in. */
interface Layer {
  file: string;
  facts: TerragruntFile;
  scope: EvalScope;
  context: TerragruntContext;
  /** Its inputs, when evaluated already: an included file's are the unit's `include.<name>.inputs` too. */
  inputs?: Value;
}

const EMPTY_SCOPE: EvalScope = new Map();

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
  const source: UnitSource = {
    ...files,
    configOf: (candidate) => {
      lookedIn.add(path.dirname(candidate));
      return files.configOf(candidate);
    },
    // Where it looked, as `configOf` notes it: a search kept from another unit asks nothing of `configOf`.
    lookedFor: (candidate) => {
      lookedIn.add(path.dirname(candidate));
      fileReads.add({
        target: { kind: 'file', path: candidate },
        how: `find_in_parent_folders("${path.basename(candidate)}")`,
      });
    },
    parentSearches: files.parentSearches ?? new Map(),
  };
  const read = new Set<string>();
  const problems: TerragruntProblem[] = [];
  const facts = source.configOf(file) ?? EMPTY_TERRAGRUNT;
  // Blocks are placed where they are written: a generated unit's in the file it is copied from.
  const written = source.writtenIn?.(file) ?? file;
  fileReads.add({ target: { kind: 'file', path: written }, how: 'its configuration' });
  const reads = new ConfigReader(source, dir, read, fileReads);
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

/** `base` with the file's locals (`local`), evaluated in `context`. */
function localsScope(
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

function evaluateIn(context: TerragruntContext, expr: Expr | TerragruntAttribute | undefined, scope: EvalScope): Value {
  if (!expr) return null;
  const target = 'expr' in expr ? expr.expr : expr;
  return withFunctions(terragruntFunctions(context), () => evaluate(target, scope));
}

/** The last layer (the unit over its includes) that has `pick`. */
function lastWith<T>(layers: readonly Layer[], pick: (facts: TerragruntFile) => T | undefined): [Layer, T] | undefined {
  for (let n = layers.length - 1; n >= 0; n--) {
    const found = pick(layers[n]!.facts);
    if (found !== undefined) return [layers[n]!, found];
  }
  return undefined;
}

function backendOf(layers: readonly Layer[]): UnitBackend | undefined {
  const found = lastWith(layers, (facts) => facts.remoteState);
  if (!found) return undefined;
  const [layer, setting] = found;
  let type: Value;
  let config: Value;
  if (setting.value) {
    const whole = evaluateIn(layer.context, setting.value, layer.scope);
    type = isObjectValue(whole) ? (whole.backend ?? null) : whole;
    config = isObjectValue(whole) ? (whole.config ?? null) : whole;
  } else {
    type = evaluateIn(layer.context, setting.backend, layer.scope);
    config = evaluateIn(layer.context, setting.config, layer.scope);
  }
  return {
    type: typeof type === 'string' ? type : isUnknown(type) ? type : unknown('remote_state has no backend'),
    config: isObjectValue(config) || isUnknown(config) ? config : unknown('remote_state has no config'),
    file: layer.file,
    range: setting.range,
    headerRange: setting.headerRange,
  };
}

/** Sources Terraform fetches (git, registry, archives): the code is not in the workspace. */
const REMOTE_SOURCE = /^(?:[a-z0-9]+::|tfr:|https?:|git@|github\.com\/|bitbucket\.org\/|s3:|gcs:)/i;

export function isRemoteSource(source: string): boolean {
  return REMOTE_SOURCE.test(source);
}

function codeDirOf(layers: readonly Layer[], dir: string, problems: TerragruntProblem[]): string | undefined {
  const found = lastWith(layers, (facts) => facts.source);
  if (!found) return dir;
  const [layer, attribute] = found;
  const value = evaluateIn(layer.context, attribute, layer.scope);
  if (typeof value !== 'string') {
    problems.push({
      file: layer.file,
      range: attribute.range,
      message: `terraform source is not known: ${reasonOf(value)}; its remote-state reads are not read`,
    });
    return undefined;
  }
  if (isRemoteSource(value)) return undefined;
  // `../modules//vpc?ref=x`: `//` separates the package from a folder inside it.
  const local = value.replace(/\?.*$/, '').replace(/\/\//g, '/');
  return path.resolve(dir, local);
}

function inputsOf(layers: readonly Layer[]): Map<string, Value> {
  const inputs = new Map<string, Value>();
  for (const layer of layers) {
    const value = layer.inputs ?? evaluateIn(layer.context, layer.facts.inputs, layer.scope);
    if (isObjectValue(value)) for (const [name, input] of Object.entries(value)) inputs.set(name, input);
  }
  return inputs;
}

/** Dependencies of every layer; a `dependency` block of the unit replaces an included one of the same name. */
function dependenciesOf(layers: readonly Layer[], dir: string): UnitDependency[] {
  // A block turned off (`enabled = false`) still replaces an included one of its name: with nothing.
  const blocks = new Map<string, UnitDependency | undefined>();
  const paths: UnitDependency[] = [];
  for (const layer of layers) {
    for (const block of layer.facts.dependencies) blocks.set(block.name, dependencyOf(layer, block, dir));
    const attribute = layer.facts.dependencyPaths;
    if (attribute) paths.push(...pathsOf(layer, attribute, dir));
  }
  return [...[...blocks.values()].filter((block) => block !== undefined), ...paths];
}

/** A `dependency` block's edge; none when `enabled` is false (unknown: kept, a run may enable it). */
function dependencyOf(layer: Layer, block: DependencyBlock, dir: string): UnitDependency | undefined {
  if (block.enabled && evaluateIn(layer.context, block.enabled, layer.scope) === false) return undefined;
  const value = block.configPath ? evaluateIn(layer.context, block.configPath, layer.scope) : undefined;
  return {
    name: block.name,
    kind: 'dependency',
    dir: targetDir(value, dir, `dependency "${block.name}" has no config_path`),
    file: layer.file,
    range: block.range,
    headerRange: block.headerRange,
  };
}

/** Each entry of `dependencies { paths = [...] }`, with its own range when the list is written out. */
function pathsOf(layer: Layer, attribute: TerragruntAttribute, dir: string): UnitDependency[] {
  const value = evaluateIn(layer.context, attribute, layer.scope);
  const items = attribute.expr.kind === 'tuple' ? attribute.expr.items : [];
  if (!Array.isArray(value)) {
    // Terragrunt refuses a single path: it must be a list, even of one.
    const single = typeof value === 'string';
    const missing = single
      ? `dependencies paths must be a list, even of one path: paths = [${JSON.stringify(value)}]`
      : 'dependencies paths is not a list';
    return [
      {
        name: 'paths',
        kind: 'dependencies',
        dir: single ? { unknown: true, error: true, reasons: [missing] } : targetDir(value, dir, missing),
        ...(single ? { refused: true } : {}),
        file: layer.file,
        range: attribute.range,
        headerRange: attribute.range,
      },
    ];
  }
  return value.map((entry, index) => {
    const range = items.length === value.length ? items[index]!.range : attribute.range;
    return {
      name: typeof entry === 'string' ? entry : `paths[${index}]`,
      kind: 'dependencies',
      dir: targetDir(entry, dir, 'a dependencies path is not a string'),
      file: layer.file,
      range,
      headerRange: range,
    };
  });
}

function targetDir(value: Value | undefined, dir: string, missing: string): string | Unknown {
  if (value === undefined || value === null) return { unknown: true, error: true, reasons: [missing] };
  if (typeof value === 'string') return path.resolve(dir, value);
  return isUnknown(value) ? value : { unknown: true, error: true, reasons: [missing] };
}

/** `generate` blocks, the unit's over the included ones by name: their files, when the contents are known. */
function generatedOf(layers: readonly Layer[], dir: string, problems: TerragruntProblem[]): EvaluatedUnit['generated'] {
  const byName = new Map<string, EvaluatedUnit['generated'][number]>();
  for (const layer of layers) {
    for (const block of layer.facts.generates) {
      const name = evaluateIn(layer.context, block.path, layer.scope);
      const contents = evaluateIn(layer.context, block.contents, layer.scope);
      if (typeof contents === 'string') {
        byName.set(block.name, {
          file: path.join(dir, typeof name === 'string' ? name : `${block.name}.tf`),
          text: contents,
          from: { file: layer.file, block: block.name, range: block.range },
        });
      } else if (block.name === 'backend') {
        byName.delete(block.name);
        problems.push({
          file: layer.file,
          range: block.range,
          message: `the generated backend is not known: ${reasonOf(contents)}`,
        });
      }
    }
  }
  return [...byName.values()];
}

/** `read_terragrunt_config`: a file's locals, inputs and attributes, evaluated with that file as the configuration; cached per unit. */
class ConfigReader {
  private readonly values = new Map<string, Value>();
  private readonly reading = new Set<string>();

  constructor(
    private readonly source: UnitSource,
    private readonly unitDir: string,
    private readonly readFiles: Set<string>,
    private readonly fileReads: ReadSet,
  ) {}

  read(file: string): Value {
    const cached = this.values.get(file);
    if (cached !== undefined) return cached;
    if (this.reading.has(file)) return unknown(`read_terragrunt_config: ${path.basename(file)} reads itself`);
    this.reading.add(file);
    this.readFiles.add(file);
    this.fileReads.prefer({ target: { kind: 'file', path: file }, how: 'read_terragrunt_config()' });
    const facts = this.source.configOf(file) ?? EMPTY_TERRAGRUNT;
    const context = contextFor(this.source, file, this.unitDir, (candidate) => this.read(candidate));
    const scope = localsScope(facts, context, EMPTY_SCOPE, [], file);
    for (const found of fileCallReads(facts, (expr) => evaluateIn(context, expr, scope), file))
      this.fileReads.add(found);
    const value: Record<string, Value> = { locals: scope.get('local') ?? {} };
    for (const attribute of facts.attributes) value[attribute.name] = evaluateIn(context, attribute, scope);
    value.inputs = evaluateIn(context, facts.inputs, scope);
    this.reading.delete(file);
    this.values.set(file, value);
    return value;
  }
}

/** The innermost Git working tree around `dir`, else the workspace folder. */
function repoRootOf(dir: string, source: UnitSource): string {
  let best: string | undefined;
  for (const root of source.gitRoots)
    if ((dir === root || dir.startsWith(root + path.sep)) && (!best || root.length > best.length)) best = root;
  return best ?? source.workspaceRoot;
}

function reasonOf(value: Value): string {
  if (isUnknown(value)) return value.reasons.join('; ');
  return `it is ${value === null ? 'null' : typeof value}, not a path`;
}

const EMPTY_TERRAGRUNT: TerragruntFile = Object.freeze(emptyTerragruntFile());
