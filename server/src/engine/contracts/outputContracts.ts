import path from 'node:path';
import type { Range } from '../hcl';
import type { MatchedEdge, MatchKind } from '../state';
import type { EvaluatedModule, GeneratedOutput } from '../workspace';
import type { ContractWorkspace } from './contractWorkspace';
import { declaredNamed } from './declaredNames';
import type { DeclaredOutput } from './declaredOutput';
import { type MockOutput, mockOutputsOf } from './mockOutputs';
import { type ContractProblem, missingOutputs, mockOutputProblems } from './outputProblems';
import { type CarriedOutputs, type NodeReads, nodeOutputUses, type OutputUse, stackOutputUses } from './outputUses';
import type { StateSource } from './referenceReach';
import type { ResolvedUse, UseWriter } from './resolvedUse';

/**
 * The contracts between the workspace's states: every output each node declares, every read of
 * another node's output resolved to the writers its edges lead to, and what does not hold.
 */
export interface OutputContracts {
  uses: ResolvedUse[];
  /** The outputs each node's code declares, by node id; absent for a node whose code is not in the repository. */
  outputs: Map<string, DeclaredOutput[]>;
  problems: ContractProblem[];
  /** The outputs read along an edge, sorted (indexed at the first question: the graph's JSON and panel ask). */
  outputsAlong(edge: MatchedEdge): readonly string[];
  /** The `mock_outputs` keys of units' `dependency` blocks, with the unit each names. */
  mocks: MockOutput[];
  /** Where the nodes' code holds a state's outputs whole (a local, a variable, a child module's output). */
  carried: CarriedOutputs[];
  /** The references that read a state's outputs whole, each to the writers it reads (see `NodeReads.whole`). */
  whole: ResolvedUse[];
}

export interface ContractInput {
  modules: readonly EvaluatedModule[];
  edges: readonly MatchedEdge[];
  /**
   * Only these nodes' reads resolved, with the outputs of the nodes they read: the contracts as far as the
   * requests about some files need them (`WorkspaceAnalysis.contractsAround`). All of them when absent.
   */
  readers?: ReadonlySet<string>;
}

/**
 * What a node's files say, kept while its evaluation is the same object: the analysis evaluates a
 * node again when a file of a folder it read changed, and its code's and child modules' are among them.
 */
export class ContractCache {
  readonly uses = new WeakMap<EvaluatedModule, NodeReads>();
  readonly outputs = new WeakMap<EvaluatedModule, DeclaredOutput[] | undefined>();
  /** A node's uses resolved, and their problems, while its edges and its writers' outputs are the same objects. */
  readonly resolved = new WeakMap<EvaluatedModule, ResolvedNode>();
}

interface ResolvedNode {
  edges: readonly MatchedEdge[];
  /** The declared outputs of each writer its edges lead to, in the edges' order. */
  writerOutputs: readonly (DeclaredOutput[] | undefined)[];
  uses: ResolvedUse[];
  whole: ResolvedUse[];
  problems: ContractProblem[];
  /** A unit's `mock_outputs` keys, each to the writer its `dependency` block leads to. */
  mocks: MockOutput[];
}

/** The workspace's contracts, computed from the analysis's nodes and edges and the files' facts. */
export function outputContracts(
  workspace: ContractWorkspace,
  input: ContractInput,
  cache = new ContractCache(),
): OutputContracts {
  return lastStep(outputContractSteps(workspace, input, cache));
}

/** Steps taken to their end, at once: what the last returns. */
export function lastStep<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** How many nodes a step of `outputContractSteps` works through: a few milliseconds' work. */
const NODES_PER_STEP = 100;

/**
 * The same contracts, worked out a step at a time: each `next()` does some nodes' part and stops, so that
 * a host can answer other requests between steps; the last returns the contracts.
 */
