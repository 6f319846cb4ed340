import type { AnalysisOptions } from '../config';
import {
  closure,
  compareIds,
  cyclePath,
  cyclicComponents,
  DependencyGraph,
  levelLists,
  numberedLevels,
} from '../graph';
import type { NodeDescription } from '../kinds';
import { type MatchResult, writerAddresses } from '../state';
import { type EvaluatedModule, moduleSegments } from '../workspace';
import type { AnalysisResult, FileProblem, ModuleSummary } from './analysisResult';
import { notEvaluated } from './nodeEvaluations';

interface LastGraph {
  modules: readonly EvaluatedModule[];
  matches: readonly MatchResult[];
  dependencies: readonly (readonly number[])[];
  summaries: readonly ModuleSummary[];
}

/** What the graph asks the analysis of a node, for its summary. */
export interface SummarySource {
  /** What the node's kind says of it (`NodeKind.describe`). */
  describe(module: EvaluatedModule): NodeDescription;
  /** The syntax errors of the files its evaluation read. */
  syntaxErrors(module: EvaluatedModule): FileProblem[];
}

/** The part of a result the graph gives: the nodes' summaries, the graph, its levels and its cycles. */
export type GraphParts = Pick<
  AnalysisResult,
  'modules' | 'graph' | 'levels' | 'cycles' | 'cycleMembers' | 'waitingForCycles'
>;

/**
 * The graph of the nodes with their summaries, built from the nodes' matches: what a module's evaluation and
 * matches decide is reused from the last graph wherever they are the same objects.
 */
export class NodeGraph {
  /** What the last graph was made of, by node number; forgotten when the nodes change. */
  private lastGraph: LastGraph | undefined;
  private readonly summaries = new WeakMap<EvaluatedModule, ModuleSummary>();

  constructor(
    private readonly root: string,
    private readonly options: AnalysisOptions,
    private readonly source: SummarySource,
  ) {}

  /** The modules of the last graph, by node number; none when it was forgotten. */
  modules(): readonly EvaluatedModule[] {
    return this.lastGraph?.modules ?? [];
  }

  /** Forgets the last graph: the nodes changed, or are too many to build one of. */
  forget(): void {
    this.lastGraph = undefined;
  }

  /** The graph of `modules`, by node number (`rootNumbers`), from their `matches`. */
  build(
    rootIds: readonly string[],
    rootNumbers: ReadonlyMap<string, number>,
    modules: readonly EvaluatedModule[],
    matches: readonly MatchResult[],
  ): GraphParts {
    const last = this.lastGraph;
    // Positions are node numbers; what a module's evaluation and matches decide is reused from
    // the last graph wherever they are the same objects (all but the edited modules).
    const dependencies = matches.map((own, n) =>
      last?.matches[n] === own ? last.dependencies[n]! : this.dependencyNumbers(own, rootNumbers),
    );
    const graph = DependencyGraph.fromNumbered(rootIds, rootNumbers, dependencies);
    // Most graphs are DAGs: Kahn's algorithm alone proves it; Tarjan's runs only when it cannot.
    let components: string[][] = [];
    let levelOf = numberedLevels(graph, components);
    if (!levelOf) {
      components = cyclicComponents(graph);
      levelOf = numberedLevels(graph, components)!;
    }
    const inCycle = new Set(components.flat());
    const summaries: ModuleSummary[] = new Array(modules.length);
    for (let n = 0; n < modules.length; n++) {
      const module = modules[n]!;
      const level = levelOf[n]!;
      const cyclic = inCycle.size > 0 && inCycle.has(module.id);
      const before = last?.modules[n] === module ? last.summaries[n] : undefined;
      summaries[n] =
        before?.level === level && before.inCycle === cyclic ? before : this.summary(module, level, cyclic);
    }
    this.lastGraph = { modules, matches, dependencies, summaries };
    return {
      modules: summaries,
      graph,
      levels: levelLists(graph, levelOf),
      cycles: components.map((component) => cyclePath(graph, component)),
      cycleMembers: components,
      waitingForCycles:
        components.length === 0
          ? []
          : [...closure(graph, inCycle, 'downstream')].filter((id) => !inCycle.has(id)).sort(compareIds),
    };
  }

  /** The numbers (positions among the nodes) of the modules that one module's matches depend on. */
  private dependencyNumbers(own: MatchResult, rootNumbers: ReadonlyMap<string, number>): number[] {
    const numbers: number[] = [];
    for (const edge of own.edges) {
      const to = rootNumbers.get(edge.to)!;
      if (!numbers.includes(to)) numbers.push(to);
    }
    return numbers;
  }

  private summary(module: EvaluatedModule, level: number, inCycle: boolean): ModuleSummary {
    let base = this.summaries.get(module);
    if (!base) {
      base = this.summaryBase(module);
      this.summaries.set(module, base);
    }
    return base.level === level && base.inCycle === inCycle ? base : { ...base, level, inCycle };
  }

  /** What a module's summary says apart from its place in the graph; cached per evaluation. */
  private summaryBase(module: EvaluatedModule): ModuleSummary {
    const { folder, shown } = this.source.describe(module);
    const backend = module.backend;
    const own = writerAddresses(module, 'default', this.root);
    const address = own.length === 1 && own[0]!.known ? own[0]!.address : undefined;
    return {
      id: module.id,
      dir: module.dir,
      kind: module.kind,
      ...(module.sourceDirs !== undefined ? { sourceDirs: module.sourceDirs } : {}),
      reads: module.reads,
      segments: moduleSegments(folder, this.options.discovery.pattern),
      level: 0,
      inCycle: false,
      backend: backend && {
        type: backend.type,
        address,
        file: backend.file,
        range: backend.range,
        headerRange: backend.headerRange,
      },
      ...shown,
      syntaxErrors: this.source.syntaxErrors(module),
      ...notEvaluated(module),
    };
  }
}
