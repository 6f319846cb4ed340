import path from 'node:path';
import type { Range } from '../hcl';
import type { MatchedEdge, MatchKind } from '../state';
import { UNIT_FILE } from '../terragrunt';
import type { EvaluatedModule, OutputDecl } from '../workspace';
import { closestNames } from './closestNames';
import {
  type CarriedOutputs,
  type ContractWorkspace,
  type NodeReads,
  nodeOutputUses,
  type OutputUse,
  type StateSource,
  stackOutputUses,
} from './outputUses';

/** An `output` block of a node's code. */
export interface DeclaredOutput extends OutputDecl {
  file: string;
}

/** The node a use reads, how sure the edge is, and whether its code declares the output. */
export interface UseWriter {
  id: string;
  match: MatchKind;
  /** Undefined when the writer's code is not in the repository (a remote source): not checked. */
  declared: DeclaredOutput | undefined | null;
}

export interface ResolvedUse extends OutputUse {
  /** The writers the use's block reads (several for a `for_each` read or an ambiguous edge). */
  writers: UseWriter[];
}

/** A use of an output no writer declares, or a `mock_outputs` key the dependency's code does not declare. */
export interface ContractProblem {
  file: string;
  range: Range;
  severity: 'error' | 'warning';
  message: string;
  code: 'missing-output' | 'unknown-mock-output';
  /** The writers that do not declare it. */
  writers: string[];
  output: string;
}

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
}

/** The workspace's contracts, computed from the analysis's nodes and edges and the files' facts. */
export function outputContracts(
  workspace: ContractWorkspace,
  input: ContractInput,
  cache = new ContractCache(),
): OutputContracts {
  const outputs = new Map<string, DeclaredOutput[]>();
  for (const module of input.modules) {
    const dir = codeDirOf(module);
    if (dir === undefined) continue;
    let declared = cache.outputs.get(module);
    if (!cache.outputs.has(module)) {
      declared = declaredOutputs(workspace, dir);
      cache.outputs.set(module, declared);
    }
    if (declared) outputs.set(module.id, declared);
  }
  const edgesFrom = groupBy(input.edges, (edge) => edge.from);
  const uses: ResolvedUse[] = [];
  const components = componentIds(input.modules);
  const problems: ContractProblem[] = [];
  const carried: CarriedOutputs[] = [];
  const whole: ResolvedUse[] = [];
  for (const module of input.modules) {
    const resolved = resolvedNode(workspace, module, edgesFrom.get(module.id) ?? [], outputs, components, cache);
    for (const use of resolved.uses) uses.push(use);
    for (const use of resolved.whole) whole.push(use);
    for (const problem of resolved.problems) problems.push(problem);
    for (const place of readsOf(workspace, module, cache).carried) carried.push(place);
  }
  for (const use of stackUses(workspace, input.modules)) {
    const resolved = resolve(
      { ...use, reader: componentAt(input.modules, use) ?? use.reader },
      writerIds(use, [], components),
      outputs,
    );
    uses.push(resolved);
    problems.push(...missingOutput(resolved, outputs));
  }
  const mocks = mockOutputsOf(workspace, input, edgesFrom);
  problems.push(...mockOutputProblems(mocks, outputs));
  let along: Map<string, string[]> | undefined;
  const outputsAlong = (edge: MatchedEdge): readonly string[] => {
    along ??= outputsAlongEdges(uses);
    return along.get(edgeKey(edge)) ?? [];
  };
  return { uses, outputs, problems, outputsAlong, mocks, carried, whole };
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
    problems: uses.flatMap((use) => missingOutput(use, outputs)),
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

/** Undefined when the folder holds no Terraform file the workspace read (outside it, or not scanned): not known. */
function declaredOutputs(workspace: ContractWorkspace, dir: string): DeclaredOutput[] | undefined {
  const files = workspace.dirOf(dir)?.tfFiles ?? [];
  if (files.length === 0) return undefined;
  const declared: DeclaredOutput[] = [];
  for (const file of files) {
    for (const output of workspace.factsOf(file)?.outputs ?? []) {
      const { name, range, nameRange, description, sensitive, valueRange } = output;
      declared.push({ name, range, nameRange, description, sensitive, valueRange, file });
    }
  }
  return declared;
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
    writers,
  };
}