export function* outputContractSteps(
  workspace: ContractWorkspace,
  input: ContractInput,
  cache = new ContractCache(),
): Generator<void, OutputContracts, void> {
  const outputs = new Map<string, DeclaredOutput[]>();
  const edgesFrom = groupBy(input.edges, (edge) => edge.from);
  const { readers } = input;
  const resolving = readers ? input.modules.filter((module) => readers.has(module.id)) : input.modules;
  let done = 0;
  for (const module of readers ? declaring(input.modules, resolving, edgesFrom) : input.modules) {
    if (++done % NODES_PER_STEP === 0) yield;
    const dir = codeDirOf(module);
    if (dir === undefined) continue;
    let declared = cache.outputs.get(module);
    if (!cache.outputs.has(module)) {
      declared = declaredOutputs(workspace, dir, module);
      cache.outputs.set(module, declared);
    }
    if (declared) outputs.set(module.id, declared);
  }
  const uses: ResolvedUse[] = [];
  const components = componentIds(input.modules);
  const problems: ContractProblem[] = [];
  const carried: CarriedOutputs[] = [];
  const whole: ResolvedUse[] = [];
  const mocks: MockOutput[] = [];
  for (const module of resolving) {
    if (++done % NODES_PER_STEP === 0) yield;
    const resolved = resolvedNode(workspace, module, edgesFrom.get(module.id) ?? [], outputs, components, cache);
    for (const use of resolved.uses) uses.push(use);
    for (const use of resolved.whole) whole.push(use);
    for (const problem of resolved.problems) problems.push(problem);
    for (const mock of resolved.mocks) mocks.push(mock);
    for (const place of readsOf(workspace, module, cache).carried) carried.push(place);
  }
  // Every Stack's, around some files too: their readers are not all nodes, and their writers are all declaring.
  const stack = stackUses(workspace, input.modules).map((use) =>
    resolve({ ...use, reader: componentAt(input.modules, use) ?? use.reader }, writerIds(use, [], components), outputs),
  );
  for (const use of stack) uses.push(use);
  problems.push(...missingOutputs(stack, outputs));
  yield;
  problems.push(...mockOutputProblems(mocks, outputs));
  let along: Map<string, string[]> | undefined;
  const outputsAlong = (edge: MatchedEdge): readonly string[] => {
    along ??= outputsAlongEdges(uses);
    return along.get(edgeKey(edge)) ?? [];
  };
  return { uses, outputs, problems, outputsAlong, mocks, carried, whole };
}

/** The nodes whose declared outputs the reads of `resolving` need: those nodes, what their edges lead to, the Stacks' components. */
function declaring(
  modules: readonly EvaluatedModule[],
  resolving: readonly EvaluatedModule[],
  edgesFrom: Map<string, MatchedEdge[]>,
): EvaluatedModule[] {
  const needed = new Set(resolving.map((module) => module.id));
  for (const module of resolving) for (const edge of edgesFrom.get(module.id) ?? []) needed.add(edge.to);
  return modules.filter((module) => needed.has(module.id) || module.kind === 'component');
}

/**
 * A node's uses resolved to their writers, and the outputs they miss; an edit elsewhere leaves the node's
 * evaluation, its edges and its writers' outputs the same objects, and its resolution is kept.
 */
function resolvedNode(
  workspace: ContractWorkspace,
  module: EvaluatedModule,
  edges: readonly MatchedEdge[],
  outputs: Map<string, DeclaredOutput[]>,
  components: Map<string, string>,
  cache: ContractCache,
): ResolvedNode {
  const writerOutputs = edges.map((edge) => outputs.get(edge.to));
  const kept = cache.resolved.get(module);
  if (kept && sameItems(kept.edges, edges) && sameItems(kept.writerOutputs, writerOutputs)) return kept;
  const reads = readsOf(workspace, module, cache);
  // The uses of one block share its writers: found once per block.
  const writersOf = new Map<string, { id: string; match: MatchKind }[]>();
  const resolveUse = (use: OutputUse): ResolvedUse => {
    const key = sourceKeyOf(use.source);
    let writers = writersOf.get(key);
    if (!writers) {
      writers = writerIds(use, edges, components);
      writersOf.set(key, writers);
    }
    return resolve(use, writers, outputs);
  };
  const uses = reads.uses.map(resolveUse);
  const whole = reads.whole.map(resolveUse);
  const resolved = {
    edges,
    writerOutputs,
    uses,
    whole,
    problems: missingOutputs(uses, outputs),
    mocks: mockOutputsOf(workspace, module, edges),
  };
  cache.resolved.set(module, resolved);
  return resolved;
}

