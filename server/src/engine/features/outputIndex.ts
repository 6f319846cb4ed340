import path from 'node:path';
import type { AnalysisResult, ModuleSummary } from '../analysis';
import type { CarriedOutputs, DeclaredOutput, MockOutput, OutputContracts, ResolvedUse, StateVia } from '../contracts';
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
 * each block reads. Each part is made on the first request that needs it: after an edit, a completion
 * pays for the writers of the blocks, not for every use of the workspace.
 */
export class OutputIndex {
  private modulesById: Map<string, ModuleSummary> | undefined;
  private byUse: UseMaps | undefined;
  private declarations: Map<string, OutputDeclaration[]> | undefined;
  private writers: Map<string, SourceWriter[]> | undefined;
  private mocks: Map<string, MockOutput[]> | undefined;
  private carriedIn: Map<string, CarriedOutputs[]> | undefined;

  constructor(
    readonly result: AnalysisResult,
    readonly contracts: OutputContracts,
  ) {}

  get modules(): Map<string, ModuleSummary> {
    this.modulesById ??= new Map(this.result.modules.map((module) => [module.id, module]));
    return this.modulesById;
  }

  get usesByFile(): Map<string, ResolvedUse[]> {
    return this.useMaps().byFile;
  }

  /** By `outputKey(writer, name)`. */
  get usesByOutput(): Map<string, ResolvedUse[]> {
    return this.useMaps().byOutput;
  }

  /** The uses whose name is computed, by writer. */
  get computedByWriter(): Map<string, ResolvedUse[]> {
    return this.useMaps().computedByWriter;
  }

  /** By `sourceKey`: the uses through one block. */
  get usesBySource(): Map<string, ResolvedUse[]> {
    return this.useMaps().bySource;
  }

  get declarationsByFile(): Map<string, OutputDeclaration[]> {
    this.declarations ??= declarationsByFile(this.contracts);
    return this.declarations;
  }

  /** By `sourceKey`: the nodes each block reads. */
  get writersBySource(): Map<string, SourceWriter[]> {
    this.writers ??= writersBySource(this.result, this.modules);
    return this.writers;
  }

  /** By `outputKey(writer, name)`: the `mock_outputs` keys that stand for a writer's output. */
  get mocksByOutput(): Map<string, MockOutput[]> {
    if (!this.mocks) {
      this.mocks = new Map();
      for (const mock of this.contracts.mocks) push(this.mocks, outputKey(mock.writer, mock.name), mock);
    }
    return this.mocks;
  }

  /** By folder: where its code holds a state's outputs whole. */
  get carriedByDir(): Map<string, CarriedOutputs[]> {
    if (!this.carriedIn) {
      this.carriedIn = new Map();
      for (const place of this.contracts.carried) push(this.carriedIn, place.dir, place);
    }
    return this.carriedIn;
  }

  private useMaps(): UseMaps {
    if (this.byUse) return this.byUse;
    const maps: UseMaps = { byFile: new Map(), byOutput: new Map(), computedByWriter: new Map(), bySource: new Map() };
    for (const use of this.contracts.uses) {
      push(maps.byFile, use.file, use);
      push(maps.bySource, sourceKey(use.source.via, use.source.dir, use.source.name), use);
      for (const writer of use.writers) {
        if (use.output === undefined) push(maps.computedByWriter, writer.id, use);
        else push(maps.byOutput, outputKey(writer.id, use.output), use);
      }
    }
    this.byUse = maps;
    return maps;
  }
}

interface UseMaps {
  byFile: Map<string, ResolvedUse[]>;
  byOutput: Map<string, ResolvedUse[]>;
  computedByWriter: Map<string, ResolvedUse[]>;
  bySource: Map<string, ResolvedUse[]>;
}

/** Made once per contracts object (the analysis makes one per result), on the first request that needs it. */
const indexes = new WeakMap<OutputContracts, OutputIndex>();

/** The index of `contracts`, which the analysis computed for `result`. */
export function outputIndex(result: AnalysisResult, contracts: OutputContracts): OutputIndex {
  let index = indexes.get(contracts);
  if (!index || index.result !== result) {
    index = new OutputIndex(result, contracts);
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