function declaredNamed(declared: readonly DeclaredOutput[], name: string | undefined): DeclaredOutput | undefined {
  if (name === undefined) return undefined;
  for (const output of declared) if (output.name === name) return output;
  return undefined;
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

/**
 * A use of an output its writers do not declare: an error on exact edges, a warning on inferred ones;
 * through an ambiguous edge, only when no candidate declares it.
 */
function missingOutput(use: ResolvedUse, outputs: Map<string, DeclaredOutput[]>): ContractProblem[] {
  const name = use.output;
  if (name === undefined || use.defaulted || use.writers.every((writer) => writer.declared !== undefined)) return [];
  const checked = use.writers.filter((writer) => writer.declared !== null);
  const missing = checked.filter((writer) => writer.declared === undefined);
  if (missing.length === 0) return [];
  const ambiguous = checked.some((writer) => writer.match === 'ambiguous');
  if (ambiguous && missing.length < checked.length) return [];
  const exact = missing.every((writer) => writer.match === 'exact');
  return [
    {
      file: use.file,
      range: use.range,
      severity: exact ? 'error' : 'warning',
      code: 'missing-output',
      message: missing.map((writer) => missingMessage(writer.id, name, outputs.get(writer.id) ?? [])).join('; '),
      writers: missing.map((writer) => writer.id),
      output: name,
    },
  ];
}

/** `network/vpc declares no output "private_subnet_idz"; did you mean "private_subnet_ids"?` */
function missingMessage(writer: string, name: string, declared: readonly DeclaredOutput[]): string {
  const names = [...new Set(declared.map((output) => output.name))];
  const close = closestNames(name, names);
  const hint = close.length > 0 ? `; did you mean ${close.map((other) => `"${other}"`).join(' or ')}?` : '';
  return `${writer} declares no output "${name}"${hint}`;
}

/** A key of a unit's `dependency` block's `mock_outputs`: an output the dependency's code is expected to declare. */
export interface MockOutput {
  reader: string;
  writer: string;
  file: string;
  name: string;
  /** The key as written, its quotes included when it has them. */
  range: Range;
}

/** The `mock_outputs` keys of each unit's `dependency` blocks that lead to a unit of the workspace. */
function mockOutputsOf(
  workspace: ContractWorkspace,
  input: ContractInput,
  edgesFrom: Map<string, MatchedEdge[]>,
): MockOutput[] {
  const mocks: MockOutput[] = [];
  for (const module of input.modules) {
    if (module.kind !== 'unit') continue;
    const file = path.join(module.dir, UNIT_FILE);
    for (const block of workspace.factsOf(file)?.terragrunt?.dependencies ?? []) {
      const edge = (edgesFrom.get(module.id) ?? []).find(
        (candidate) => candidate.reference.block === 'dependency' && candidate.reference.name === block.name,
      );
      if (!edge) continue;
      for (const mock of block.mockOutputs)
        mocks.push({ reader: module.id, writer: edge.to, file, name: mock.name, range: mock.range });
    }
  }
  return mocks;
}

/** `mock_outputs` keys that the dependency's code does not declare: warnings. */
function mockOutputProblems(mocks: readonly MockOutput[], outputs: Map<string, DeclaredOutput[]>): ContractProblem[] {
  return mocks.flatMap((mock): ContractProblem[] => {
    const declared = outputs.get(mock.writer);
    if (!declared || declared.some((output) => output.name === mock.name)) return [];
    return [
      {
        file: mock.file,
        range: mock.range,
        severity: 'warning',
        code: 'unknown-mock-output',
        message: `mock_outputs: ${missingMessage(mock.writer, mock.name, declared)}`,
        writers: [mock.writer],
        output: mock.name,
      },
    ];
  });
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
