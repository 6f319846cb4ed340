import { fileCalls } from '../evaluation';
import type {
  CallExpr,
  Expr,
  HclAttribute,
  HclBlock,
  HclBody,
  HclDocument,
  HclSyntaxError,
  ObjectExpr,
  Range,
} from '../hcl';
import type { StackFile } from '../stacks';
import type { TerragruntFile } from '../terragrunt';
import type { GenerateOutputs } from './generatedOutputs';
import { type OutputDecl, type OutputReference, outputDeclarations, outputReferences } from './outputFacts';

/**
 * What one Terraform file contributes to its module's analysis: backend, remote-state reads,
 * locals, variables and module calls, each with its range. Extracted once per file content and
 * cached; the tree it came from is already freed.
 */
export interface FileFacts {
  backends: BackendBlock[];
  remoteStates: RemoteStateBlock[];
  locals: NamedExpr[];
  variables: VariableDecl[];
  moduleCalls: ModuleCall[];
  /** The module's `output` blocks. */
  outputs: OutputDecl[];
  /**
   * References that may read another state's outputs (see `outputFacts.ts`); a Terragrunt file's come from
   * what it says, when asked (`terragruntReferences`).
   */
  outputReferences: readonly OutputReference[];
  /** Top-level attributes: the contents of `.tfvars` and backend config files. */
  attributes: NamedExpr[];
  /** Calls of file functions (`file`, `templatefile`, `fileset`, …) anywhere in the file: the files its module reads. */
  fileCalls: readonly CallExpr[];
  /** Arguments of data sources that read files at plan time (`data "archive_file"`'s `source_file`): what they name. */
  fileArguments: FileArgument[];
  /** For a Terragrunt configuration file (`*.hcl`): what it says, instead of the Terraform facts. */
  terragrunt?: TerragruntFile;
  /** The `output` blocks its `generate` blocks write, where they are written. */
  generateOutputs?: GenerateOutputs[];
  /** For a Terraform Stack's file (`*.tfcomponent.hcl`, `*.tfdeploy.hcl`): what it says. */
  stack?: StackFile;
  syntaxErrors: HclSyntaxError[];
}

/**
 * An argument of a data source that reads files while Terraform plans: `file` names one, `folder` every file
 * below it, `program` a command whose arguments may be files (`data "external"`).
 */
export interface FileArgument {
  /** `data.archive_file.lambda`. */
  block: string;
  reads: 'file' | 'folder' | 'program';
  expr: Expr;
  range: Range;
}

/** The data sources that read files at plan time, and which of their arguments name them. */
const FILE_DATA_SOURCES: Readonly<Record<string, Readonly<Record<string, FileArgument['reads']>>>> = {
  archive_file: { source_file: 'file', source_dir: 'folder' },
  external: { program: 'program' },
  local_file: { filename: 'file' },
  local_sensitive_file: { filename: 'file' },
};

export interface NamedExpr {
  name: string;
  expr: Expr;
  range: Range;
}

/** `terraform { backend "<type>" {…} }`, or `terraform { cloud {…} }` (type `remote`). */
export interface BackendBlock {
  type: string;
  /** The settings as one object expression (attributes and nested blocks such as `workspaces`). */
  config: ObjectExpr;
  range: Range;
  headerRange: Range;
  cloud: boolean;
}

export interface RemoteStateBlock {
  name: string;
  range: Range;
  headerRange: Range;
  backend: Expr | undefined;
  /** `config = {…}` or the old `config {…}` block, as one expression. */
  config: Expr | undefined;
  workspace: Expr | undefined;
  forEach: Expr | undefined;
  count: Expr | undefined;
  defaults: Expr | undefined;
}

export interface VariableDecl {
  name: string;
  default: Expr | undefined;
  range: Range;
}

export interface ModuleCall {
  name: string;
  source: Expr | undefined;
  /** The call's arguments: the child module's input variables. */
  args: NamedExpr[];
  forEach: Expr | undefined;
  count: Expr | undefined;
  range: Range;
}

/** Meta-arguments of a module call that are not the child's variables. */
const MODULE_META = new Set(['source', 'version', 'providers', 'depends_on', 'count', 'for_each']);

/**
 * Blocks whose contents the analysis reads; the parser skips the bodies of all others (resources,
 * most data sources), building there only what may read another state's outputs (`OUTPUT_READ_ROOTS`).
 */
export function keepBody(type: string, labels: readonly string[], depth: number): boolean {
  if (depth === 0) {
    if (type === 'data')
      return labels[0] === 'terraform_remote_state' || FILE_DATA_SOURCES[labels[0] ?? ''] !== undefined;
    return type === 'terraform' || type === 'locals' || type === 'variable' || type === 'module' || type === 'output';
  }
  return true;
}

/**
 * Whether a file can contribute anything: a file without any of these words needs no parse.
 * Cheap enough to run on every file of a large workspace.
 */