function readsOf(workspace: ContractWorkspace, module: EvaluatedModule, cache: ContractCache): NodeReads {
  let reads = cache.uses.get(module);
  if (!reads) {
    reads = nodeOutputUses(workspace, module);
    cache.uses.set(module, reads);
  }
  return reads;
}

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

/** The key of an edge's reader, writer and the block it reads through, as `useKey` makes it for a use. */
export function edgeKey(edge: MatchedEdge): string {
  const { reference } = edge;
  if (reference.block === 'component' || edge.matchedBy === 'component') return `${edge.from}\0${edge.to}\0component`;
  if (reference.block === 'dependency') return `${edge.from}\0${edge.to}\0dependency\0${reference.name}`;
  return `${edge.from}\0${edge.to}\0${reference.block ?? 'remote-state'}\0${reference.name}\0${path.dirname(reference.file)}`;
}

export function useKey(use: ResolvedUse, writer: string): string {
  const { source } = use;
  if (source.via === 'component') return `${use.reader}\0${writer}\0component`;
  if (source.via === 'dependency') return `${use.reader}\0${writer}\0dependency\0${source.name}`;
  return `${use.reader}\0${writer}\0remote-state\0${source.name}\0${source.dir}`;
}

function outputsAlongEdges(uses: readonly ResolvedUse[]): Map<string, string[]> {
  const sets = new Map<string, Set<string>>();
  for (const use of uses) {
    if (use.output === undefined) continue;
    for (const writer of use.writers) {
      const key = useKey(use, writer.id);
      const names = sets.get(key);
      if (names) names.add(use.output);
      else sets.set(key, new Set([use.output]));
    }
  }
  return new Map([...sets].map(([key, names]) => [key, [...names].sort()]));
}

/** The folder of a node's Terraform code, where its outputs are declared, when it is in the repository. */
export function codeDirOf(module: EvaluatedModule): string | undefined {
  if (module.kind === 'module') return module.dir;
  if (module.kind === 'unit') return module.codeDir;
  const link = module.component?.sourceLink;
  return link && module.component?.address.startsWith('component.') ? path.dirname(link.file) : undefined;
}

/**
 * The `output` blocks of a node's code, and for a unit those its `generate` blocks write. Undefined when
 * the folder holds no Terraform file the workspace read (outside it, or not scanned): not known.
 */
function declaredOutputs(
  workspace: ContractWorkspace,
  dir: string,
  module: EvaluatedModule,
): DeclaredOutput[] | undefined {
  const files = workspace.dirOf(dir)?.tfFiles ?? [];
  if (files.length === 0) return undefined;
  const declared: DeclaredOutput[] = [];
  for (const file of files) {
    for (const output of workspace.factsOf(file)?.outputs ?? []) {
      const { name, range, nameRange, description, sensitive, valueRange } = output;
      declared.push({ name, range, nameRange, description, sensitive, valueRange, file });
    }
  }
  for (const generated of module.generatedOutputs ?? []) declared.push(generatedDeclaration(workspace, generated));
  return declared;
}

/**
 * An output a `generate` block writes: its `output` block where the heredoc holds it, else the `generate`
 * block (its contents come from elsewhere, or its name from an interpolation).
 */
