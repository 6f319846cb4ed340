import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import type { AnalysisOptions } from '../config';
import type { EvalScope } from '../evaluation';
import {
  closure,
  compareIds,
  cyclePath,
  cyclicComponents,
  DependencyGraph,
  levelLists,
  numberedLevels,
} from '../graph';
import { FILE_START, type HclDocument, parseHcl, type Range, salvageBlocks, tfJsonDocument } from '../hcl';
import {
  componentGraph,
  componentInputs,
  deploymentVariables,
  type StackGraph,
  type StackLink,
  type StackNode,
  stackFileFacts,
  stackFileKind,
  stackLinks,
  stackScope,
} from '../stacks';
import {
  type MatchResult,
  mergeMatches,
  ReferenceMatcher,
  type UnmatchedReference,
  unreadableNote,
  withComponentEdges,
  withDependencies,
  writerAddresses,
} from '../state';
import {
  type EvaluatedUnit,
  evaluateUnit,
  STACK_FILE,
  terragruntFileFacts,
  UNIT_FILE,
  type UnitSource,
  withGeneratedUnits,
} from '../terragrunt';
import {
  type ChildModules,
  type ComponentCode,
  type ComponentFacts,
  componentModule,
  componentSourceDir,
  type DiscoveredUnits,
  discoverRoots,
  discoverStackComponents,
  discoverUnits,
  EMPTY_FACTS,
  type Environment,
  type EvaluatedModule,
  emptyDir,
  emptyPatternHint,
  environmentNames,
  evaluateModule,
  evaluateUnitModule,
  type FileFacts,
  type FileInput,
  factsFromDocument,
  fileRole,
  folderContains,
  keepBody,
  localSource,
  type ModuleProblem,
  mayHaveFacts,
  moduleSegments,
  NO_UNITS,
  nestedBackendOwner,
  resolveEnvironment,
  type ScannedDir,
  type ScanProblem,
  type StackComponentRef,
  type StackEmbedding,
  scanWorkspace,
  stackSourceFiles,
  varFileOrder,
  withOverrides,
} from '../workspace';
import { unionOverEnvironments } from './environmentUnion';

/** A root module as the analysis reports it. */
export interface ModuleSummary {
  id: string;
  dir: string;
  /**
   * `unit`: a Terragrunt unit, run with terragrunt; `module`: a Terraform root module; `component`: a
   * Terraform Stack's component or embedded stack (`<stack folder>/component.<name>`), planned by HCP
   * Terraform only.
   */
  kind: 'module' | 'unit' | 'component';
  /** A Stack's component: its block, its module's source, its `for_each` instances when known. */
  component?: Omit<ComponentFacts, 'edges' | 'unknown'>;
  /** A unit's other folders whose files its plan depends on: its local code's (`terraform.source`), its included files'. */
  sourceDirs?: readonly string[];
  /** A unit of a stack file: the stack's folder, where `terragrunt stack generate` makes it. */
  stackDir?: string;
  segments: Record<string, string>;
  level: number;
  inCycle: boolean;
  backend: { type: string; address: string | undefined; file: string; range: Range; headerRange: Range } | undefined;
  /** The module's first `.tf` file (a unit's `terragrunt.hcl`), to open when it declares no backend. */
  firstFile: string;
  /**
   * The syntax errors of the files its evaluation read (its own, its backend and variable files,
   * its local child modules'): terraform cannot run it until they are fixed, and what Terrace
   * knows of it comes from the blocks that still parse.
   */
  syntaxErrors: FileProblem[];
}

export interface FileProblem {
  file: string;
  range: Range | undefined;
  message: string;
  /**
   * Set for an error, not a warning: what Terragrunt itself refuses (an include of the file itself),
   * or a workspace too big to build a graph of (`MAX_WORKSPACE_READS`).
   */
  error?: 'refused-by-terragrunt' | 'too-many-reads';
}

export interface AnalysisResult extends MatchResult {
  root: string;
  /** Sorted by id. */
  modules: ModuleSummary[];
  graph: DependencyGraph;
  levels: string[][];
  /** Closed paths, `["a", "b", "a"]`, sorted. */
  cycles: string[][];
  /** The modules of each cycle (a strongly connected component), parallel to `cycles`. */
  cycleMembers: string[][];
  /**
   * The modules that depend on a cycle's, directly or not, sorted: like the cycle's own, they have no
   * level (nothing can run them until the cycle is broken), though `levels` files them where they
   * would run.
   */
  waitingForCycles: string[];
  syntaxErrors: FileProblem[];
  /** Files that could not be read, module-level problems (duplicate locals, recursive module calls). */
  problems: FileProblem[];
  /** Set when the workspace reads too many states to build its graph (`MAX_WORKSPACE_READS`): why. */
  tooBig?: string;
}

interface LastGraph {
  modules: readonly EvaluatedModule[];
  matches: readonly MatchResult[];
  dependencies: readonly (readonly number[])[];
  summaries: readonly ModuleSummary[];
}

interface CachedFile {
  hash: string;
  /**
   * What the analysis uses: the text's facts, or, while the text does not parse, the facts of its
   * last version that did, with the text's syntax errors (an edge does not blink out while its
   * block is being typed).
   */
  facts: FileFacts;
  /** The facts of the last version of the file that parsed, if any. */
  good: FileFacts | undefined;
}

/**
 * The analysis of one workspace folder, kept current file by file: per-file facts are cached by
 * content hash, a change re-evaluates only the root modules that read the changed folder, and the
 * graph (matching, cycles, levels: linear in the number of references) is rebuilt from those.
 */
