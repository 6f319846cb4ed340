import path from 'node:path';
import {
  catchValue,
  type EvalScope,
  evaluate,
  evaluateNamed,
  expressionReferences,
  folderRelative,
  hole,
  type ObjectValue,
  objectOrUnknown,
  referencedNames,
  stringOrUnknown,
  type Unknown,
  unknown,
  unknownText,
  type Value,
} from '../evaluation';
import { type Expr, FILE_START, type Range } from '../hcl';
import { localPath, localSource } from './discovery';
import type {
  ChildModules,
  EvaluatedModule,
  FileInput,
  ModuleInput,
  ModuleProblem,
  Reference,
} from './evaluatedModule';
import { guarded } from './evaluationFailure';
import type { FileFacts, NamedExpr, RemoteStateBlock } from './fileFacts';
import { type ExpansionContext, expand, MAX_MODULE_INSTANCES } from './instanceExpansion';
import { moduleBackend } from './moduleBackend';
import { ModuleReads } from './moduleReads';

/** How deep local module calls are followed; deeper nesting is reported, not followed. */
const MAX_MODULE_DEPTH = 10;

export function evaluateModule(input: ModuleInput, children: ChildModules): EvaluatedModule {
  const problems: ModuleProblem[] = [];
  const tfvars = tfvarValues(input.varFiles);
  for (const [name, value] of input.variables ?? []) tfvars.set(name, value);
  const context: ModuleContext = {
    dir: input.dir,
    rootDir: input.dir,
    files: input.files,
    variables: (name) => (tfvars.has(name) ? tfvars.get(name) : undefined),
    prefix: '',
    stack: [input.dir],
    terraformWorkspace: input.terraformWorkspace ?? 'default',
    readsWorkspace: { read: false },
    instances: { left: MAX_MODULE_INSTANCES, reported: new Set() },
    problems,
    early: input.engine === 'tofu',
    reads: new ModuleReads(input.reads),
  };
  // On the module's first file: what could not be evaluated of it, when no one block is to blame.
  const whole = { file: input.files[0]?.file ?? input.dir, range: FILE_START };
  const readsOf = { ...whole, what: "this module's reads of other states" };
  const references = guarded(problems, readsOf, () => moduleReferences(context, children), []);
  if (input.terraformWorkspace === undefined && context.readsWorkspace.read) {
    const anyWorkspace: ModuleContext = {
      ...context,
      terraformWorkspace: ANY_WORKSPACE,
      instances: { left: MAX_MODULE_INSTANCES, reported: new Set() },
      problems: [],
      reads: undefined,
    };
    // Only alternatives: the first evaluation told what fails, and a second that throws gives none.
    guarded([], readsOf, () => addAnyWorkspace(references, moduleReferences(anyWorkspace, children)), undefined);
  }
  // Apart from the reads: a module whose reads cannot be evaluated still writes its state there.
  const backend = guarded(
    problems,
    { ...whole, what: "this module's backend" },
    // Its locals' problems are told once, by the references' scope.
    () => moduleBackend(input, problems, context.early ? moduleScope(context, []) : undefined),
    undefined,
  );
  return {
    id: input.id,
    dir: input.dir,
    kind: 'module',
    backend,
    references,
    dependencies: [],
    problems,
    reads: context.reads!.list(),
  };
}

/**
 * Gives each reference whose address depends on `terraform.workspace` its address in any workspace, for
 * the matcher to try when the `default` one finds no writer. The second evaluation's references are
 * paired by block and instance (an instance that exists only in one evaluation has no alternative).
 */
function addAnyWorkspace(references: Reference[], anyWorkspace: readonly Reference[]): void {
  const byKey = new Map(anyWorkspace.map((reference) => [referenceKey(reference), reference]));
  for (const reference of references) {
    const other = byKey.get(referenceKey(reference));
    if (!other || (sameValue(other.config, reference.config) && sameValue(other.workspace, reference.workspace)))
      continue;
    reference.anyWorkspace = { config: other.config, workspace: other.workspace };
  }
}

/** How messages name the block of a reference: `data.terraform_remote_state.vpc`, `dependency.vpc`, `dependencies "../vpc"`. */
export function referenceLabel(reference: Reference): string {
  switch (reference.block) {
    case 'dependency':
      return `dependency.${reference.name}`;
    case 'dependencies':
      return `dependencies "${reference.name}"`;
    case 'component':
      return reference.name;
    default:
      return `data.terraform_remote_state.${reference.name}`;
  }
}

/** The same reference in two evaluations of a module: its block (file and name) and instance. */
export function referenceKey(reference: Reference): string {
  return `${reference.file}\0${reference.name}\0${reference.instance}`;
}

