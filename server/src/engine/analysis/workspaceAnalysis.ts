import path from 'node:path';
import type { AnalysisOptions } from '../config';
import {
  ContractCache,
  type ContractWorkspace,
  lastStep,
  type OutputContracts,
  outputContractSteps,
  outputContracts,
} from '../contracts';
import { compareIds } from '../graph';
import { type FoundNodes, type KindWorkspace, NODE_KINDS, type NodeKind } from '../kinds';
import { type MatchResult, mergeMatches, ReferenceMatcher, withUnreadableDirs } from '../state';
import {
  type Engine,
  type Environment,
  type EvaluatedModule,
  environmentNames,
  type FileFacts,
  resolveEnvironment,
} from '../workspace';
import { type AnalysisResult, type FileProblem, fileProblem, tooBigResult } from './analysisResult';
import { modulesReading } from './changeReach';
import { unionOverEnvironments } from './environmentUnion';
import { evaluationOf, NodeEvaluations } from './nodeEvaluations';
import { NodeGraph } from './nodeGraph';
import { WorkspaceFiles } from './workspaceFiles';

/**
 * The analysis of one workspace folder, kept current file by file: per-file facts are cached by
 * content hash, a change re-evaluates only the nodes whose evaluation read the changed folder, and the
 * graph (matching, cycles, levels: linear in the number of references) is rebuilt from those. What a
 * node is and how it is evaluated is its kind's (`NODE_KINDS`); the analysis knows no kind.
 */
export class WorkspaceAnalysis {
  private readonly files: WorkspaceFiles;
  private readonly kinds: readonly NodeKind[];
  /** Each node's kind, by node number; decided with the nodes. */
  private kindAt: NodeKind[] = [];
  /** Each node's evaluation, with the folders it read (itself, its local child modules, what it includes). */
  private readonly evaluations = new NodeEvaluations();
  private cached: AnalysisResult | undefined;
  /** The node ids, sorted; undefined when they must be decided again. */
  private roots: string[] | undefined;
  /** Each node id's position among the sorted nodes: its node number in the graph. */
  private rootNumbers = new Map<string, number>();
  /** The graph of the nodes and their summaries, reusing the last one's for the nodes unchanged. */
  private readonly graph: NodeGraph;
  /** The union over environments of a module's matches, while its evaluation and the writers hold. */
  private readonly unions = new WeakMap<
    EvaluatedModule,
    { version: object | undefined; base: MatchResult; result: MatchResult }
  >();
  /** The selected environment, resolved against the environments the files name; reset when files come and go. */
  private environment: Environment | undefined;
  /** Every environment resolved, for their union; undefined until needed, and when files come and go. */
  private everyEnvironment: Environment[] | undefined;
  private readonly matcher: ReferenceMatcher;
  private readonly contractCache = new ContractCache();
  private lastContracts: { result: AnalysisResult; contracts: OutputContracts } | undefined;
  /** The last contracts around some files: the requests about one file come in turns (hover, code lens, completion). */
  private lastAround: { result: AnalysisResult; files: string; contracts: OutputContracts } | undefined;

  constructor(
    readonly root: string,
    readonly options: AnalysisOptions,
  ) {
    this.matcher = new ReferenceMatcher(root);
    this.files = new WorkspaceFiles(
      root,
      options.discovery,
      {
        nodesKey: (facts) => this.nodesKey(facts),
        nodesChanged: () => {
          this.roots = undefined;
        },
        environmentsChanged: () => this.forgetEnvironments(),
        engineChanged: () => this.forgetEvaluations(),
      },
      options.engine,
    );
    const files = this.files;
    const workspace: KindWorkspace = {
      root,
      options,
      dirs: () => files.dirs,
      dirOf: (folder) => files.dirOf(folder),
      factsOf: (file) => files.factsOf(file),
      gitRoots: () => files.gitRoots,
      hasFile: (file) => files.otherFiles.has(file) || files.factsOf(file) !== undefined,
      engine: () => files.engine,
    };
    this.kinds = NODE_KINDS.map((kind) => kind(workspace));
    this.graph = new NodeGraph(root, options, {
      describe: (module) => this.kindOf(module.id).describe(module),
      syntaxErrors: (module) => this.files.syntaxErrors(this.evaluations.dirsRead(module.id)),
    });
  }

