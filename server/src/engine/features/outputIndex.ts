import path from 'node:path';
import type { AnalysisResult, ModuleSummary } from '../analysis';
import type { DeclaredOutput, MockOutput, OutputContracts, ResolvedUse, StateVia } from '../contracts';
import type { MatchKind } from '../state';

/** An `output` block, and the nodes whose code declares it: several units may run one module's code. */
export interface OutputDeclaration {
  output: DeclaredOutput;
  writers: string[];
}

/** A node a block (`data.terraform_remote_state.x`, `dependency.x`, `component.x`) reads, for completion. */
export interface SourceWriter {
  id: string;
  match: MatchKind;
  /** The read's `for_each` key or `count` index, if it has one. */
  instance: string | null;
}

/**
 * The contracts indexed for the editor's requests, so that each answers in time proportional to its
 * answer: uses by file, by writer and output, by the block read; declarations by file; the writers
 * each block reads.
 */
export interface OutputIndex {
  result: AnalysisResult;
  contracts: OutputContracts;
  modules: Map<string, ModuleSummary>;
  usesByFile: Map<string, ResolvedUse[]>;
  /** By `outputKey(writer, name)`. */
  usesByOutput: Map<string, ResolvedUse[]>;
  /** The uses whose name is computed, by writer. */
  computedByWriter: Map<string, ResolvedUse[]>;
  /** By `sourceKey`: the uses through one block. */
  usesBySource: Map<string, ResolvedUse[]>;
  declarationsByFile: Map<string, OutputDeclaration[]>;
  /** By `sourceKey`: the nodes each block reads. */
  writersBySource: Map<string, SourceWriter[]>;
  /** By `outputKey(writer, name)`: the `mock_outputs` keys that stand for a writer's output. */
  mocksByOutput: Map<string, MockOutput[]>;
}

/** Made once per contracts object (the analysis makes one per result), on the first request that needs it. */
const indexes = new WeakMap<OutputContracts, OutputIndex>();

/** The index of `contracts`, which the analysis computed for `result`. */
export function outputIndex(result: AnalysisResult, contracts: OutputContracts): OutputIndex {
  let index = indexes.get(contracts);
  if (!index || index.result !== result) {
    index = buildIndex(result, contracts);
    indexes.set(contracts, index);
  }
  return index;
}

export function outputKey(writer: string, name: string): string {
  return `${writer}\0${name}`;
}

/** A block read by its kind, the folder that holds it (a unit's or a Stack's for `dependency` and `component`) and its name. */
export function sourceKey(via: StateVia, dir: string, name: string): string {
  return `${via}\0${dir}\0${name}`;
}

function buildIndex(result: AnalysisResult, contracts: OutputContracts): OutputIndex {
  const modules = new Map(result.modules.map((module) => [module.id, module]));
  const index: OutputIndex = {
    result,
    contracts,
    modules,
    usesByFile: new Map(),
    usesByOutput: new Map(),
    computedByWriter: new Map(),
    usesBySource: new Map(),
    declarationsByFile: declarationsByFile(contracts),
    writersBySource: writersBySource(result, modules),
    mocksByOutput: new Map(),
  };
  for (const mock of contracts.mocks) push(index.mocksByOutput, outputKey(mock.writer, mock.name), mock);
  for (const use of contracts.uses) {
    push(index.usesByFile, use.file, use);
    push(index.usesBySource, sourceKey(use.source.via, use.source.dir, use.source.name), use);
    for (const writer of use.writers) {
      if (use.output === undefined) push(index.computedByWriter, writer.id, use);
      else push(index.usesByOutput, outputKey(writer.id, use.output), use);
    }
  }
  return index;
}

/** Each file's `output` blocks, with every node that declares each (the same block, by place). */
function declarationsByFile(contracts: OutputContracts): Map<string, OutputDeclaration[]> {
  const byPlace = new Map<string, OutputDeclaration>();
  for (const [writer, outputs] of contracts.outputs) {
    for (const output of outputs) {
      const place = `${output.file}\0${output.nameRange.start.line}\0${output.nameRange.start.character}`;
      const known = byPlace.get(place);
      if (known) known.writers.push(writer);
      else byPlace.set(place, { output, writers: [writer] });
    }
  }
  const byFile = new Map<string, OutputDeclaration[]>();
  for (const declaration of byPlace.values()) push(byFile, declaration.output.file, declaration);
  return byFile;
}

function writersBySource(result: AnalysisResult, modules: Map<string, ModuleSummary>): Map<string, SourceWriter[]> {
  const bySource = new Map<string, SourceWriter[]>();
  for (const edge of result.edges) {
    const { reference } = edge;
    const writer = { id: edge.to, match: edge.match, instance: reference.instance };
    if (reference.block === undefined)
      push(bySource, sourceKey('remote-state', path.dirname(reference.file), reference.name), writer);
    const reader = modules.get(edge.from);
    if (reference.block === 'dependency' && reader)
      push(bySource, sourceKey('dependency', reader.dir, reference.name), writer);
  }
  for (const module of result.modules) {
    const address = module.component?.address;
    if (address?.startsWith('component.'))
      push(bySource, sourceKey('component', module.dir, address.slice('component.'.length)), {
        id: module.id,
        match: 'exact',
        instance: null,
      });
  }
  return bySource;
}

function push<T>(map: Map<string, T[]>, key: string, item: T): void {
  const list = map.get(key);
  if (list) list.push(item);
  else map.set(key, [item]);
}
