import type { FileRead } from '../evaluation';
import { DependencyGraph } from '../graph';
import type { Range } from '../hcl';
import type { KindProblem } from '../kinds';
import type { MatchResult } from '../state';
import type { ComponentFacts, Engine } from '../workspace';

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
  /**
   * The files its plan reads, with how (see `FileRead`): its own folder's, its child modules', what it
   * includes, what its file functions name. A change to one of them reaches it (`changeReach`).
   */
  reads: readonly FileRead[];
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
  /**
   * What Terrace could not evaluate of it (a block, its reads, the whole module): what it depends on is
   * not known for sure, so pipelines and runs refuse it as they refuse a module that does not parse.
   */
  notEvaluated?: FileProblem[];
}

export interface FileProblem {
  file: string;
  range: Range | undefined;
  message: string;
  /**
   * Set for an error, not a warning: what Terragrunt itself refuses (an include of the file itself),
   * a variable in a backend Terraform reads, a workspace too big to build a graph of (`MAX_WORKSPACE_READS`),
   * or what Terrace could not evaluate of a module (its place in the order is not known).
   */
  error?: 'refused-by-terragrunt' | 'variables-not-allowed' | 'too-many-reads' | 'not-evaluated';
}

export interface AnalysisResult extends MatchResult {
  root: string;
  /** The engine that reads the workspace, and runs it unless `execution.binary` says otherwise. */
  engine: Engine;
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
  /** The workspace's links to files, by the file each names: a change to one is a change to its links. */
  linksTo?: ReadonlyMap<string, readonly string[]>;
}

/** A module's or a kind's problem as the analysis reports it: an error when Terragrunt refuses it. */
export function fileProblem(problem: KindProblem): FileProblem {
  const { error, ...rest } = problem;
  if (error === undefined) return rest;
  return { ...rest, error: error === true ? 'refused-by-terragrunt' : error };
}

/** The result of a workspace too big to build a graph of: no module, no edge, and why. */
export function tooBigResult(
  root: string,
  engine: Engine,
  message: string,
  syntaxErrors: FileProblem[],
  problems: FileProblem[],
): AnalysisResult {
  return {
    root,
    engine,
    edges: [],
    unresolved: [],
    ambiguous: [],
    modules: [],
    graph: new DependencyGraph(),
    levels: [],
    cycles: [],
    cycleMembers: [],
    waitingForCycles: [],
    syntaxErrors,
    problems,
    tooBig: message,
  };
}