function generatedDeclaration(workspace: ContractWorkspace, generated: GeneratedOutput): DeclaredOutput {
  const { file, block, name } = generated;
  const written = workspace
    .factsOf(file)
    ?.generateOutputs?.find((candidate) => candidate.block === block)
    ?.outputs.find((output) => output.name === name);
  if (written) return { ...written, file };
  const { description, sensitive, range } = generated;
  return { name, range, nameRange: range, description, sensitive, valueRange: undefined, file };
}

/** The Stacks' own reads, `component.<name>.<output>` in their files, read by the Stack's folder. */
function stackUses(workspace: ContractWorkspace, modules: readonly EvaluatedModule[]): OutputUse[] {
  const stackDirs = new Set(modules.flatMap((module) => (module.kind === 'component' ? [module.dir] : [])));
  return [...stackDirs].flatMap((dir) => {
    const scanned = workspace.dirOf(dir);
    return scanned ? stackOutputUses(workspace, scanned, dir) : [];
  });
}

/** The component whose block holds a Stack's use (its `inputs`, `for_each`), if one does. */
function componentAt(modules: readonly EvaluatedModule[], use: OutputUse): string | undefined {
  return modules.find((module) => {
    const component = module.component;
    return component && component.file === use.file && contains(component.range, use.range);
  })?.id;
}

function contains(outer: Range, inner: Range): boolean {
  const before = (a: Range['start'], b: Range['start']) =>
    a.line < b.line || (a.line === b.line && a.character <= b.character);
  return before(outer.start, inner.start) && before(inner.end, outer.end);
}

/** The components of the workspace's Stacks by their Stack's folder and address (`component.vpc`). */
function componentIds(modules: readonly EvaluatedModule[]): Map<string, string> {
  const ids = new Map<string, string>();
  for (const module of modules) if (module.component) ids.set(`${module.dir}\0${module.component.address}`, module.id);
  return ids;
}

function sourceKeyOf(source: OutputUse['source']): string {
  return `${source.via}\0${source.name}\0${source.dir}\0${source.instance ?? ''}\0${source.module}`;
}

function resolve(
  use: OutputUse,
  writerList: readonly { id: string; match: MatchKind }[],
  outputs: Map<string, DeclaredOutput[]>,
): ResolvedUse {
  const writers: UseWriter[] = [];
  for (const { id, match } of writerList) {
    const declared = outputs.get(id);
    writers.push({ id, match, declared: declared === undefined ? null : declaredNamed(declared, use.output) });
  }
  return {
    reader: use.reader,
    file: use.file,
    range: use.range,
    quoted: use.quoted,
    source: use.source,
    output: use.output,
    through: use.through,
    defaulted: use.defaulted,
    guard: use.guard,
    inModule: use.inModule,
    writers,
  };
}

function writerIds(
  use: OutputUse,
  edges: readonly MatchedEdge[],
  components: Map<string, string>,
): { id: string; match: MatchKind }[] {
  const { source } = use;
  if (source.via === 'component') {
    const id = components.get(`${source.dir}\0component.${source.name}`);
    return id === undefined ? [] : [{ id, match: 'exact' }];
  }
  const found = new Map<string, MatchKind>();
  for (const edge of edges) {
    const reference = edge.reference;
    if (source.via === 'dependency' ? reference.block !== 'dependency' : reference.block !== undefined) continue;
    if (reference.name !== source.name) continue;
    if (source.via === 'remote-state' && path.dirname(reference.file) !== source.dir) continue;
    if (!sameInstance(reference.instance, source)) continue;
    found.set(edge.to, edge.match);
  }
  return [...found].map(([id, match]) => ({ id, match }));
}

/**
 * Whether an edge's read is the one a use names: through the same module calls (`module.vpc_state`,
 * `module.x["a"]`, where any of the call's instances is), and in the root module the same `for_each`
 * key or `count` index when the use names one.
 */
export function sameInstance(instance: string | null, source: StateSource): boolean {
  if (source.module) {
    const own = instance ?? '';
    return own === source.module || own.startsWith(`${source.module}[`);
  }
  return source.instance === undefined || instance === null || instance === source.instance;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
