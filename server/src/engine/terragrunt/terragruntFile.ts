import {
  type Expr,
  type HclAttribute,
  type HclBlock,
  type HclBody,
  type HclDocument,
  keyName,
  type Range,
} from '../hcl';

/**
 * What one Terragrunt configuration file (`terragrunt.hcl`, a `root.hcl`, an `env.hcl` read by
 * `read_terragrunt_config`) says that decides the graph: its includes, locals, dependencies, the
 * `remote_state` and `generate` blocks, the Terraform source and the inputs. Expressions are kept
 * unevaluated: their values depend on the unit that includes the file.
 */
export interface TerragruntFile {
  includes: IncludeBlock[];
  locals: TerragruntAttribute[];
  dependencies: DependencyBlock[];
  /** `dependencies { paths = [...] }`. */
  dependencyPaths: TerragruntAttribute | undefined;
  remoteState: RemoteStateSetting | undefined;
  generates: GenerateBlock[];
  /** `terraform { source = … }`. */
  source: TerragruntAttribute | undefined;
  /** What `terraform { extra_arguments "<name>" {…} }` blocks pass: `required_var_files`, `optional_var_files`, `arguments`. */
  extraArguments: { block: string; attribute: TerragruntAttribute }[];
  inputs: TerragruntAttribute | undefined;
  /** Top-level attributes other than `inputs` (what `read_terragrunt_config` exposes besides locals). */
  attributes: TerragruntAttribute[];
  /** A `terragrunt.stack.hcl`'s `unit` and `stack` blocks. */
  stackEntries: StackEntry[];
}

/** `unit "vpc" { source = "../units/vpc" path = "vpc" values = {…} }`, or the same as `stack`. */
export interface StackEntry {
  kind: 'unit' | 'stack';
  name: string;
  source: Expr | undefined;
  path: Expr | undefined;
  values: Expr | undefined;
  /** `no_dot_terragrunt_stack = true`: generated beside the stack file, not under `.terragrunt-stack/`. */
  noDot: Expr | undefined;
  range: Range;
  headerRange: Range;
}

export interface TerragruntAttribute {
  name: string;
  expr: Expr;
  range: Range;
}

export interface IncludeBlock {
  /** The label; `""` for the unlabelled `include {}` of older configurations. */
  name: string;
  path: Expr | undefined;
  expose: Expr | undefined;
  range: Range;
  headerRange: Range;
}

export interface DependencyBlock {
  name: string;
  configPath: Expr | undefined;
  /** `enabled = false` turns the block off: no dependency. */
  enabled: Expr | undefined;
  /** The keys of a `mock_outputs = {…}` object: outputs the dependency's code is expected to declare. */
  mockOutputs: { name: string; range: Range }[];
  /** `skip_outputs = true`: the dependency's outputs are not read, its mocks given in their place. */
  skipOutputs: Expr | undefined;
  range: Range;
  headerRange: Range;
}

/** `remote_state { backend = "s3" config = {…} }` (or as an attribute, `remote_state = {…}`). */
export interface RemoteStateSetting {
  backend: Expr | undefined;
  config: Expr | undefined;
  /** The whole object, when written as an attribute: `backend` and `config` are read from its value. */
  value: Expr | undefined;
  range: Range;
  headerRange: Range;
}

/** `generate "backend" { path = "backend.tf" contents = <<EOF … EOF }`. */
export interface GenerateBlock {
  name: string;
  path: Expr | undefined;
  contents: Expr | undefined;
  range: Range;
}

/** A file that says nothing. */
export function emptyTerragruntFile(): TerragruntFile {
  return {
    includes: [],
    locals: [],
    dependencies: [],
    dependencyPaths: undefined,
    remoteState: undefined,
    generates: [],
    source: undefined,
    extraArguments: [],
    inputs: undefined,
    attributes: [],
    stackEntries: [],
  };
}

/** The facts of a parsed Terragrunt file. */
export function terragruntFileFacts(document: HclDocument): TerragruntFile {
  const body = document.body;
  const facts = emptyTerragruntFile();
  for (const attr of body.attributes) {
    if (attr.name === 'inputs') facts.inputs = attr;
    else if (attr.name === 'remote_state')
      facts.remoteState = {
        backend: undefined,
        config: undefined,
        value: attr.expr,
        range: attr.range,
        headerRange: attr.nameRange,
      };
    else facts.attributes.push(attr);
  }
  for (const block of body.blocks) if (block.body) readBlock(facts, block, block.body);
  return facts;
}