  private selectedEnvironment(): Environment | undefined {
    const name = this.options.environment;
    if (name === undefined) return undefined;
    this.environment ??= resolveEnvironment(name, this.options.environments, this.environmentNames());
    return this.environment;
  }

  private forgetEnvironments(): void {
    this.environment = undefined;
    this.everyEnvironment = undefined;
  }

  /** Every environment: configured in `.terrace.yaml`, named by a tfvars or backend file, or by a kind's files. */
  environmentNames(): string[] {
    const names = environmentNames(this.files.dirs.values(), this.options.environments);
    const more = this.kinds.flatMap((kind) => kind.environmentNames());
    return more.length > 0 ? [...new Set([...names, ...more])].sort() : names;
  }

  /** Scans the folder and reads every Terraform file. `onProgress` is called as files are read. */
  async load(onProgress?: (done: number, total: number) => void): Promise<void> {
    this.forgetEnvironments();
    await this.files.load(onProgress);
    // An environment nobody names is the caller's mistake: said before any analysis.
    this.selectedEnvironment();
    this.evaluations.clear();
    this.roots = undefined;
    this.cached = undefined;
  }

  /**
   * A file changed: `text` is its new content (an editor buffer), or undefined to read it from
   * disk again (saved, closed, created or deleted). False when the analysis had that text already.
   */
  async updateFile(file: string, text?: string): Promise<boolean> {
    // An unchanged text (a document opened, a save) keeps every cached result.
    const changed = this.files.update(file, text);
    if (changed) this.invalidate(path.dirname(file));
    return changed;
  }

  /**
   * Parses the `.tf` files the fast path skimmed (none of the words the analysis reads: no facts,
   * syntax unchecked), so that their syntax errors are reported as Terraform would report them.
   * Apart from `load` so that the first diagnostics do not wait for it: the command line calls it
   * before answering, the server once the first diagnostics are out. True when any had errors.
   */
  async checkSkimmedFiles(): Promise<boolean> {
    return this.files.checkSkimmed((file) => this.invalidate(path.dirname(file)));
  }

  /**
   * A file or a folder is gone: forget it, and every file under a folder (the editor says a folder's
   * deletion once, for the folder). What read them is evaluated again, at the cost of those nodes alone.
   */
  removePath(target: string): void {
    const folders = this.files.remove(target);
    this.roots = undefined;
    this.forgetEnvironments();
    for (const folder of folders) this.invalidate(folder);
    this.cached = undefined;
  }

  result(): AnalysisResult {
    this.cached ??= this.compute();
    return this.cached;
  }

  /**
   * The contracts between the workspace's states for the current result: each node's declared outputs,
   * each read of one resolved to its writers, and the reads of outputs no writer declares.
   */
  contracts(): OutputContracts {
    return lastStep(this.contractSteps());
  }

  /**
   * The same contracts worked out a step at a time (`outputContractSteps`), for a host that answers requests
   * between steps. What the steps have done is kept for `contracts()`, which finishes at once when asked
   * meanwhile; the steps then end with its answer.
   */
  *contractSteps(): Generator<void, OutputContracts, void> {
    const result = this.result();
    if (this.lastContracts?.result === result) return this.lastContracts.contracts;
    const modules = result.tooBig === undefined ? this.graph.modules() : [];
    const steps = outputContractSteps(this.contractWorkspace(), { modules, edges: result.edges }, this.contractCache);
    for (;;) {
      const step = steps.next();
      if (step.done) {
        if (this.cached === result) this.lastContracts = { result, contracts: step.value };
        return step.value;
      }
      yield;
      if (this.lastContracts?.result === result) return this.lastContracts.contracts;
    }
  }

