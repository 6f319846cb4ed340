import path from 'node:path';
import {
  catchValue,
  type EvalScope,
  evaluate,
  evaluateNamed,
  expressionReferences,
  hole,
  isObjectValue,
  isUnknown,
  type ObjectValue,
  objectOrUnknown,
  referencedNames,
  stringOrUnknown,
  toNumberValue,
  type Unknown,
  unknown,
  unknownText,
  type Value,
} from '../evaluation';
import type { Expr, Range } from '../hcl';
import { localPath, localSource } from './discovery';
import type {
  ChildModules,
  EvaluatedModule,
  FileInput,
  ModuleInput,
  ModuleProblem,
  Reference,
} from './evaluatedModule';
import type { FileFacts, NamedExpr, RemoteStateBlock } from './fileFacts';
import { moduleBackend } from './moduleBackend';
import { ModuleReads } from './moduleReads';

/** How deep local module calls are followed; deeper nesting is reported, not followed. */
const MAX_MODULE_DEPTH = 10;

/**
 * How many instances one `count` or `for_each` expands into, and a root module's evaluation in all,
 * child modules' instances included (`count = 4` ten calls deep is a million). Real monorepos read
 * states in a few instances, not thousands; past either limit the block is reported on its line
 * and read as one instance of unknown key, so its reads are unresolved, with the reason.
 */
export const MAX_BLOCK_INSTANCES = 10_000;
export const MAX_MODULE_INSTANCES = 10_000;

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
  const references = moduleReferences(context, children);
  if (input.terraformWorkspace === undefined && context.readsWorkspace.read) {
    const anyWorkspace: ModuleContext = {
      ...context,
      terraformWorkspace: ANY_WORKSPACE,
      instances: { left: MAX_MODULE_INSTANCES, reported: new Set() },
      problems: [],
      reads: undefined,
    };
    addAnyWorkspace(references, moduleReferences(anyWorkspace, children));
  }
  return {
    id: input.id,
    dir: input.dir,
    kind: 'module',
    // Its locals' problems are told once, by the references' scope.
    backend: moduleBackend(input, problems, context.early ? moduleScope(context, []) : undefined),
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

function sameValue(a: Value, b: Value): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

interface ModuleContext {
  /** The module's own folder. */
  dir: string;
  /** The root module's folder. */
  rootDir: string;
  files: readonly FileInput[];
  /** Values given from outside: tfvars for a root, call arguments for a child. */
  variables: (name: string) => Value | undefined;
  /** The module call path for instance names, e.g. `module.reader` (empty for the root). */
  prefix: string;
  /** Folders on the call path, to stop recursive calls. */
  stack: string[];
  /** `terraform.workspace`: a name, or unknown (any workspace). */
  terraformWorkspace: string | Unknown;
  /** Set when an expression read `terraform.workspace`. */
  readsWorkspace: { read: boolean };
  /**
   * How many more instances the evaluation may expand (`MAX_MODULE_INSTANCES`), shared with child
   * modules, and the blocks already reported past it (a call expanded a thousand times is told once).
   */
  instances: { left: number; reported: Set<string> };
  problems: ModuleProblem[];
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
  for (const { file, facts } of context.files) {
    for (const block of facts.remoteStates)
      for (const reference of blockInstances(block, file, scope, context)) references.push(reference);
    for (const call of facts.moduleCalls)
      for (const reference of childReferences(call, file, scope, context, children)) references.push(reference);
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
    ['path', { module: relativeModulePath(context), root: '.', cwd: context.rootDir }],
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

function relativeModulePath(context: ModuleContext): string {
  const relative = path.relative(context.rootDir, context.dir);
  return relative === '' ? '.' : relative.split(path.sep).join('/');
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

interface Instance {
  key: string | null;
  scope: EvalScope;
}

/**
 * The instances of a block with `for_each` or `count`: one per element, with `each` or `count`
 * in scope. An unknown collection gives one instance whose `each`/`count` is unknown, so the
 * reference is reported unresolved with the reason; so does one past the instance limits, reported
 * on the block's line.
 */
function expand(
  forEach: Expr | undefined,
  count: Expr | undefined,
  scope: EvalScope,
  context: ModuleContext,
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
function defaultedVariables(expr: Expr, context: ModuleContext): string[] {
  return [...referencedNames(expr, 'var')].filter((name) => context.variables(name) === undefined);
}

function withRoot(scope: EvalScope, name: string, value: Value): EvalScope {
  return new Map(scope).set(name, value);
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