function readBlock(facts: TerragruntFile, block: HclBlock, body: HclBody): void {
  switch (block.type) {
    case 'include':
      facts.includes.push({
        name: block.labels[0] ?? '',
        path: attribute(body, 'path')?.expr,
        expose: attribute(body, 'expose')?.expr,
        range: block.range,
        headerRange: block.headerRange,
      });
      break;
    case 'locals':
      facts.locals.push(...body.attributes);
      break;
    case 'dependency':
      if (block.labels[0] !== undefined)
        facts.dependencies.push({
          name: block.labels[0],
          configPath: attribute(body, 'config_path')?.expr,
          enabled: attribute(body, 'enabled')?.expr,
          mockOutputs: objectKeys(attribute(body, 'mock_outputs')?.expr),
          skipOutputs: attribute(body, 'skip_outputs')?.expr,
          range: block.range,
          headerRange: block.headerRange,
        });
      break;
    case 'dependencies':
      facts.dependencyPaths = attribute(body, 'paths');
      break;
    case 'remote_state':
      facts.remoteState = {
        backend: attribute(body, 'backend')?.expr,
        config: attribute(body, 'config')?.expr,
        value: undefined,
        range: block.range,
        headerRange: block.headerRange,
      };
      break;
    case 'generate':
      facts.generates.push({
        name: block.labels[0] ?? '',
        path: attribute(body, 'path')?.expr,
        contents: attribute(body, 'contents')?.expr,
        range: block.range,
      });
      break;
    case 'terraform':
      facts.source = attribute(body, 'source') ?? facts.source;
      for (const inner of body.blocks) {
        if (inner.type !== 'extra_arguments' || !inner.body) continue;
        for (const name of EXTRA_ARGUMENT_FILES) {
          const found = attribute(inner.body, name);
          if (found) facts.extraArguments.push({ block: inner.labels[0] ?? '', attribute: found });
        }
      }
      break;
    case 'unit':
    case 'stack':
      if (block.labels[0] !== undefined)
        facts.stackEntries.push({
          kind: block.type,
          name: block.labels[0],
          source: attribute(body, 'source')?.expr,
          path: attribute(body, 'path')?.expr,
          values: attribute(body, 'values')?.expr,
          noDot: attribute(body, 'no_dot_terragrunt_stack')?.expr,
          range: block.range,
          headerRange: block.headerRange,
        });
      break;
  }
}

/** The attributes of an `extra_arguments` block that may name files Terraform reads. */
const EXTRA_ARGUMENT_FILES = ['required_var_files', 'optional_var_files', 'arguments'];

/**
 * The expressions of a file that Terragrunt evaluates for a unit, beside its includes' paths and its
 * dependencies: where the files it reads through file functions are named.
 */
export function evaluatedExpressions(facts: TerragruntFile): Expr[] {
  const exprs: Expr[] = facts.locals.map((local) => local.expr);
  for (const attr of [facts.inputs, facts.source, ...facts.attributes]) if (attr) exprs.push(attr.expr);
  for (const { attribute: attr } of facts.extraArguments) exprs.push(attr.expr);
  const remote = facts.remoteState;
  for (const expr of [remote?.value, remote?.backend, remote?.config]) if (expr) exprs.push(expr);
  for (const generate of facts.generates)
    for (const expr of [generate.path, generate.contents]) if (expr) exprs.push(expr);
  return exprs;
}

function attribute(body: HclBody, name: string): HclAttribute | undefined {
  return body.attributes.find((attr) => attr.name === name);
}

/** Whether a file name is a Terragrunt configuration (not Terraform's lock file, not a Stacks file). */
export function isTerragruntFile(name: string): boolean {
  return name.endsWith('.hcl') && name !== '.terraform.lock.hcl' && !STACKS_FILE.test(name);
}

const STACKS_FILE = /\.(tfcomponent|tfstack|tfdeploy|tfquery)\.hcl$/;

/** The file that makes its folder a unit. */
export const UNIT_FILE = 'terragrunt.hcl';

/** The file that declares an explicit stack of units. */
export const STACK_FILE = 'terragrunt.stack.hcl';

/** Where `terragrunt stack generate` writes a stack's units, under the stack's folder. */
export const STACK_DIR = '.terragrunt-stack';

/** The literal keys of an object expression (`{ vpc_id = "mock" }`), with their ranges. */
function objectKeys(expr: Expr | undefined): { name: string; range: Range }[] {
  if (expr?.kind !== 'object') return [];
  return expr.items.flatMap(({ key }) => {
    const name = keyName(key);
    return name === undefined ? [] : [{ name, range: key.range }];
  });
}