  /**
   * The contracts as far as the editor's requests about `files` need them, until the workspace's are worked out:
   * the reads of the nodes whose plan reads those files and of the nodes that read theirs, with the outputs they
   * read. A hover asked as a large workspace's first problems go out waits for a few nodes, not for every node
   * (half a second at 10,000 modules). The work is kept for the whole contracts, which it is once they are.
   */
  contractsAround(files: readonly string[]): OutputContracts {
    const result = this.result();
    if (this.lastContracts?.result === result) return this.lastContracts.contracts;
    const key = files.join('\0');
    if (this.lastAround?.result === result && this.lastAround.files === key) return this.lastAround.contracts;
    const modules = result.tooBig === undefined ? this.graph.modules() : [];
    const near = new Set(modulesReading(result, files).keys());
    const readers = new Set(near);
    for (const edge of result.edges) if (near.has(edge.to)) readers.add(edge.from);
    const input = { modules, edges: result.edges, readers };
    const contracts = outputContracts(this.contractWorkspace(), input, this.contractCache);
    this.lastAround = { result, files: key, contracts };
    return contracts;
  }

  /** The folders and facts the contracts read; folders by absolute path, as each node asks for its own. */
  private contractWorkspace(): ContractWorkspace {
    const files = this.files;
    const dirs = new Map([...files.dirs.values()].map((dir) => [dir.dir, dir]));
    return { dirOf: (dir: string) => dirs.get(dir), factsOf: (file: string) => files.factsOf(file) };
  }

  /** The facts of one file as last read or edited. */
  factsOf(file: string): FileFacts | undefined {
    return this.files.factsOf(file);
  }

  private compute(): AnalysisResult {
    const rootIds = this.rootIds();
    const modules: EvaluatedModule[] = [];
    let reads = 0;
    for (const id of rootIds) {
      const module = this.evaluatedModule(id);
      reads += module.references.length;
      if (reads > MAX_WORKSPACE_READS) return this.tooManyReads(rootIds.length, modules.length + 1);
      modules.push(module);
    }
    const matches = this.withKindEdges(modules, this.withEnvironments(modules, this.matcher.matchEach(modules)));
    const built = this.graph.build(rootIds, this.rootNumbers, modules, matches);
    const merged = mergeMatches(matches);
    return {
      root: this.root,
      engine: this.files.engine,
      ...merged,
      unresolved: withUnreadableDirs(merged.unresolved, this.files.unreadableDirs),
      ...built,
      syntaxErrors: this.files.syntaxErrors(),
      problems: this.problems(modules),
      ...(this.files.linksTo.size > 0 ? { linksTo: this.files.linksTo } : {}),
    };
  }

  /**
   * The result of a workspace whose reads are too many to match: no module, no edge, and an error
   * that says so, rather than a server that runs out of memory (25 million reads did).
   */
  private tooManyReads(roots: number, evaluated: number): AnalysisResult {
    this.evaluations.clear();
    this.graph.forget();
    const message =
      `The graph is not built: the first ${evaluated} of the ${roots} root modules already read more than the ` +
      `${MAX_WORKSPACE_READS} remote states Terrace follows in a workspace (a read counts once per instance). ` +
      'Leave folders out (discovery.exclude in .terrace.yaml), or open a part of the repository.';
    const problems = [
      ...this.problems([]),
      { file: this.root, range: undefined, message, error: 'too-many-reads' as const },
    ];
    return tooBigResult(this.root, this.files.engine, message, this.files.syntaxErrors(), problems);
  }

  /** What a file says that decides which nodes there are, for every kind: when it changes, they are found again. */
  private nodesKey(facts: FileFacts): string {
    return this.kinds.map((kind) => kind.nodesKey(facts)).join('|');
  }

  /**
   * The nodes of every kind, found again only when something that decides them changed: a file added
   * or removed, or a file whose facts that decide them changed (see `nodesKey`).
   */
  private rootIds(): string[] {
    if (!this.roots) {
      const found: FoundNodes[] = [];
      const kindOf = new Map<string, NodeKind>();
      for (const kind of this.kinds) {
        const nodes = kind.discover(found);
        for (const id of nodes.stale) this.evaluations.forget(id);
        for (const id of nodes.ids) if (!kindOf.has(id)) kindOf.set(id, kind);
        found.push(nodes);
      }
      const roots = found.flatMap((nodes) => nodes.ids).sort(compareIds);
      this.rootNumbers = new Map(roots.map((id, n) => [id, n]));
      this.kindAt = roots.map((id) => kindOf.get(id)!);
      this.graph.forget();
      this.evaluations.keepOnly(this.rootNumbers);
      this.roots = roots;
    }
    return this.roots;
  }