/** Whether two values are the same; values too deep to compare are taken to differ (an alternative kept). */
function sameValue(a: Value, b: Value): boolean {
  try {
    return a === b || JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

interface ModuleContext extends ExpansionContext {
  /** The module's own folder. */
  dir: string;
  /** The root module's folder. */
  rootDir: string;
  files: readonly FileInput[];
  /** The module call path for instance names, e.g. `module.reader` (empty for the root). */
  prefix: string;
  /** Folders on the call path, to stop recursive calls. */
  stack: string[];
  /** `terraform.workspace`: a name, or unknown (any workspace). */
  terraformWorkspace: string | Unknown;
  /** Set when an expression read `terraform.workspace`. */
  readsWorkspace: { read: boolean };
  /** OpenTofu's early evaluation: module sources (and the root's backend) see variables and locals. */
  early: boolean;
  /** What the module reads, found as it is evaluated; undefined in an evaluation that only finds addresses again. */
  reads: ModuleReads | undefined;
}

function moduleReferences(context: ModuleContext, children: ChildModules): Reference[] {
  const scope = moduleScope(context, context.problems);
  context.reads?.calls(context.files, scope, context.rootDir);
  const references: Reference[] = [];
  // Appended one by one: a spread of thousands of instances would pass them all as arguments.
  // Each block on its own: one that cannot be evaluated is an error on it, and loses only itself.
  for (const { file, facts } of context.files) {
    for (const block of facts.remoteStates) {
      const where = { file, range: block.headerRange, what: `data.terraform_remote_state.${block.name}` };
      const instances = guarded(context.problems, where, () => blockInstances(block, file, scope, context), []);
      for (const reference of instances) references.push(reference);
    }
    for (const call of facts.moduleCalls) {
      const where = { file, range: call.range, what: `the reads of module.${call.name}` };
      const read = guarded(context.problems, where, () => childReferences(call, file, scope, context, children), []);
      for (const reference of read) references.push(reference);
    }
  }
  return references;
}

/** `terraform`, noting whether its `workspace` is read: a module that never reads it needs no second evaluation. */
function terraformObject(context: ModuleContext): ObjectValue {
  return {
    get workspace(): Value {
      context.readsWorkspace.read = true;
      return context.terraformWorkspace;
    },
  };
}

/** `terraform.workspace` when no workspace was chosen for the second evaluation: one path segment, unknown. */
const ANY_WORKSPACE: Unknown = unknownText(
  [hole('terraform.workspace', ['terraform.workspace is the workspace selected at run time'], true)],
  ['terraform.workspace is the workspace selected at run time'],
);

/** A variable with no default and no value given: known at run time, a hole in any string made from it. */
function undefinedVariable(name: string): Unknown {
  const reason = `var.${name} has no default`;
  return unknownText([hole(`var.${name}`, [reason])], [reason]);
}

/** `var`, `local`, `path` and `terraform` for one module. */
function moduleScope(context: ModuleContext, problems: ModuleProblem[]): EvalScope {
  const base = new Map<string, Value>([
    ['path', { module: folderRelative(context.rootDir, context.dir), root: '.', cwd: context.rootDir }],
    ['terraform', terraformObject(context)],
  ]);
  const vars: Record<string, Value> = {};
  for (const { facts } of context.files) {
    for (const variable of facts.variables) {
      vars[variable.name] =
        context.variables(variable.name) ??
        (variable.default ? evaluate(variable.default, base) : undefinedVariable(variable.name));
    }
  }
  base.set('var', vars);
  const locals = new Map<string, NamedExpr>();
  const where = new Map<string, { file: string; range: Range }>();
  for (const { file, facts } of context.files) {
    for (const local of facts.locals) {
      if (locals.has(local.name))
        problems.push({ file, range: local.range, message: `local.${local.name} is defined more than once` });
      locals.set(local.name, local);
      where.set(local.name, { file, range: local.range });
    }
  }
  // Only the locals a remote-state read or a local module call reaches: a generated file's
  // thousands of others are never evaluated.
  const evaluated = evaluateNamed(reachedLocals(context.files, locals, context.early), 'local', base);
  for (const cycle of evaluated.cycles) {
    const at = where.get(cycle[0]!)!;
    problems.push({ ...at, message: `${cycle.map((name) => `local.${name}`).join(' -> ')} is a cycle` });
  }
  base.set('local', Object.fromEntries(evaluated.values));
  return base;
}

/**
 * The locals that the module's remote-state blocks, local module calls and file functions use, directly or
 * through other locals; `early`: also its backend's and the module sources' (OpenTofu evaluates them).
 */
function reachedLocals(
  files: readonly FileInput[],
  locals: ReadonlyMap<string, NamedExpr>,
  early: boolean,
): Map<string, Expr> {
  const reached = new Map<string, Expr>();
  const pending: string[] = [];
  const use = (expr: Expr | undefined) => {
    if (!expr) return;
    for (const name of referencedNames(expr, 'local')) {
      const local = locals.get(name);
      if (local === undefined || reached.has(name)) continue;
      reached.set(name, local.expr);
      pending.push(name);
    }
  };
  for (const { facts } of files) {
    for (const block of facts.remoteStates) {
      for (const expr of [block.backend, block.config, block.workspace, block.forEach, block.count]) use(expr);
    }
    for (const call of facts.fileCalls) for (const arg of call.args) use(arg);
    if (early) for (const backend of facts.backends) use(backend.config);
    for (const call of facts.moduleCalls) {
      // A source made of variables and locals may be a local path once OpenTofu evaluates it.
      if (early && call.source !== undefined && expressionReferences(call.source).length > 0) use(call.source);
      else if (localSource(call.source) === undefined) continue;
      use(call.forEach);
      use(call.count);
      for (const arg of call.args) use(arg.expr);
    }
  }
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) use(reached.get(name));
  return reached;
}

/** One reference per `for_each` key or `count` index, or one for a plain block. */
function blockInstances(block: RemoteStateBlock, file: string, scope: EvalScope, context: ModuleContext): Reference[] {
  const make = (instance: string | null, instanceScope: EvalScope): Reference => ({
    name: block.name,
    file,
    range: block.range,
    headerRange: block.headerRange,
    instance: joinInstance(context.prefix, instance),
    backend: stringOrUnknown(
      block.backend ? evaluate(block.backend, instanceScope) : unknown('backend is not set'),
      'backend',
    ),
    config: objectOrUnknown(block.config ? evaluate(block.config, instanceScope) : {}, 'config'),
    workspace: block.workspace ? stringOrUnknown(evaluate(block.workspace, instanceScope), 'workspace') : 'default',
    cwd: context.rootDir,
  });
  const where = { file, range: block.headerRange, what: `data.terraform_remote_state.${block.name}` };
  return expand(block.forEach, block.count, scope, context, where).map(({ key, scope: s }) => make(key, s));
}

function joinInstance(prefix: string, key: string | null): string | null {
  if (!prefix) return key;
  return key === null ? prefix : `${prefix}[${JSON.stringify(key)}]`;
}

/** The remote_state blocks of a local child module, evaluated with the call's arguments. */
function childReferences(
  call: FileFacts['moduleCalls'][number],
  file: string,
  scope: EvalScope,
  context: ModuleContext,
  children: ChildModules,
): Reference[] {
  const problems = context.problems;
  const source = context.early ? earlySource(call.source, scope) : localSource(call.source);
  if (source === undefined) return [];
  const childDir = path.resolve(context.dir, source);
  const callName = `module.${call.name}`;
  const callPath = context.prefix ? `${context.prefix}.${callName}` : callName;
  context.reads?.folder(childDir, callPath, { file, line: call.range.start.line + 1 });
  if (context.stack.includes(childDir)) {
    problems.push({
      file,
      range: call.range,
      message: `module.${call.name} calls ${source}, which is already on the call path`,
    });
    return [];
  }
  if (context.stack.length > MAX_MODULE_DEPTH) {
    problems.push({
      file,
      range: call.range,
      message: `module.${call.name} is nested deeper than ${MAX_MODULE_DEPTH} calls; not followed`,
    });
    return [];
  }
  const childFiles = children(childDir);
  if (!childFiles) {
    problems.push({ file, range: call.range, message: `module.${call.name}: no Terraform files in ${source}` });
    return [];
  }
  const references: Reference[] = [];
  const where = { file, range: call.range, what: `module.${call.name}` };
  for (const instance of expand(call.forEach, call.count, scope, context, where)) {
    const args = new Map(call.args.map((arg: NamedExpr) => [arg.name, evaluate(arg.expr, instance.scope)]));
    const childContext: ModuleContext = {
      dir: childDir,
      rootDir: context.rootDir,
      files: childFiles,
      variables: (name) => args.get(name),
      prefix: callPath,
      stack: [...context.stack, childDir],
      terraformWorkspace: context.terraformWorkspace,
      readsWorkspace: context.readsWorkspace,
      instances: context.instances,
      problems,
      early: context.early,
      reads: context.reads,
    };
    if (instance.key !== null) childContext.prefix += `[${JSON.stringify(instance.key)}]`;
    for (const reference of moduleReferences(childContext, children)) references.push(reference);
  }
  return references;
}

/** A module source as OpenTofu reads it: evaluated with the module's variables and locals; a local path, or undefined. */
function earlySource(source: Expr | undefined, scope: EvalScope): string | undefined {
  if (source === undefined) return undefined;
  const literal = localSource(source);
  if (literal !== undefined) return literal;
  const value = catchValue(() => evaluate(source, scope));
  return typeof value === 'string' ? localPath(value) : undefined;
}

/** Values from terraform.tfvars and *.auto.tfvars; later files override earlier ones. */
function tfvarValues(varFiles: readonly FileInput[]): Map<string, Value> {
  const values = new Map<string, Value>();
  const empty: EvalScope = new Map();
  for (const { facts } of varFiles)
    for (const attr of facts.attributes) values.set(attr.name, evaluate(attr.expr, empty));
  return values;
}
