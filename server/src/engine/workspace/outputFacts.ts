import {
  type Expr,
  type ForExpr,
  forEachSubexpression,
  type HclAttribute,
  type HclBlock,
  type HclBody,
  keyName,
  type Range,
  type TraversalStep,
} from '../hcl';
import type { TerragruntFile } from '../terragrunt';

/**
 * The two sides of the contract between states, as one file states them: the `output` blocks a module
 * declares, and every reference that may read another state's outputs — `data.terraform_remote_state.<name>…`,
 * a Terragrunt `dependency.<name>…`, a Stack's `component.<name>…` — with `local.<name>…`, `var.<name>…` and
 * `module.<call>…` references, which read outputs when a local, a module argument or a child module's output
 * carries a state's outputs (which ones do is known only for the whole module: `contracts/` decides).
 */

/**
 * Where a read of another state's outputs can start: the roots of the references above, and `lookup`,
 * whose first argument may be one. The parser builds expressions that start here even in the bodies it
 * skips (resources), which `outputReferences` reads as those blocks' `references`.
 */
export const OUTPUT_READ_ROOTS: ReadonlySet<string> = new Set([
  'data',
  'dependency',
  'component',
  'local',
  'var',
  'module',
  'lookup',
]);

/** `output "<name>" {…}`. */
export interface OutputDecl {
  name: string;
  range: Range;
  /** The name's label, quotes included. */
  nameRange: Range;
  description: string | undefined;
  sensitive: boolean;
  /** The `value` expression's range (its text is read from the file when shown). */
  valueRange: Range | undefined;
}

/** A step of a reference after its name: an attribute or a literal key, or a key known only at run time. */
export type PathKey =
  /**
   * `quoted`: written `["name"]`, its range over the quotes; `defaulted`: `lookup`'s key with a default,
   * which Terraform returns when the key is missing. The name as HCL compares it: in NFC.
   */
  | { kind: 'name'; name: string; range: Range; quoted?: boolean; defaulted?: boolean }
  | { kind: 'dynamic'; range: Range }
  /** `[*]`, `.*`, or an instance's `[count.index]`: every element. */
  | { kind: 'splat'; range: Range };

export type ReferenceRoot = 'remote-state' | 'dependency' | 'component' | 'local' | 'var' | 'module';

/** Where a reference is the whole value of a local or a module argument, or of an object key inside one. */
export type Binding =
  | { to: 'local' | 'output'; name: string; at: readonly string[] }
  | { to: 'module'; module: string; argument: string; at: readonly string[] };

export interface OutputReference {
  root: ReferenceRoot;
  /** The remote state's, dependency's, component's, local's or variable's name. */
  name: string;
  keys: PathKey[];
  range: Range;
  binding?: Binding;
  /** The innermost `try` or `can` argument the reference is in. */
  guard?: TryGuard;
}

/**
 * A `try(…)` or `can(…)` call: Terraform turns an error in one argument into the next argument, and
 * `can`'s into false. `can(x)` counts as `try(x, false)`: two arguments, the second never failing.
 */
export interface TryCall {
  args: number;
  /** The `try` argument the call itself is in. */
  outer: TryGuard | undefined;
}

/** An argument of a `try` or `can` call. */
export interface TryGuard {
  call: TryCall;
  arg: number;
}

/** The `output` blocks of a file. */
export function outputDeclarations(body: HclBody): OutputDecl[] {
  const outputs: OutputDecl[] = [];
  for (const block of body.blocks) {
    if (block.type !== 'output' || block.labels[0] === undefined) continue;
    const attrs = block.body?.attributes ?? [];
    const description = attrs.find((attr) => attr.name === 'description')?.expr;
    const sensitive = attrs.find((attr) => attr.name === 'sensitive')?.expr;
    outputs.push({
      name: block.labels[0].normalize('NFC'),
      range: block.range,
      nameRange: block.labelRanges[0] ?? block.headerRange,
      description: description ? literalText(description) : undefined,
      sensitive: sensitive?.kind === 'literal' && sensitive.value === true,
      valueRange: attrs.find((attr) => attr.name === 'value')?.expr.range,
    });
  }
  return outputs;
}

