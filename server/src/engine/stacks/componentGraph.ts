import {
  type EvalScope,
  type ExpressionReference,
  evaluate,
  expressionReferences,
  isObjectValue,
  isUnknown,
  type Value,
} from '../evaluation';
import { type Expr, keyName, type Range } from '../hcl';
import type { ComponentBlock, EmbeddedStackBlock, ProviderBlock, StackAttribute, StackSourceFile } from './stackFile';
import { stackScope } from './stackScope';

/** A node of a Stack: a `component` block, or an embedded `stack` block. */
export interface StackNode {
  /** `component.cluster` or `stack.shared`: how the Stack's expressions name it. */
  address: string;
  kind: 'component' | 'stack';
  name: string;
  file: string;
  block: ComponentBlock | EmbeddedStackBlock;
  /** The evaluated `source`, when it is known. */
  source: string | undefined;
  /** A `for_each` node's instance keys when they are known; undefined without `for_each`. */
  instances: string[] | 'unknown' | undefined;
  /** The Stack's variables its arguments read (directly or through locals and providers): what deployments feed it. */
  variableReads: { name: string; range: Range; through: string | undefined }[];
  /** Each key of its `inputs` with the nodes its value reads: what an embedded Stack's variable waits for. */
  inputReads: Record<string, string[]>;
}

/** Why one node waits for another: the argument of the reader, and a local or provider in between. */
export type StackEdgeVia = 'inputs' | 'providers' | 'depends_on' | 'for_each' | 'upstream_input' | 'source';

export interface StackEdge {
  /** The reader's address. */
  from: string;
  /** The address of what it waits for. */
  to: string;
  via: StackEdgeVia;
  /** `local.region_ids` or `provider.aws.this`, when the reference goes through one. */
  through: string | undefined;
  file: string;
  /** The reference in the reader's block. */
  range: Range;
}

/** A reference to a component or stack the Stack does not have. */
export interface StackProblem {
  /** The node whose argument makes it. */
  from: string;
  file: string;
  range: Range;
  code: 'unknown-component';
  message: string;
  /** What it names: `component.reports`. */
  address: string;
}

export interface StackGraph {
  nodes: StackNode[];
  /** Its cycles are the workspace graph's to find, with every other node's. */
  edges: StackEdge[];
  problems: StackProblem[];
  /** Each `output` block's name, with the nodes its value reads: what a deployment exposes comes from them. */
  outputs: Record<string, string[]>;
}

interface Reference {
  address: string;
  range: Range;
  through: string | undefined;
}

/**
 * The graph of one Stack's components and embedded stacks: an edge wherever a node's `inputs`,
 * `providers`, `depends_on` or `for_each` refers to another node, directly or through the Stack's
 * locals and provider configurations. This is the order the Stacks runtime applies them in: a
 * component waits for what its expressions read, with no level barrier.
 */
export function componentGraph(files: readonly StackSourceFile[]): StackGraph {
  const componentFiles = files.filter((file) => file.facts.kind === 'components');
  const locals = new Map<string, StackAttribute>();
  const providers = new Map<string, ProviderBlock>();
  for (const { facts } of componentFiles) {
    for (const local of facts.locals) locals.set(local.name, local);
    for (const provider of facts.providers) providers.set(provider.name, provider);
  }
  // Without a deployment: what `for_each` and `source` are when they do not depend on one.
  const scope = stackScope(files, undefined);
  const nodes: StackNode[] = componentFiles.flatMap(({ path, facts }) => [
    ...facts.components.map((block) => stackNode('component', block, path, scope)),
    ...facts.stacks.map((block) => stackNode('stack', block, path, scope)),
  ]);
  const known = new Set(nodes.map((node) => node.address));
  for (const node of nodes) node.inputReads = inputReads(node.block.inputs, locals, providers, known);
  const edges: StackEdge[] = [];
  const problems: StackProblem[] = [];
  for (const node of nodes) {
    for (const [via, attribute] of nodeArguments(node.block)) {
      for (const reference of nodeReferences(attribute.expr, locals, providers)) {
        if (reference.address.startsWith('var.')) {
          node.variableReads.push({
            name: reference.address.slice('var.'.length),
            range: reference.range,
            through: reference.through,
          });
          continue;
        }
        if (!known.has(reference.address)) {
          problems.push({
            from: node.address,
            file: node.file,
            range: reference.range,
            code: 'unknown-component',
            address: reference.address,
            message: missingMessage(reference),
          });
          continue;
        }
        edges.push({
          from: node.address,
          to: reference.address,
          via,
          through: reference.through,
          file: node.file,
          range: reference.range,
        });
      }
    }
  }
  const outputs: Record<string, string[]> = {};
  for (const { facts } of componentFiles) {
    for (const output of facts.outputs) {
      const read = output.value ? nodeReferences(output.value.expr, locals, providers) : [];
      outputs[output.name] = [
        ...new Set(read.map((reference) => reference.address).filter((address) => known.has(address))),
      ];
    }
  }
  return { nodes, edges: dedupe(edges), problems, outputs };
}