const RELEVANT =
  /terraform_remote_state|\bdata\s+"(?:archive_file|external|local_(?:sensitive_)?file)"|\bbackend\b|\bcloud\b|\blocals\b|\bvariable\b|\bmodule\b|\boutput\b|\b(?:local|var)\.[\w-]+\s*[.[]/;
export function mayHaveFacts(text: string): boolean {
  return RELEVANT.test(text) || mayCallFileFunctions(text);
}

/** Whether a file's text may call a file function: only then are its expressions walked for the calls. */
const FILE_CALL = /\b(?:file(?:base64(?:sha256|sha512)?|exists|md5|sha1|sha256|sha512|set)?|templatefile)\s*\(/;
export function mayCallFileFunctions(text: string): boolean {
  return FILE_CALL.test(text);
}

export const EMPTY_FACTS: FileFacts = Object.freeze({
  backends: [],
  remoteStates: [],
  locals: [],
  variables: [],
  moduleCalls: [],
  outputs: [],
  outputReferences: [],
  attributes: [],
  fileCalls: [],
  fileArguments: [],
  syntaxErrors: [],
}) as FileFacts;

/**
 * `references: false` for a Terragrunt file, whose references are read from its Terragrunt facts when asked;
 * `calls`: whether its text may call a file function (`mayCallFileFunctions`), whose calls are then kept.
 */
export function factsFromDocument(document: HclDocument, references = true, calls = false): FileFacts {
  const facts: FileFacts = {
    backends: [],
    remoteStates: [],
    locals: [],
    variables: [],
    moduleCalls: [],
    outputs: outputDeclarations(document.body),
    outputReferences: references ? outputReferences(document.body) : [],
    attributes: document.body.attributes.map(named),
    fileCalls: calls ? fileCallsOf(document.body) : [],
    fileArguments: [],
    syntaxErrors: document.errors,
  };
  for (const block of document.body.blocks) {
    if (!block.body) continue;
    switch (block.type) {
      case 'terraform':
        facts.backends.push(...backendsOf(block.body));
        break;
      case 'data':
        if (block.labels[0] === 'terraform_remote_state' && block.labels[1] !== undefined) {
          facts.remoteStates.push(remoteStateOf(block, block.body));
        } else facts.fileArguments.push(...fileArgumentsOf(block, block.body));
        break;
      case 'locals':
        // One at a time: a generated file may hold more locals than a call takes arguments.
        for (const attr of block.body.attributes) facts.locals.push(named(attr));
        break;
      case 'variable':
        if (block.labels[0] !== undefined) {
          facts.variables.push({
            name: block.labels[0],
            default: attribute(block.body, 'default'),
            range: block.range,
          });
        }
        break;
      case 'module':
        if (block.labels[0] !== undefined) facts.moduleCalls.push(moduleCallOf(block.labels[0], block, block.body));
        break;
    }
  }
  return facts;
}

/** The arguments of a data source of `FILE_DATA_SOURCES` that name files. */
function fileArgumentsOf(block: HclBlock, body: HclBody): FileArgument[] {
  const named = FILE_DATA_SOURCES[block.labels[0] ?? ''];
  if (!named || block.labels[1] === undefined) return [];
  const name = `data.${block.labels[0]}.${block.labels[1]}`;
  return body.attributes.flatMap((attr) => {
    const reads = named[attr.name];
    return reads ? [{ block: name, reads, expr: attr.expr, range: attr.range }] : [];
  });
}

/** The calls of file functions in a body: in its attributes at any depth, and in what skipped blocks kept (`references`). */
function fileCallsOf(body: HclBody, found: CallExpr[] = []): CallExpr[] {
  for (const attr of body.attributes) fileCalls(attr.expr, found);
  for (const block of body.blocks) {
    if (block.body) fileCallsOf(block.body, found);
    for (const expr of block.references ?? []) fileCalls(expr, found);
  }
  return found;
}

/** The attribute itself (it has a NamedExpr's shape): its `expr` may be converted only when read (`.tf.json`). */
function named(attr: HclAttribute): NamedExpr {
  return attr;
}

function attribute(body: HclBody, name: string): Expr | undefined {
  return body.attributes.find((attr) => attr.name === name)?.expr;
}

function backendsOf(body: HclBody): BackendBlock[] {
  const backends: BackendBlock[] = [];
  for (const block of body.blocks) {
    if (!block.body) continue;
    if (block.type === 'backend' && block.labels[0] !== undefined) {
      backends.push({
        type: block.labels[0],
        config: bodyAsObject(block.body, block.range),
        range: block.range,
        headerRange: block.headerRange,
        cloud: false,
      });
    } else if (block.type === 'cloud') {
      backends.push({
        type: 'remote',
        config: bodyAsObject(block.body, block.range),
        range: block.range,
        headerRange: block.headerRange,
        cloud: true,
      });
    }
  }
  return backends;
}

function remoteStateOf(block: HclBlock, body: HclBody): RemoteStateBlock {
  const configBlock = body.blocks.find((inner) => inner.type === 'config' && inner.body);
  return {
    name: block.labels[1]!,
    range: block.range,
    headerRange: block.headerRange,
    backend: attribute(body, 'backend'),
    config:
      attribute(body, 'config') ?? (configBlock?.body ? bodyAsObject(configBlock.body, configBlock.range) : undefined),
    workspace: attribute(body, 'workspace'),
    forEach: attribute(body, 'for_each'),
    count: attribute(body, 'count'),
    defaults: attribute(body, 'defaults'),
  };
}

function moduleCallOf(name: string, block: HclBlock, body: HclBody): ModuleCall {
  return {
    name,
    source: attribute(body, 'source'),
    args: body.attributes.filter((attr) => !MODULE_META.has(attr.name)).map(named),
    forEach: attribute(body, 'for_each'),
    count: attribute(body, 'count'),
    range: block.range,
  };
}

/**
 * A block body as one object expression: attributes as keys, nested blocks as objects under their
 * type (`workspaces { prefix = "x" }` → `workspaces = { prefix = "x" }`), the shape Terraform
 * gives the same settings written as an attribute.
 */
export function bodyAsObject(body: HclBody, range: Range): ObjectExpr {
  const items: ObjectExpr['items'] = body.attributes.map((attr) => ({
    key: { kind: 'literal', value: attr.name, range: attr.nameRange },
    value: attr.expr,
  }));
  for (const block of body.blocks) {
    if (!block.body) continue;
    items.push({
      key: { kind: 'literal', value: block.type, range: block.headerRange },
      value: bodyAsObject(block.body, block.range),
    });
  }
  return { kind: 'object', items, range };
}