/** A string literal, or a template of text only. */
function literalText(expr: Expr): string | undefined {
  if (expr.kind === 'literal') return typeof expr.value === 'string' ? expr.value : undefined;
  if (expr.kind === 'template' && expr.parts.every((part) => typeof part === 'string')) return expr.parts.join('');
  return undefined;
}

/**
 * A Terragrunt file's references, in its `locals`, `inputs` and `generate` blocks, read from what the file
 * says (kept anyway) when the contracts first ask, once per file content: the commands that check no
 * contract do not pay for them.
 */
export function terragruntReferences(file: TerragruntFile): readonly OutputReference[] {
  let found = terragruntFound.get(file);
  if (!found) {
    found = [];
    const walk = topWalk(found);
    for (const local of file.locals) bind(local.expr, { to: 'local', name: local.name, at: [] }, walk);
    if (file.inputs) visit(file.inputs.expr, walk);
    for (const generate of file.generates) if (generate.contents) visit(generate.contents, walk);
    terragruntFound.set(file, found);
  }
  return found;
}

const terragruntFound = new WeakMap<TerragruntFile, OutputReference[]>();

/** Every reference of a file's body, in blocks at any depth, with the locals and module arguments they are bound to. */
export function outputReferences(body: HclBody): OutputReference[] {
  const found: OutputReference[] = [];
  visitBody(body, undefined, topWalk(found));
  return found;
}

/**
 * Where a walk over an expression is: the references found so far, the `try` argument it is in, and the
 * iteration variables of the `for` expressions around it that stand for one instance of a state.
 */
interface Walk {
  found: OutputReference[];
  guard: TryGuard | undefined;
  iterators: ReadonlyMap<string, OutputReference>;
}

function topWalk(found: OutputReference[]): Walk {
  return { found, guard: undefined, iterators: NO_ITERATORS };
}

const NO_ITERATORS: ReadonlyMap<string, OutputReference> = new Map();

function visitBody(body: HclBody, block: HclBlock | undefined, walk: Walk): void {
  for (const attr of body.attributes) visitAttribute(attr, block, walk);
  for (const inner of body.blocks) {
    if (inner.body) visitBody(inner.body, inner, walk);
    for (const expr of inner.references ?? []) visit(expr, walk);
  }
}

function visitAttribute(attr: HclAttribute, block: HclBlock | undefined, walk: Walk): void {
  // Only the references found are kept: a `.tf.json` attribute's expression is not kept converted for them.
  const expr = attr.transientExpr?.() ?? attr.expr;
  const binding = bindingOf(attr, block);
  if (binding) bind(expr, binding, walk);
  else visit(expr, walk);
}

/** A local's value, an `output` block's, a module call's argument: what they hold may be read whole elsewhere. */
function bindingOf(attr: HclAttribute, block: HclBlock | undefined): Binding | undefined {
  const label = block?.labels[0];
  if (block?.type === 'locals') return { to: 'local', name: attr.name, at: [] };
  if (block?.type === 'output' && label !== undefined && attr.name === 'value')
    return { to: 'output', name: label, at: [] };
  if (block?.type === 'module' && label !== undefined)
    return { to: 'module', module: label, argument: attr.name, at: [] };
  return undefined;
}

/** A value that may carry a reference whole: as itself, in an object's keys, or as `try`'s first choice. */
function bind(expr: Expr, binding: Binding, walk: Walk): void {
  const reference = referenceOf(expr, walk);
  if (reference) {
    walk.found.push({ ...reference, binding });
    visitKeys(reference.keys, expr, walk);
    return;
  }
  if (expr.kind === 'object') {
    for (const item of expr.items) {
      const key = keyName(item.key) ?? literalText(item.key);
      visit(item.key, walk);
      if (key === undefined) visit(item.value, walk);
      else bind(item.value, { ...binding, at: [...binding.at, key.normalize('NFC')] }, walk);
    }
    return;
  }
  if (expr.kind === 'call' && expr.name === 'try' && expr.args.length > 0) {
    const call: TryCall = { args: expr.args.length, outer: walk.guard };
    bind(expr.args[0]!, binding, { ...walk, guard: { call, arg: 0 } });
    expr.args.forEach((arg, i) => {
      if (i > 0) visit(arg, { ...walk, guard: { call, arg: i } });
    });
    return;
  }
  visit(expr, walk);
}