export class WorkspaceAnalysis {
  private dirs = new Map<string, ScannedDir>();
  private readonly files = new Map<string, CachedFile>();
  private readonly factsByHash = new Map<string, { facts: FileFacts; uses: number }>();
  private readonly evaluated = new Map<string, EvaluatedModule>();
  /** For each root id, the folders its evaluation read (itself and its local child modules). */
  private readonly readDirs = new Map<string, Set<string>>();
  private scanProblems: ScanProblem[] = [];
  private gitRoots: string[] = [];
  /** Folders the scan could not list, relative to the root. */
  private unreadableDirs: string[] = [];
  private readProblems = new Map<string, string>();
  private cached: AnalysisResult | undefined;
  /** The root module ids, sorted; undefined when they must be decided again. */
  private roots: string[] | undefined;
  /** Why a TerraCi pattern found no module, when Terrace's own discovery would (see `emptyPatternHint`). */
  private discoveryHint: { file: string; message: string } | undefined;
  /** Each root id's position among the sorted roots: its node number in the graph. */
  private rootNumbers = new Map<string, number>();
  /** What the last graph was made of, by root number; forgotten when the roots change. */
  private lastGraph: LastGraph | undefined;
  private readonly summaries = new WeakMap<EvaluatedModule, ModuleSummary>();
  /** The union over environments of a module's matches, while its evaluation and the writers hold. */
  private readonly unions = new WeakMap<
    EvaluatedModule,
    { version: object | undefined; base: MatchResult; result: MatchResult }
  >();
  /** The selected environment, resolved against the environments the files name; reset when files come and go. */
  private environment: Environment | undefined;

  private selectedEnvironment(): Environment | undefined {
    const name = this.options.environment;
    if (name === undefined) return undefined;
    this.environment ??= resolveEnvironment(name, this.options.environments, this.environmentNames());
    return this.environment;
  }

  /** Every environment resolved, for their union; undefined until needed, and when files come and go. */
  private everyEnvironment: Environment[] | undefined;

  private forgetEnvironments(): void {
    this.environment = undefined;
    this.everyEnvironment = undefined;
  }

  /** Every environment: configured in `.terrace.yaml`, named by a tfvars or backend file, or a Stack's deployment. */
  environmentNames(): string[] {
    const names = environmentNames(this.dirs.values(), this.options.environments);
    const deployments = [...this.dirs.values()].flatMap((dir) =>
      dir.stackFiles.flatMap((file) => this.files.get(file)?.facts.stack?.deployments.map(({ name }) => name) ?? []),
    );
    return deployments.length > 0 ? [...new Set([...names, ...deployments])].sort() : names;
  }

  /** Files whose facts have syntax errors: a few among thousands, listed without a scan. */
  private readonly brokenFiles = new Set<string>();
  /** `.tf` files the fast path skimmed, their syntax not yet checked (see `checkSkimmedFiles`). */
  private readonly skimmed = new Set<string>();
  private readonly matcher: ReferenceMatcher;
  private readonly backendMatchers: ((name: string) => boolean)[];

  constructor(
    readonly root: string,
    readonly options: AnalysisOptions,
  ) {
    this.matcher = new ReferenceMatcher(root);
    this.backendMatchers = options.discovery.backendConfigFiles.map((glob) =>
      picomatch(glob, { dot: true, basename: true }),
    );
  }

  /** Scans the folder and reads every Terraform file. `onProgress` is called as files are read. */
  async load(onProgress?: (done: number, total: number) => void): Promise<void> {
    const scan = await scanWorkspace(this.root, this.options.discovery);
    this.dirs = scan.dirs;
    this.scanProblems = scan.problems;
    this.gitRoots = scan.gitRoots;
    this.unreadableDirs = scan.unreadable.map((dir) => path.relative(this.root, dir).split(path.sep).join('/'));
    this.forgetEnvironments();
    const all = [...this.dirs.values()].flatMap((dir) => [
      ...dir.tfFiles,
      ...dir.varFiles,
      ...dir.backendFiles,
      ...dir.environmentVarFiles,
      ...dir.terragruntFiles,
      ...dir.stackFiles,
    ]);
    // Synchronous reads of small files are several times faster than fs.promises (one
    // thread-pool round trip per open/stat/read/close); batches keep the event loop answering.
    for (let start = 0; start < all.length; start += LOAD_BATCH) {
      for (const file of all.slice(start, start + LOAD_BATCH)) this.readAndCache(file);
      onProgress?.(Math.min(start + LOAD_BATCH, all.length), all.length);
      await new Promise((resolve) => setImmediate(resolve));
    }
    // An environment nobody names is the caller's mistake: said before any analysis (a deployment names one too).
    this.selectedEnvironment();
    this.evaluated.clear();
    this.roots = undefined;
    this.cached = undefined;
  }

  /**
   * A file changed: `text` is its new content (an editor buffer), or undefined to read it from
   * disk again (saved, closed, created or deleted).
   */
  async updateFile(file: string, text?: string): Promise<void> {
    const listed = this.ensureListed(file);
    if (listed === 'ignored') return;
    // One file, typed or changed on disk: parsed whole, so that its syntax errors show at once.
    const changed = text === undefined ? this.readAndCache(file, true) : this.cache(file, text, undefined, true);
    // An unchanged text (a hover flushing an open buffer, a save) keeps every cached result.
    if (listed === 'new') this.roots = undefined;
    if (changed || listed === 'new') this.invalidate(path.dirname(file));
  }

