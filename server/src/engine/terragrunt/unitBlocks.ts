import path from 'node:path';
import {
  type EvalScope,
  isObjectValue,
  isUnknown,
  type ObjectValue,
  type Unknown,
  unknown,
  type Value,
} from '../evaluation';
import type { Range } from '../hcl';
import type { DependencyBlock, TerragruntAttribute, TerragruntFile } from './terragruntFile';
import type { TerragruntContext } from './terragruntFunctions';
import { evaluateIn, type TerragruntProblem } from './unitContext';

/** A file a `generate` block writes, and the block: its configuration file, label and range. */
export interface GeneratedFile {
  file: string;
  text: string;
  from: { file: string; block: string; range: Range };
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
export interface Layer {
  file: string;
  facts: TerragruntFile;
  scope: EvalScope;
  context: TerragruntContext;
  /** Its inputs, when evaluated already: an included file's are the unit's `include.<name>.inputs` too. */
  inputs?: Value;
}

/** The last layer (the unit over its includes) that has `pick`. */
function lastWith<T>(layers: readonly Layer[], pick: (facts: TerragruntFile) => T | undefined): [Layer, T] | undefined {
  for (let n = layers.length - 1; n >= 0; n--) {
    const found = pick(layers[n]!.facts);
    if (found !== undefined) return [layers[n]!, found];
  }
  return undefined;
}

export function backendOf(layers: readonly Layer[]): UnitBackend | undefined {
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

export function codeDirOf(layers: readonly Layer[], dir: string, problems: TerragruntProblem[]): string | undefined {
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

export function inputsOf(layers: readonly Layer[]): Map<string, Value> {
  const inputs = new Map<string, Value>();
  for (const layer of layers) {
    const value = layer.inputs ?? evaluateIn(layer.context, layer.facts.inputs, layer.scope);
    if (isObjectValue(value)) for (const [name, input] of Object.entries(value)) inputs.set(name, input);
  }
  return inputs;
}

/** Dependencies of every layer; a `dependency` block of the unit replaces an included one of the same name. */
export function dependenciesOf(layers: readonly Layer[], dir: string): UnitDependency[] {
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
export function generatedOf(layers: readonly Layer[], dir: string, problems: TerragruntProblem[]): GeneratedFile[] {
  const byName = new Map<string, GeneratedFile>();
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

export function reasonOf(value: Value): string {
  if (isUnknown(value)) return value.reasons.join('; ');
  return `it is ${value === null ? 'null' : typeof value}, not a path`;
}