/**
 * Records the references of an expression; a reference's own index keys are visited, not recorded twice.
 * Inside `try` and `can`, each reference notes the argument it is in; inside `[for s in <a state> : …]`,
 * `s` stands for one instance of that state.
 */
function visit(expr: Expr, walk: Walk): void {
  const reference = referenceOf(expr, walk);
  if (reference) {
    if (!CARRIER_ROOTS.has(reference.root) || reference.keys.length > 0) walk.found.push(reference);
    visitKeys(reference.keys, expr, walk);
    return;
  }
  // A traversal that reads no other state's outputs ends the walk: its index keys are not read.
  if (expr.kind === 'traversal') return;
  if (expr.kind === 'call' && (expr.name === 'try' || expr.name === 'can') && expr.args.length > 0) {
    const call: TryCall = { args: expr.name === 'can' ? 2 : expr.args.length, outer: walk.guard };
    expr.args.forEach((arg, i) => {
      visit(arg, { ...walk, guard: { call, arg: i } });
    });
    return;
  }
  if (expr.kind === 'for') {
    visit(expr.collection, walk);
    const inner = { ...walk, iterators: iteratorsIn(expr, walk) };
    for (const part of [expr.key, expr.value, expr.condition]) if (part) visit(part, inner);
    return;
  }
  forEachSubexpression(expr, (inner) => visit(inner, walk));
}

/**
 * The iteration variables inside a `for` expression: its value variable stands for one instance of a
 * state when it iterates over a `for_each` remote state or component itself (`for s in data.terraform_remote_state.x`);
 * its own variables hide the outer ones of the same names.
 */
function iteratorsIn(expr: ForExpr, walk: Walk): ReadonlyMap<string, OutputReference> {
  const collection = referenceOf(expr.collection, walk);
  const instances =
    collection &&
    (collection.root === 'remote-state' || collection.root === 'component') &&
    collection.keys.length === 0
      ? collection
      : undefined;
  const own = [expr.keyVar, expr.valueVar];
  if (!instances && !own.some((name) => name !== undefined && walk.iterators.has(name))) return walk.iterators;
  const iterators = new Map(walk.iterators);
  for (const name of own) if (name !== undefined) iterators.delete(name);
  if (instances) iterators.set(expr.valueVar, instances);
  return iterators;
}

/** The keys' own expressions (`outputs[local.k]`): references inside them are references too. */
function visitKeys(keys: readonly PathKey[], expr: Expr, walk: Walk): void {
  if (!keys.some((key) => key.kind === 'dynamic')) return;
  for (const key of dynamicKeyExprs(expr)) visit(key, walk);
}

function dynamicKeyExprs(expr: Expr): Expr[] {
  switch (expr.kind) {
    case 'traversal':
    case 'splat':
      return expr.steps.flatMap((step) => (step.kind === 'index' && !isLiteralKey(step.key) ? [step.key] : []));
    case 'index':
      return [...dynamicKeyExprs(expr.target), ...(isLiteralKey(expr.key) ? [] : [expr.key])];
    case 'getattr':
      return dynamicKeyExprs(expr.target);
    case 'call':
      return [...dynamicKeyExprs(expr.args[0]!), ...expr.args.slice(1)];
    default:
      return [];
  }
}

function isLiteralKey(expr: Expr): boolean {
  return expr.kind === 'literal' && (typeof expr.value === 'string' || typeof expr.value === 'number');
}

const ROOTS: Record<string, ReferenceRoot> = {
  dependency: 'dependency',
  component: 'component',
  local: 'local',
  var: 'var',
  module: 'module',
};

