import type { AnalysisOptions, Engine } from '../config';
import type { Range } from '../hcl';
import type { MatchResult } from '../state';
import type { ComponentFacts, Environment, EvaluatedModule, FileFacts, ScannedDir } from '../workspace';

/** What the analysis shows each kind of the workspace: its folders and the facts of their files, as they are now. */
export interface KindWorkspace {
  readonly root: string;
  readonly options: AnalysisOptions;
  dirs(): ReadonlyMap<string, ScannedDir>;
  dirOf(folder: string): ScannedDir | undefined;
  factsOf(file: string): FileFacts | undefined;
  gitRoots(): readonly string[];
  /** Whether the workspace has this file: one the analysis reads, or any other the scan saw (`global.yaml`). */
  hasFile(file: string): boolean;
  /** The engine that reads the workspace: which files a folder's are, and whether backends and sources see variables. */
  engine(): Engine;
}

/** The nodes one kind found in a scan. */
export interface FoundNodes {
  ids: readonly string[];
  /** Folders that are these nodes' code: no node of a kind after this one. */
  codeDirs: ReadonlySet<string>;
  /** Nodes to evaluate again though no folder they read changed. */
  stale: readonly string[];
}

/** One node evaluated, with the folders whose files it read: an edit in one of them evaluates it again. */
export interface NodeEvaluation {
  module: EvaluatedModule;
  read: ReadonlySet<string>;
}

/** A problem of a kind's own, beside its nodes': `error` when the tool that runs them refuses it. */
export interface KindProblem {
  file: string;
  range: Range | undefined;
  message: string;
  error?: true | 'variables-not-allowed' | 'not-evaluated';
}

/** What a node's summary says of it beside its evaluation (see `ModuleSummary`). */
export interface NodeDescription {
  /** The folder id whose place in the discovery pattern gives its segments. */
  folder: string;
  /** Its summary's own fields, in their order: the file to open for it when it declares no backend, and its kind's. */
  shown: { firstFile: string; stackDir?: string; component?: Omit<ComponentFacts, 'edges' | 'unknown'> };
}

/**
 * A kind of node of the workspace's graph: root modules, Terragrunt units, Stack components. The
 * analysis keeps the files, matches what the nodes read to what they write, and decides what an edit
 * invalidates from the folders each evaluation read; a kind knows how its nodes are found and evaluated.
 */
export interface NodeKind {
  readonly name: EvaluatedModule['kind'];
  /** Evaluated again in each environment the workspace names, for their union, when none is selected. */
  readonly hasEnvironments: boolean;
  /** What a file's facts say that decides which nodes of this kind there are. */
  nodesKey(facts: FileFacts): string;
  /** Its nodes, given those the kinds before it found; what it kept of the previous ones is dropped. */
  discover(before: readonly FoundNodes[]): FoundNodes;
  /** One of its nodes evaluated in `environment`: the selected one, or each in turn for their union (undefined: none). */
  evaluate(id: string, environment: Environment | undefined): NodeEvaluation;
  /**
   * Whether the environment gives node `id` anything of its own (variables, a workspace, files), so that its
   * evaluation there may differ from its evaluation in none; asked of a kind that `hasEnvironments`.
   */
  differsIn(id: string, environment: Environment): boolean;
  /** Where a node whose evaluation failed is: its folder, and the file its problem is reported on. */
  placeOf(id: string): { dir: string; file: string };
  /** One node's matches with the edges the kind adds beside its state reads; `numbers`: the nodes' positions. */
  withEdges(module: EvaluatedModule, own: MatchResult, numbers: ReadonlyMap<string, number>): MatchResult;
  /** What one of its nodes' summary says beside its evaluation. */
  describe(module: EvaluatedModule): NodeDescription;
  /** The files of `folder` changed: what the kind computed from them is forgotten. */
  forget(folder: string): void;
  /** The environments its files name beside tfvars and backend files (a Stack's deployments). */
  environmentNames(): readonly string[];
  /** Its problems beside its nodes' own. */
  problems(): readonly KindProblem[];
}