  /**
   * Parses the `.tf` files the fast path skimmed (none of the words the analysis reads: no facts,
   * syntax unchecked), so that their syntax errors are reported as Terraform would report them.
   * Apart from `load` so that the first diagnostics do not wait for it: the command line calls it
   * before answering, the server once the first diagnostics are out. True when any had errors.
   */
  async checkSkimmedFiles(): Promise<boolean> {
    const byHash = new Map<string, string[]>();
    for (const file of this.skimmed) {
      const hash = this.files.get(file)?.hash;
      if (hash !== undefined) (byHash.get(hash) ?? byHash.set(hash, []).get(hash)!).push(file);
    }
    this.skimmed.clear();
    let found = false;
    let parsed = 0;
    for (const [hash, files] of byHash) {
      const shared = this.factsByHash.get(hash);
      if (shared?.facts !== EMPTY_FACTS) continue;
      let text: string;
      try {
        text = readSourceFile(files[0]!);
      } catch {
        continue; // Changed since it was read: its next read reports it.
      }
      if (contentHash(text) !== hash) continue;
      const facts = syntaxOnlyFacts(text);
      if (facts.syntaxErrors.length > 0) {
        shared.facts = facts;
        for (const file of files) {
          this.files.set(file, { ...this.files.get(file)!, facts: shared.facts });
          this.brokenFiles.add(file);
          this.invalidate(path.dirname(file));
        }
        found = true;
      }
      if (++parsed % LOAD_BATCH === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    return found;
  }

  /** The file is gone: forget it. */
  removeFile(file: string): void {
    const dir = this.nestedBackendDir(file) ?? this.dirOf(path.dirname(file));
    if (dir) {
      for (const list of [
        dir.tfFiles,
        dir.varFiles,
        dir.backendFiles,
        dir.environmentVarFiles,
        dir.terragruntFiles,
        dir.stackFiles,
      ]) {
        const at = list.indexOf(file);
        if (at >= 0) list.splice(at, 1);
      }
    }
    this.forget(file);
    this.readProblems.delete(file);
    this.roots = undefined;
    this.forgetEnvironments();
    this.invalidate(path.dirname(file));
  }

  result(): AnalysisResult {
    this.cached ??= this.compute();
    return this.cached;
  }

  /** The facts of one file as last read or edited. */
  factsOf(file: string): FileFacts | undefined {
    return this.files.get(file)?.facts;
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
    const matches = this.withStackEdges(
      modules,
      this.withUnitDependencies(modules, this.withEnvironments(modules, this.matcher.matchEach(modules))),
    );
    const last = this.lastGraph;
    // Positions are root numbers; what a module's evaluation and matches decide is reused from
    // the last graph wherever they are the same objects (all but the edited modules).
    const dependencies = matches.map((own, n) =>
      last?.matches[n] === own ? last.dependencies[n]! : this.dependencyNumbers(own),
    );
    const graph = DependencyGraph.fromNumbered(rootIds, this.rootNumbers, dependencies);
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
    const merged = mergeMatches(matches);
    return {
      root: this.root,
      ...merged,
      unresolved: this.withUnreadableDirs(merged.unresolved),
      modules: summaries,
      graph,
      levels: levelLists(graph, levelOf),
      cycles: components.map((component) => cyclePath(graph, component)),
      cycleMembers: components,
      waitingForCycles:
        components.length === 0
          ? []
          : [...closure(graph, inCycle, 'downstream')].filter((id) => !inCycle.has(id)).sort(compareIds),
      syntaxErrors: this.syntaxErrors(),
      problems: this.problems(modules),
    };
  }

  /**
   * The result of a workspace whose reads are too many to match: no module, no edge, and an error
   * that says so, rather than a server that runs out of memory (25 million reads did).
   */
  private tooManyReads(roots: number, evaluated: number): AnalysisResult {
    this.evaluated.clear();
    this.lastGraph = undefined;
    const message =
      `The graph is not built: the first ${evaluated} of the ${roots} root modules already read more than the ` +
      `${MAX_WORKSPACE_READS} remote states Terrace follows in a workspace (a read counts once per instance). ` +
      'Leave folders out (discovery.exclude in .terrace.yaml), or open a part of the repository.';
    return {
      root: this.root,
      edges: [],
      unresolved: [],
      ambiguous: [],
      modules: [],
      graph: new DependencyGraph(),
      levels: [],
      cycles: [],
      cycleMembers: [],
      waitingForCycles: [],
      syntaxErrors: this.syntaxErrors(),
      problems: [...this.problems([]), { file: this.root, range: undefined, message, error: 'too-many-reads' }],
      tooBig: message,
    };
  }

  /** A state nobody writes may be written from a folder that could not be read: such references say so. */
  private withUnreadableDirs(unresolved: UnmatchedReference[]): UnmatchedReference[] {
    const dirs = this.unreadableDirs;
    if (dirs.length === 0) return unresolved;
    return unresolved.map((item) =>
      item.address === undefined
        ? item
        : { ...item, reason: `${item.reason}${unreadableNote(dirs)}`, unreadable: dirs },
    );
  }

  /** The numbers (positions among the roots) of the modules that one module's matches depend on. */
  private dependencyNumbers(own: MatchResult): number[] {
    const numbers: number[] = [];
    for (const edge of own.edges) {
      const to = this.rootNumbers.get(edge.to)!;
      if (!numbers.includes(to)) numbers.push(to);
    }
    return numbers;
  }

  /**
   * The root modules, decided again only when something that decides them changed: a file added
   * or removed, or a file whose backend blocks or module calls changed.
   */
  private rootIds(): string[] {
    if (!this.roots) {
      const factsOf = (dir: ScannedDir) => dir.tfFiles.map((file) => this.files.get(file)?.facts ?? EMPTY_FACTS);
      this.units = discoverUnits(this.dirs, this.unitFiles);
      this.unitsAsDiscovered = this.units.evaluated;
      this.components = discoverStackComponents(this.dirs, (file) => this.files.get(file)?.facts);
      this.stackGraphs.clear();
      this.stackScopes.clear();
      this.links = undefined;
      this.embeddings = undefined;
      // A stack file's values reach its units without a file of theirs: evaluated again with the stacks.
      for (const id of this.units.generated.keys()) this.evaluated.delete(id);
      const discovered = discoverRoots(this.dirs, factsOf, this.options.discovery, this.units);
      this.discoveryHint = emptyPatternHint(this.dirs, factsOf, this.options.discovery, this.units, discovered);
      const roots = [...discovered, ...this.components.keys()].sort(compareIds);
      this.rootNumbers = new Map(roots.map((id, n) => [id, n]));
      this.lastGraph = undefined;
      for (const id of [...this.evaluated.keys()]) if (!this.rootNumbers.has(id)) this.evaluated.delete(id);
      this.roots = roots;
    }
    return this.roots;
  }

  private evaluatedModule(id: string): EvaluatedModule {
    const cached = this.evaluated.get(id);
    if (cached) return cached;
    try {
      return this.evaluatedAfresh(id);
    } catch (error) {
      // One module's input must not take the analysis (and the language server) down with it.
      const failed = this.failedModule(id, error);
      this.evaluated.set(id, failed);
      this.readDirs.set(id, new Set([path.dirname(failed.problems[0]!.file)]));
      return failed;
    }
  }

  /** A module whose evaluation threw: no backend and no reads, one problem saying why, on its first file. */
  private failedModule(id: string, error: unknown): EvaluatedModule {
    const component = this.components.get(id);
    const dir = this.dirs.get(component?.stackId ?? id)?.dir ?? path.join(this.root, id);
    const kind = this.units.ids.has(id) ? 'unit' : component ? 'component' : 'module';
    const file = kind === 'unit' ? path.join(dir, UNIT_FILE) : (this.dirs.get(id)?.tfFiles[0] ?? dir);
    const why =
      error instanceof RangeError ? `${error.message} (nesting or sizes past what Terrace reads)` : String(error);
    return {
      id,
      dir,
      kind,
      backend: undefined,
      references: [],
      dependencies: [],
      problems: [{ file, range: FILE_START, message: `Terrace could not evaluate this module: ${why}` }],
    };
  }

  private evaluatedAfresh(id: string): EvaluatedModule {
    if (this.units.ids.has(id)) return this.evaluatedUnit(id);
    if (this.components.has(id)) return this.evaluatedComponent(id);
    const dir = this.dirs.get(id)!;
    // The folders whose changes re-evaluate this root: its own, and those of backend files kept in its sub-folders.
    const read = new Set<string>([dir.dir, ...dir.backendFiles.map((file) => path.dirname(file))]);
    const module = this.evaluateIn(id, this.selectedEnvironment(), read);
    this.evaluated.set(id, module);
    this.readDirs.set(id, read);
    return module;
  }

  /** The Terragrunt files of the workspace as they are on disk (and in open editors). */
  private get unitFiles(): UnitSource {
    return {
      workspaceRoot: this.root,
      gitRoots: this.gitRoots,
      configOf: (file) => this.files.get(file)?.facts.terragrunt,
    };
  }

  /** The Terragrunt files of the workspace with the units stacks generate, for units' evaluation. */
  private get unitSource(): UnitSource {
    // Kept while the units and git roots stay: built afresh for each unit, 10,000 generated units took a minute.
    const memo = this.unitSourceMemo;
    if (memo?.units === this.units && memo.source.gitRoots === this.gitRoots) return memo.source;
    const source = withGeneratedUnits(this.unitFiles, this.units.generated.values());
    this.unitSourceMemo = { units: this.units, source };
    return source;
  }

  /** Discovery's evaluation of each unit (the same as the analysis's), until a file changes: not done twice. */
  private unitsAsDiscovered: ReadonlyMap<string, EvaluatedUnit> = new Map();

  private unitSourceMemo: { units: DiscoveredUnits; source: UnitSource } | undefined;

  private units: DiscoveredUnits = NO_UNITS;
  /** The nodes of the workspace's Terraform Stacks, by id; decided with the roots. */
  private components = new Map<string, StackComponentRef>();
  /** Each Stack's graph, by its folder id; forgotten when a file of its folder changes. */
  private readonly stackGraphs = new Map<string, StackGraph>();

  /** A Stack's component or embedded stack, from its Stack's graph and what it reads of other Stacks. */
  private evaluatedComponent(id: string): EvaluatedModule {
    const { stackId, address } = this.components.get(id)!;
    const dir = this.dirs.get(stackId)!;
    const graph = this.stackGraph(stackId)!;
    const node = graph.nodes.find((candidate) => candidate.address === address)!;
    const links = this.stackLinks().filter((link) => link.from === stackId);
    const embeddedBy = this.stackEmbeddings().get(stackId) ?? [];
    const embeds = node.kind === 'stack' ? this.embeddedStack(dir, node) : undefined;
    // The folders of its upstream Stacks, of the Stacks that embed it and of the one it embeds decide its edges too.
    const others = [
      ...links.flatMap((link) => (link.to === undefined ? [] : [link.to])),
      ...embeddedBy.map((embedding) => embedding.stackId),
      ...(embeds ? [embeds.stackId] : []),
    ];
    const read = new Set([dir.dir, ...others.map((other) => this.dirs.get(other)?.dir ?? '')]);
    const code = this.componentCode(dir, node, read);
    const module = componentModule(
      id,
      dir,
      graph,
      node,
      { links, graphOf: (other) => this.stackGraph(other), embeddedBy, embeds },
      code,
      this.sourceFile(dir, node, code),
    );
    this.evaluated.set(id, module);
    this.readDirs.set(id, read);
    return module;
  }

  /** The Stack an embedded `stack` block's local `source` names, with its graph. */
  private embeddedStack(dir: ScannedDir, node: StackNode): { stackId: string; graph: StackGraph } | undefined {
    const source = componentSourceDir(dir.dir, node.source);
    const embedded = source === undefined ? undefined : this.dirOf(source);
    const graph = embedded && embedded.stackFiles.length > 0 ? this.stackGraph(embedded.id) : undefined;
    return embedded && graph ? { stackId: embedded.id, graph } : undefined;
  }

  /** By Stack folder, the `stack` blocks of other Stacks that embed it (their local `source` is its folder). */
  private stackEmbeddings(): ReadonlyMap<string, StackEmbedding[]> {
    if (!this.embeddings) {
      const embeddings = new Map<string, StackEmbedding[]>();
      for (const dir of this.dirs.values()) {
        if (dir.stackFiles.length === 0) continue;
        for (const node of this.stackGraph(dir.id)?.nodes ?? []) {
          const embedded = node.kind === 'stack' ? this.embeddedStack(dir, node) : undefined;
          if (embedded)
            embeddings.set(embedded.stackId, [...(embeddings.get(embedded.stackId) ?? []), { stackId: dir.id, node }]);
        }
      }
      this.embeddings = embeddings;
    }
    return this.embeddings;
  }

  private embeddings: Map<string, StackEmbedding[]> | undefined;

  /** The file a node's local `source` opens: its module's `main.tf` (else first file), an embedded Stack's first file. */
  private sourceFile(dir: ScannedDir, node: StackNode, code: ComponentCode | undefined): string | undefined {
    if (code) {
      const files = code.files.map((input) => input.file);
      return files.find((file) => path.basename(file) === 'main.tf') ?? files[0];
    }
    const stackDir = node.kind === 'stack' ? componentSourceDir(dir.dir, node.source) : undefined;
    return stackDir === undefined ? undefined : this.dirOf(stackDir)?.stackFiles[0];
  }

  /** A component's module in a folder of the workspace, given the component's inputs in the selected deployment. */
  private componentCode(dir: ScannedDir, node: StackNode, read: Set<string>): ComponentCode | undefined {
    const codeDir = node.kind === 'component' ? componentSourceDir(dir.dir, node.source) : undefined;
    if (codeDir === undefined) return undefined;
    read.add(codeDir);
    return {
      dir: codeDir,
      files: this.fileInputs(this.dirOf(codeDir)?.tfFiles ?? []),
      variables: componentInputs(node, this.stackScope(dir)),
      children: this.childModules(read),
    };
  }

  /** A Stack's `var` and `local` in the selected deployment, once for all its components; forgotten with its graph. */
  private stackScope(dir: ScannedDir): EvalScope {
    let scope = this.stackScopes.get(dir.id);
    if (!scope) {
      const files = stackSourceFiles(dir, (file) => this.files.get(file)?.facts);
      const name = this.options.environment;
      scope = stackScope(files, name === undefined ? undefined : { name, variables: deploymentVariables(files, name) });
      this.stackScopes.set(dir.id, scope);
    }
    return scope;
  }

  private readonly stackScopes = new Map<string, EvalScope>();

  /** Files as an evaluation reads them: Terraform's files with their override files merged over them. */
  private fileInputs(files: readonly string[]): readonly FileInput[] {
    return withOverrides(files.map((file) => ({ file, facts: this.files.get(file)?.facts ?? EMPTY_FACTS })));
  }

  /** The files of the local child modules a module calls; each folder asked for is added to `read`. */
  private childModules(read: Set<string>): ChildModules {
    return (childDir) => {
      read.add(childDir);
      const child = this.dirOf(childDir);
      return child ? this.fileInputs(child.tfFiles) : undefined;
    };
  }

  private stackGraph(stackId: string): StackGraph | undefined {
    const dir = this.dirs.get(stackId);
    if (!dir) return undefined;
    let graph = this.stackGraphs.get(stackId);
    if (!graph) {
      graph = componentGraph(stackSourceFiles(dir, (file) => this.files.get(file)?.facts));
      this.stackGraphs.set(stackId, graph);
    }
    return graph;
  }

  /** The links between the workspace's Stacks by `upstream_input`; forgotten when a Stack's file changes. */
  private stackLinks(): readonly StackLink[] {
    this.links ??= stackLinks(
      [...this.dirs.values()]
        .filter((dir) => dir.stackFiles.length > 0)
        .map((dir) => ({ folder: dir.id, files: stackSourceFiles(dir, (file) => this.files.get(file)?.facts) })),
    );
    return this.links;
  }

  private links: StackLink[] | undefined;

  /** Stack components' edges, added to their matches; cached per matches. */
  private withStackEdges(modules: readonly EvaluatedModule[], matches: MatchResult[]): MatchResult[] {
    if (this.components.size === 0) return matches;
    return matches.map((own, n) => {
      const module = modules[n]!;
      if (!module.component) return own;
      let result = this.componentEdgeCache.get(own);
      if (!result) {
        result = withComponentEdges(module, own);
        this.componentEdgeCache.set(own, result);
      }
      return result;
    });
  }

  private readonly componentEdgeCache = new WeakMap<MatchResult, MatchResult>();

  /** A Terragrunt unit: its configuration with what it includes, then its Terraform code with its inputs. */
  private evaluatedUnit(id: string): EvaluatedModule {
    // A unit of a stack file lives where `terragrunt stack generate` puts it; its configuration is its source's.
    const generated = this.units.generated.get(id);
    const folder = generated?.dir ?? this.dirs.get(id)!.dir;
    const unit =
      this.unitsAsDiscovered.get(id) ??
      evaluateUnit(path.join(folder, UNIT_FILE), this.unitSource, generated?.values ?? null);
    // Where it looked too: a root.hcl created above it, say, is found by find_in_parent_folders().
    const read = new Set<string>([folder, ...unit.read.map((file) => path.dirname(file)), ...unit.lookedIn]);
    if (generated) read.add(path.dirname(generated.source));
    const code = unit.codeDir === undefined ? undefined : this.dirOf(unit.codeDir);
    if (unit.codeDir !== undefined) read.add(unit.codeDir);
    const module = evaluateUnitModule(
      {
        id,
        unit,
        code: this.fileInputs(code?.tfFiles ?? []),
        terraformWorkspace: this.options.terraformWorkspace,
        backendConfig: this.options.backendConfig,
      },
      this.childModules(read),
    );
    this.evaluated.set(id, module);
    this.readDirs.set(id, read);
    return module;
  }

  /** A root evaluated in `environment` (none: every backend file, no variables); adds the folders it read to `read`. */
  private evaluateIn(id: string, environment: Environment | undefined, read: Set<string>): EvaluatedModule {
    const dir = this.dirs.get(id)!;
    const chosen = environment?.inputs(dir);
    return evaluateModule(
      {
        id,
        dir: dir.dir,
        files: this.fileInputs(dir.tfFiles),
        // Terraform's order: terraform.tfvars, *.auto.tfvars, then the -var-files in the order given.
        varFiles: this.fileInputs(chosen ? [...dir.varFiles, ...chosen.varFiles] : dir.varFiles),
        backendFiles: this.fileInputs(chosen ? chosen.backendFiles : dir.backendFiles),
        terraformWorkspace: environment?.workspace ?? this.options.terraformWorkspace,
        variables: environment?.variables,
        backendConfig: this.options.backendConfig,
      },
      this.childModules(read),
    );
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
      // A unit has no environments of its own (no tfvars of its own: its inputs are its variables), nor a Stack's component.
      if (own.unresolved.length === 0 || module.kind !== 'module') return own;
      const cached = this.unions.get(module);
      if (cached && cached.version === version && cached.base === own) return cached.result;
      const perEnvironment = environments.map((environment) => ({
        environment: environment.name,
        matches: this.matcher.matchAgainstLast(this.evaluateIn(module.id, environment, new Set()))!,
      }));
      const result = unionOverEnvironments(own, perEnvironment);
      this.unions.set(module, { version, base: own, result });
      return result;
    });
  }