  private kindOf(id: string): NodeKind {
    return this.kindAt[this.rootNumbers.get(id)!]!;
  }

  private evaluatedModule(id: string): EvaluatedModule {
    // Every node is asked for on each graph, nearly all cached: the rest is apart, to keep this small.
    return this.evaluations.get(id) ?? this.evaluatedAfresh(id);
  }

  private evaluatedAfresh(id: string): EvaluatedModule {
    const kind = this.kindOf(id);
    return this.evaluations.evaluate(kind, id, kind.hasEnvironments ? this.selectedEnvironment() : undefined);
  }

  /**
   * Without a selected environment, the union of the environments: each module's references that
   * find no writer are tried in every environment the workspace names (its variables, tfvars and
   * workspace), and get the writers they find there (see `environmentUnion.ts`). Cached per
   * evaluation of the module and version of the writers.
   */
  private withEnvironments(modules: readonly EvaluatedModule[], matches: MatchResult[]): MatchResult[] {
    if (this.options.environment !== undefined || !matches.some((own) => own.unresolved.length > 0)) return matches;
    if (!this.everyEnvironment) {
      const names = this.environmentNames();
      this.everyEnvironment = names.map((name) => resolveEnvironment(name, this.options.environments, names));
    }
    const environments = this.everyEnvironment;
    if (environments.length === 0) return matches;
    const version = this.matcher.writersVersion;
    return matches.map((own, n) => {
      const module = modules[n]!;
      const kind = this.kindAt[n]!;
      if (own.unresolved.length === 0 || !kind.hasEnvironments) return own;
      const cached = this.unions.get(module);
      if (cached && cached.version === version && cached.base === own) return cached.result;
      // An environment that gives the module nothing of its own evaluates it as none does: it finds no writer more.
      const differing = environments.filter((environment) => kind.differsIn(module.id, environment));
      if (differing.length === 0) return own;
      const perEnvironment = differing.map((environment) => ({
        environment: environment.name,
        matches: this.matcher.matchAgainstLast(evaluationOf(kind, module.id, environment).module)!,
      }));
      const result = unionOverEnvironments(own, perEnvironment);
      this.unions.set(module, { version, base: own, result });
      return result;
    });
  }

  /** Each module's matches with the edges its kind adds beside its state reads. */
  private withKindEdges(modules: readonly EvaluatedModule[], matches: MatchResult[]): MatchResult[] {
    const numbers = this.rootNumbers;
    return matches.map((own, n) => this.kindAt[n]!.withEdges(modules[n]!, own, numbers));
  }

  /** Scan, read, module and kind problems; a child module called from several roots reports its problem once. */
  private problems(modules: readonly EvaluatedModule[]): FileProblem[] {
    const all: FileProblem[] = this.files.problems();
    for (const module of modules) for (const problem of module.problems) all.push(fileProblem(problem));
    for (const kind of this.kinds) for (const problem of kind.problems()) all.push(fileProblem(problem));
    const seen = new Set<string>();
    return all.filter((problem) => {
      const key = `${problem.file}:${problem.range?.start.line ?? ''}:${problem.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  /** Another engine reads the workspace: every node is found and evaluated again. */
  private forgetEvaluations(): void {
    for (const dir of this.files.dirs.values()) for (const kind of this.kinds) kind.forget(dir.dir);
    this.evaluations.clear();
    this.roots = undefined;
    this.cached = undefined;
  }

  /** The engine that reads the workspace: Terraform or OpenTofu. */
  engine(): Engine {
    return this.files.engine;
  }

  /** Forgets the evaluation of every node that read `folder`, and what the kinds computed from it. */
  private invalidate(folder: string): void {
    for (const kind of this.kinds) kind.forget(folder);
    this.evaluations.forgetReadersOf(folder);
    this.cached = undefined;
  }
}

/**
 * Remote-state reads (one per instance) one workspace's graph is built from, at most: matched,
 * they take about 0.8 KB each, and 5,000 roots each reading the other 5,000 ran out of memory.
 */
export const MAX_WORKSPACE_READS = 250_000;