/** Roots that read outputs only when what they name carries them: recorded with a member, or bound whole. */
const CARRIER_ROOTS: ReadonlySet<ReferenceRoot> = new Set(['local', 'var', 'module']);

/**
 * The reference an expression is, keys and all: a traversal, an attribute or index applied to one
 * (`(data.x.outputs).y`), or `lookup(<reference>, "key", default)`; with the `try` argument it is in.
 */
function referenceOf(expr: Expr, walk: Walk): OutputReference | undefined {
  const reference = referenceIn(expr, walk.iterators);
  return reference && walk.guard ? { ...reference, guard: walk.guard } : reference;
}

function referenceIn(expr: Expr, iterators: ReadonlyMap<string, OutputReference>): OutputReference | undefined {
  const referenceOf = (inner: Expr) => referenceIn(inner, iterators);
  switch (expr.kind) {
    case 'traversal': {
      // `s.outputs.x` where `s` iterates over a state's instances: an instance not known before the plan.
      const instances = iterators.get(expr.root);
      if (instances)
        return {
          ...instances,
          keys: [{ kind: 'dynamic', range: expr.range }, ...stepKeys(expr.steps, expr.range)],
          range: expr.range,
        };
      return traversalReference(expr.root, expr.steps, expr.range);
    }
    case 'splat': {
      const target = referenceOf(expr.target);
      if (!target) return undefined;
      return {
        ...target,
        keys: [...target.keys, { kind: 'splat', range: expr.range }, ...stepKeys(expr.steps, expr.range)],
        range: expr.range,
      };
    }
    case 'getattr': {
      const target = referenceOf(expr.target);
      if (!target) return undefined;
      const end = expr.range.end;
      const range = { start: { line: end.line, character: Math.max(0, end.character - expr.name.length) }, end };
      return {
        ...target,
        keys: [...target.keys, { kind: 'name', name: expr.name.normalize('NFC'), range }],
        range: expr.range,
      };
    }
    case 'index': {
      const target = referenceOf(expr.target);
      if (!target) return undefined;
      return { ...target, keys: [...target.keys, indexKey(expr.key)], range: expr.range };
    }
    case 'call': {
      if (expr.name !== 'lookup' || expr.args.length < 2) return undefined;
      const target = referenceOf(expr.args[0]!);
      if (!target) return undefined;
      const key = indexKey(expr.args[1]!);
      // With a default, a missing key is no error: Terraform returns the default.
      const defaulted = key.kind === 'name' && expr.args.length > 2 ? { ...key, defaulted: true } : key;
      return { ...target, keys: [...target.keys, defaulted], range: expr.range };
    }
    default:
      return undefined;
  }
}

function traversalReference(root: string, steps: readonly TraversalStep[], range: Range): OutputReference | undefined {
  if (root === 'data') {
    const [kind, name] = steps;
    if (kind?.kind !== 'attr' || kind.name !== 'terraform_remote_state' || name?.kind !== 'attr') return undefined;
    return { root: 'remote-state', name: name.name, keys: stepKeys(steps.slice(2), range), range };
  }
  const known = ROOTS[root];
  const [name] = steps;
  if (known === undefined || name?.kind !== 'attr') return undefined;
  return { root: known, name: name.name, keys: stepKeys(steps.slice(1), range), range };
}

function stepKeys(steps: readonly TraversalStep[], whole: Range): PathKey[] {
  return steps.map((step): PathKey => {
    if (step.kind === 'attr') return { kind: 'name', name: step.name.normalize('NFC'), range: step.range ?? whole };
    if (step.kind === 'index') return indexKey(step.key);
    return { kind: 'splat', range: whole };
  });
}

/** `["name"]` and `[0]` are keys; `[var.k]`, `[each.key]` are known only at run time. */
function indexKey(key: Expr): PathKey {
  if (key.kind === 'literal' && typeof key.value === 'number')
    return { kind: 'name', name: String(key.value), range: key.range };
  const text = literalText(key);
  if (text !== undefined) return { kind: 'name', name: text.normalize('NFC'), range: key.range, quoted: true };
  return { kind: 'dynamic', range: key.range };
}