/** `This Stack has no component "reports" (component.reports, read through local.x)`. */
function missingMessage(reference: Reference): string {
  const [kind, name] = reference.address.split('.') as [string, string];
  const through = reference.through ? `, read through ${reference.through}` : '';
  return `This Stack has no ${kind} "${name}" (${reference.address}${through})`;
}

function stackNode(
  kind: StackNode['kind'],
  block: ComponentBlock | EmbeddedStackBlock,
  file: string,
  scope: EvalScope,
): StackNode {
  const source = block.source && evaluate(block.source.expr, scope);
  return {
    address: `${kind}.${block.name}`,
    kind,
    name: block.name,
    file,
    block,
    source: typeof source === 'string' ? source : undefined,
    instances: 'forEach' in block && block.forEach ? instanceKeys(evaluate(block.forEach.expr, scope)) : undefined,
    variableReads: [],
    inputReads: {},
  };
}

function inputReads(
  inputs: StackAttribute | undefined,
  locals: ReadonlyMap<string, StackAttribute>,
  providers: ReadonlyMap<string, ProviderBlock>,
  known: ReadonlySet<string>,
): Record<string, string[]> {
  const reads: Record<string, string[]> = {};
  if (inputs?.expr.kind !== 'object') return reads;
  for (const item of inputs.expr.items) {
    const name = keyName(item.key);
    if (name === undefined) continue;
    const addresses = nodeReferences(item.value, locals, providers).map((reference) => reference.address);
    reads[name] = [...new Set(addresses.filter((address) => known.has(address)))];
  }
  return reads;
}

/** `for_each`'s keys: a map's keys or a set's strings, as Terraform names the instances. */
function instanceKeys(value: Value): string[] | 'unknown' {
  if (isUnknown(value)) return 'unknown';
  if (Array.isArray(value)) return value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
  if (isObjectValue(value)) return Object.keys(value);
  return 'unknown';
}

function nodeArguments(block: ComponentBlock | EmbeddedStackBlock): [StackEdgeVia, StackAttribute][] {
  const found: [StackEdgeVia, StackAttribute | undefined][] = [
    ['inputs', block.inputs],
    ['providers', 'providers' in block ? block.providers : undefined],
    ['depends_on', block.dependsOn],
    ['for_each', 'forEach' in block ? block.forEach : undefined],
  ];
  return found.filter((entry): entry is [StackEdgeVia, StackAttribute] => entry[1] !== undefined);
}

/**
 * The components, stacks and variables an expression refers to, following locals and provider
 * configurations: the range is always the reference in the expression itself, where the user reads it.
 */
function nodeReferences(
  expr: Expr,
  locals: ReadonlyMap<string, StackAttribute>,
  providers: ReadonlyMap<string, ProviderBlock>,
): Reference[] {
  return expressionReferences(expr).flatMap((reference) => {
    const target = referenceTarget(reference);
    const through = target && 'through' in target ? target.through : undefined;
    return addressesOf(reference, locals, providers, new Set()).map((address) => ({
      address,
      range: reference.range,
      through,
    }));
  });
}

/** What one reference leads to: itself, or what its local or provider configuration reads (each once). */
function addressesOf(
  reference: ExpressionReference,
  locals: ReadonlyMap<string, StackAttribute>,
  providers: ReadonlyMap<string, ProviderBlock>,
  seen: Set<string>,
): string[] {
  const target = referenceTarget(reference);
  if (!target) return [];
  if ('address' in target) return [target.address];
  if (seen.has(target.through)) return [];
  seen.add(target.through);
  const name = target.through;
  const exprs: Expr[] = name.startsWith('local.')
    ? [locals.get(name.slice('local.'.length))?.expr].filter((expr): expr is Expr => expr !== undefined)
    : providerExprs(providers.get(name.slice('provider.'.length)));
  const addresses = exprs.flatMap((expr) =>
    expressionReferences(expr).flatMap((inner) => addressesOf(inner, locals, providers, seen)),
  );
  return [...new Set(addresses)];
}

/**
 * A reference to a node (`component.x`, `stack.x`) or a variable (`var.x`), or to a local or a
 * provider that may lead to them.
 */
function referenceTarget(reference: ExpressionReference): { address: string } | { through: string } | undefined {
  const [first, second] = reference.names;
  if (first === undefined) return undefined;
  if (reference.root === 'var') return { address: `var.${first}` };
  if (reference.root === 'component' || reference.root === 'stack') return { address: `${reference.root}.${first}` };
  if (reference.root === 'local') return { through: `local.${first}` };
  if (reference.root === 'provider' && second !== undefined) return { through: `provider.${first}.${second}` };
  return undefined;
}

function providerExprs(provider: ProviderBlock | undefined): Expr[] {
  if (!provider) return [];
  return [...(provider.forEach ? [provider.forEach.expr] : []), ...provider.config.map((attribute) => attribute.expr)];
}

/** One edge per reader, dependency, argument and reference place (a local read twice in one spot is one). */
function dedupe(edges: StackEdge[]): StackEdge[] {
  const seen = new Set<string>();
  return edges.filter((edge) => {
    const key = `${edge.from}\u0000${edge.to}\u0000${edge.via}\u0000${edge.range.start.line}:${edge.range.start.character}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