  /** Units' `dependency` edges, added to their matches; cached per matches while the roots hold. */
  private withUnitDependencies(modules: readonly EvaluatedModule[], matches: MatchResult[]): MatchResult[] {
    if (this.units.ids.size === 0) return matches;
    const numbers = this.rootNumbers;
    const units = this.units.ids;
    const unitAt = (dir: string): string | undefined => {
      const relative = path.relative(this.root, dir).split(path.sep).join('/');
      const id = relative === '' ? '.' : relative;
      return units.has(id) && numbers.has(id) ? id : undefined;
    };
    return matches.map((own, n) => {
      const module = modules[n]!;
      if (module.dependencies.length === 0) return own;
      const cached = this.withDependencyCache.get(own);
      if (cached && cached.numbers === numbers) return cached.result;
      const result = withDependencies(module, own, unitAt);
      this.withDependencyCache.set(own, { numbers, result });
      return result;
    });
  }

  private readonly withDependencyCache = new WeakMap<MatchResult, { numbers: object; result: MatchResult }>();

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
    const generated = this.units.generated.get(module.id);
    const dir = this.dirs.get(module.id);
    const backend = module.backend;
    const own = writerAddresses(module, 'default', this.root);
    const address = own.length === 1 && own[0]!.known ? own[0]!.address : undefined;
    return {
      id: module.id,
      dir: module.dir,
      kind: module.kind,
      ...(module.sourceDirs !== undefined ? { sourceDirs: module.sourceDirs } : {}),
      // A component's segments are its Stack folder's: `component.x` is no folder of the pattern.
      segments: moduleSegments(
        module.component ? path.relative(this.root, module.dir).split(path.sep).join('/') || '.' : module.id,
        this.options.discovery.pattern,
      ),
      level: 0,
      inCycle: false,
      backend: backend && {
        type: backend.type,
        address,
        file: backend.file,
        range: backend.range,
        headerRange: backend.headerRange,
      },
      // A unit of a stack file opens at the stack file that declares it; a component at its Stack's file.
      firstFile: generated
        ? path.join(generated.stackDir, STACK_FILE)
        : module.component
          ? module.component.file
          : module.kind === 'unit'
            ? path.join(module.dir, UNIT_FILE)
            : dir!.tfFiles[0]!,
      ...(generated ? { stackDir: generated.stackDir } : {}),
      ...(module.component ? { component: componentSummary(module.component) } : {}),
      syntaxErrors: this.syntaxErrors(this.readDirs.get(module.id)),
    };
  }

  /** The syntax errors of every file, or of the files in `dirs`, sorted by file and line. */
  private syntaxErrors(dirs?: ReadonlySet<string>): FileProblem[] {
    const errors: FileProblem[] = [];
    for (const file of this.brokenFiles) {
      if (dirs && !dirs.has(path.dirname(file))) continue;
      for (const error of this.files.get(file)?.facts.syntaxErrors ?? [])
        errors.push({ file, range: error.range, message: error.message });
    }
    return errors.sort((a, b) =>
      a.file < b.file ? -1 : a.file > b.file ? 1 : a.range!.start.line - b.range!.start.line,
    );
  }

  /** Scan, read and module problems; a child module called from several roots reports its problem once. */
  private problems(modules: readonly EvaluatedModule[]): FileProblem[] {
    const all: FileProblem[] = [
      ...this.scanProblems.map((problem) => ({ file: problem.path, range: undefined, message: problem.message })),
      ...[...this.readProblems].map(([file, message]) => ({ file, range: undefined, message })),
    ];
    for (const module of modules) for (const problem of module.problems) all.push(refusedOrNot(problem));
    for (const problem of this.units.problems) all.push(refusedOrNot(problem));
    if (this.discoveryHint) all.push({ ...this.discoveryHint, range: undefined });
    // A Stack's upstream inputs that find no Stack, or read what it does not publish: said once per input.
    if (this.components.size > 0)
      for (const link of this.stackLinks())
        if (link.problem !== undefined)
          all.push({ file: link.file, range: link.range, message: `upstream_input "${link.input}": ${link.problem}` });
    const seen = new Set<string>();
    return all.filter((problem) => {
      const key = `${problem.file}:${problem.range?.start.line ?? ''}:${problem.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  /**
   * Reads a file and caches its facts; true when what the analysis knows of it changed. `whole`:
   * parse even a file the fast path would skim (see `extract`).
   */
  private readAndCache(file: string, whole = false): boolean {
    try {
      const changed = this.cache(file, readSourceFile(file), undefined, whole);
      return this.readProblems.delete(file) || changed;
    } catch (error) {
      if (error instanceof EncodingError) {
        // Terraform fails on the file: an error on it, as a syntax error is, and the module marked.
        const facts: FileFacts = { ...EMPTY_FACTS, syntaxErrors: [{ range: FILE_START, message: error.message }] };
        const changed = this.cache(file, `\0${error.message}`, facts);
        return this.readProblems.delete(file) || changed;
      }
      this.forget(file);
      this.roots = undefined;
      this.readProblems.set(file, `cannot read: ${error instanceof Error ? error.message : String(error)}`);
      return true;
    }
  }

  /**
   * Caches the facts of `text` for `file`; true when the content changed. Facts are shared by
   * content hash (many files are identical), and dropped when no file has that content any more,
   * so a long editing session does not keep every version it typed.
   */
  private cache(file: string, text: string, known?: FileFacts, whole = false): boolean {
    const hash = contentHash(text);
    if (this.files.get(file)?.hash === hash) return false;
    let shared = this.factsByHash.get(hash);
    if (!shared) {
      shared = { facts: known ?? this.extract(file, text, whole), uses: 0 };
      this.factsByHash.set(hash, shared);
    }
    const previous = this.files.get(file);
    const own = shared.facts;
    const good = own.syntaxErrors.length === 0 ? own : previous?.good;
    const facts = good && good !== own ? { ...good, syntaxErrors: own.syntaxErrors } : own;
    if (!previous || decidesRoots(previous.facts) !== decidesRoots(facts)) this.roots = undefined;
    this.forget(file);
    shared.uses++;
    this.files.set(file, { hash, facts, good });
    if (own.syntaxErrors.length > 0) this.brokenFiles.add(file);
    if (own === EMPTY_FACTS) this.skimmed.add(file);
    return true;
  }

  private forget(file: string): void {
    const previous = this.files.get(file);
    if (!previous) return;
    this.files.delete(file);
    this.brokenFiles.delete(file);
    this.skimmed.delete(file);
    const shared = this.factsByHash.get(previous.hash);
    if (shared && --shared.uses === 0) this.factsByHash.delete(previous.hash);
  }

  /** `whole`: parse even a file the fast path would skim (one file changed on disk, or an editor's buffer). */
  private extract(file: string, text: string, whole = false): FileFacts {
    if (file.endsWith('.json')) return factsFromDocument(tfJsonDocument(text, { keepBody }));
    if (stackFileKind(file) !== undefined) return stackFacts(file, text);
    if (file.endsWith('.hcl')) return this.hclFacts(file, text);
    if (!mayHaveFacts(text) && !isAttributeFile(file)) return whole ? syntaxOnlyFacts(text) : EMPTY_FACTS;
    const document = parseHcl(text, { keepBody });
    // A syntax error must not take the blocks after it along: the module keeps what still parses.
    return factsFromDocument(document.errors.length > 0 ? salvageBlocks(text, document, { keepBody }) : document);
  }

  /**
   * A `.hcl` file: a backend configuration file (its attributes), a Terragrunt configuration, or
   * both as far as the analysis knows. Syntax errors are reported for backend files and
   * `terragrunt.hcl` only: other `.hcl` files (Packer, Vault policies, HCL1) may not be Terragrunt's.
   */
  private hclFacts(file: string, text: string): FileFacts {
    const document = parseHcl(text);
    const kept: HclDocument = document.errors.length > 0 ? salvageBlocks(text, document, {}) : document;
    const backendFile =
      nestedBackendOwner(file) !== undefined || fileRole(path.basename(file), this.backendMatchers) === 'backendFiles';
    const reported = backendFile || path.basename(file) === UNIT_FILE;
    return {
      ...factsFromDocument(kept),
      terragrunt: terragruntFileFacts(kept),
      syntaxErrors: reported ? document.errors : [],
    };
  }

  /** Lists a file the scan did not (created since): `new`; `listed` when known; `ignored` when the analysis does not read it. */
  private ensureListed(file: string): 'listed' | 'new' | 'ignored' {
    const folder = path.dirname(file);
    const relative = path.relative(this.root, folder);
    if (relative.startsWith('..') || path.isAbsolute(relative)) return 'ignored';
    const nested = this.nestedBackendDir(file);
    if (nested) {
      if (nested.backendFiles.includes(file)) return 'listed';
      nested.backendFiles.push(file);
      nested.backendFiles.sort();
      this.forgetEnvironments();
      return 'new';
    }
    const role = fileRole(path.basename(file), this.backendMatchers);
    if (role === undefined) return 'ignored';
    let dir = this.dirOf(folder);
    if (role === 'lock') {
      // A lock file can make its folder a root module; it has no facts of its own.
      if (!dir || dir.hasLockFile) return 'ignored';
      dir.hasLockFile = true;
      return 'new';
    }
    let status: 'listed' | 'new' = 'listed';
    if (!dir) {
      if ((role !== 'tfFiles' && role !== 'terragruntFiles' && role !== 'stackFiles') || this.isAliasFolder(folder))
        return 'ignored';
      const id = relative === '' ? '.' : relative.split(path.sep).join('/');
      dir = emptyDir(folder, id);
      this.dirs.set(id, dir);
    }
    const list = dir[role];
    if (!list.includes(file)) {
      list.push(file);
      list.sort(role === 'varFiles' ? varFileOrder : undefined);
      status = 'new';
      // A new file may name a new environment, which changes whose backend files are whose.
      this.forgetEnvironments();
    }
    return status;
  }

  /**
   * A folder reached through a symbolic link to another folder of the workspace: its files are
   * read at their real path only, as the scan does (see `scanWorkspace`).
   */
  private isAliasFolder(folder: string): boolean {
    try {
      const real = realpathSync(folder);
      const root = realpathSync(this.root);
      // Not behind a link: its real path is the root's, followed by the same names.
      if (real === path.join(root, path.relative(this.root, folder))) return false;
      return folderContains(root, real);
    } catch {
      return false;
    }
  }

  /** The root folder whose `backend/` or `config/<env>/` holds `file`, when it is one of its backend files. */
  private nestedBackendDir(file: string): ScannedDir | undefined {
    const owner = nestedBackendOwner(file);
    return owner === undefined ? undefined : this.dirOf(owner);
  }

  private dirOf(folder: string): ScannedDir | undefined {
    const relative = path.relative(this.root, folder);
    return this.dirs.get(relative === '' ? '.' : relative.split(path.sep).join('/'));
  }

  /** Forgets the evaluation of every root that read `folder`. */
  private invalidate(folder: string): void {
    const stack = this.dirOf(folder);
    if (stack) {
      this.stackGraphs.delete(stack.id);
      this.stackScopes.delete(stack.id);
    }
    if (stack?.stackFiles.length) {
      this.links = undefined;
      this.embeddings = undefined;
    }
    for (const [id, read] of this.readDirs) {
      if (read.has(folder)) {
        this.evaluated.delete(id);
        this.readDirs.delete(id);
      }
    }
    this.unitsAsDiscovered = new Map();
    this.cached = undefined;
  }
}

/**
 * What a file says that decides which folders are root modules: backends and module sources; in a
 * Terragrunt file, its includes, Terraform source and stack blocks (which units there are, and
 * which folders are their code). A changed `dependency` or input only re-evaluates its units.
 */
function decidesRoots(facts: FileFacts): string {
  const sources = facts.moduleCalls.map((call) => localSource(call.source) ?? '');
  const terragrunt = facts.terragrunt;
  const units = terragrunt
    ? withoutRanges([
        terragrunt.includes.map((include) => include.path),
        terragrunt.source?.expr,
        terragrunt.stackEntries,
      ])
    : '';
  // A Stack's nodes are roots: a component added, renamed or removed changes them.
  const stack = facts.stack
    ? [...facts.stack.components, ...facts.stack.stacks].map((block) => block.name).join(',')
    : '';
  return `${facts.backends.length > 0}|${sources.join('|')}|${units}|${stack}`;
}

/** What a summary keeps of a component: not its edges, which the graph has. */
function componentSummary(component: ComponentFacts): NonNullable<ModuleSummary['component']> {
  const { address, file, range, headerRange, source, sourceLink, instances } = component;
  return { address, file, range, headerRange, source, sourceLink, instances };
}

/** Expressions as text without their places: the same when only lines moved. */
function withoutRanges(value: unknown): string {
  return (
    JSON.stringify(value, (key, inner: unknown) => (key === 'range' || key === 'headerRange' ? undefined : inner)) ?? ''
  );
}

function isAttributeFile(file: string): boolean {
  return !file.endsWith('.tf');
}

/** Files read between two turns of the event loop while loading. */
const LOAD_BATCH = 200;

/** A Terraform Stack's file: what it says, and its syntax errors (the blocks that still parse are kept). */
function stackFacts(file: string, text: string): FileFacts {
  const document = parseHcl(text);
  const kept: HclDocument = document.errors.length > 0 ? salvageBlocks(text, document, {}) : document;
  return { ...EMPTY_FACTS, stack: stackFileFacts(kept, stackFileKind(file)!), syntaxErrors: document.errors };
}

/**
 * The largest file Terrace reads: generated `.tf.json` files run to tens of megabytes (50 MB is read);
 * past this, a file is reported and left out rather than held in memory.
 */
export const MAX_FILE_BYTES = 128 * 1024 * 1024;

/** A module's or a stack file's problem as the analysis reports it: an error when Terragrunt refuses it. */
function refusedOrNot(problem: ModuleProblem): FileProblem {
  const { error, ...rest } = problem;
  return error ? { ...rest, error: 'refused-by-terragrunt' } : rest;
}

/**
 * Remote-state reads (one per instance) one workspace's graph is built from, at most: matched,
 * they take about 0.8 KB each, and 5,000 roots each reading the other 5,000 ran out of memory.
 */
export const MAX_WORKSPACE_READS = 250_000;

function contentHash(text: string): string {
  return createHash('sha1').update(text).digest('base64');
}

/**
 * The facts of a file the fast path skims (none of the words facts come from), parsed for its syntax
 * errors only: no block's body is kept. A new object, not `EMPTY_FACTS`: this one was checked.
 */
function syntaxOnlyFacts(text: string): FileFacts {
  return { ...EMPTY_FACTS, syntaxErrors: parseHcl(text, { keepBody: () => false }).errors };
}

/**
 * A source file's text. Only regular files are read: a pipe named `*.tf` would block the scan until
 * something writes to it, and a link to a device (`/dev/zero`) would be read without end.
 */
function readSourceFile(file: string): string {
  const stat = statSync(file);
  if (!stat.isFile()) throw new Error('not a regular file (a pipe, a device or a socket), so not read');
  if (stat.size > MAX_FILE_BYTES)
    throw new Error(
      `${Math.round(stat.size / 1024 / 1024)} MB, more than the ${MAX_FILE_BYTES / 1024 / 1024} MB Terrace reads, so not read`,
    );
  return decodeSource(readFileSync(file));
}

/** A file Terraform cannot read for its encoding: it reads UTF-8 only. */
class EncodingError extends Error {}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The text of a source file, which Terraform reads as UTF-8 (a byte order mark allowed). */
function decodeSource(bytes: Buffer): string {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    throw new EncodingError('this file is saved as UTF-16; Terraform reads only UTF-8: save it as UTF-8');
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new EncodingError('this file is not valid UTF-8, the only encoding Terraform reads: save it as UTF-8');
  }
}
