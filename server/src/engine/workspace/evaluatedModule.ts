import type { Engine } from '../config';
import type { FileRead, ObjectValue, Unknown, Value } from '../evaluation';
import type { Range } from '../hcl';
import type { StackEdge, StackNode, StackProblem } from '../stacks';
import type { UnitDependency } from '../terragrunt';
import type { FileFacts } from './fileFacts';
import type { GeneratedOutput } from './generatedOutputs';

/** What a module's evaluation takes and gives: its files and inputs, its backend, its reads of other states, what it reads. */

/** A file and what it contributes. */
export interface FileInput {
  file: string;
  facts: FileFacts;
}

/** One root module's inputs: its own files, its variable files and its partial backend files. */
export interface ModuleInput {
  id: string;
  /** Absolute folder: the working directory Terraform runs in, against which local paths resolve. */
  dir: string;
  files: readonly FileInput[];
  varFiles: readonly FileInput[];
  backendFiles: readonly FileInput[];
  /** The value of `terraform.workspace`; undefined when not chosen (see AnalysisOptions.terraformWorkspace). */
  terraformWorkspace: string | undefined;
  /** Variable values given on the command line (an environment's `-var`s), over every tfvars file. */
  variables?: ReadonlyMap<string, Value>;
  /** What CI passes with `-backend-config` when there are no backend files (AnalysisOptions.backendConfig). */
  backendConfig?: Readonly<Record<string, string>>;
  /** What its kind knows it reads beside what its code says: its folder, its variable and backend files, its configuration. */
  reads?: readonly FileRead[];
  /**
   * The engine that runs it; default Terraform. OpenTofu (1.8 and later) evaluates variables and locals
   * early: in the backend block and in module sources. Terraform refuses a variable in a backend.
   */
  engine?: Engine;
}

/** The `.tf` files of a local child module's folder, or undefined when the folder has none. */
export type ChildModules = (dir: string) => readonly FileInput[] | undefined;

/** A module's own backend: where it writes its state. */
export interface ModuleBackend {
  type: string;
  file: string;
  range: Range;
  headerRange: Range;
  /** One configuration per partial backend file (merged over the block), or the block's alone. */
  configs: { config: ObjectValue | Unknown; from: string | undefined }[];
}

/** One instance of a `terraform_remote_state` block, evaluated in the root that runs it. */
export interface Reference {
  name: string;
  /** The file that holds the block: the root's own, or a child module's. */
  file: string;
  range: Range;
  headerRange: Range;
  /** The for_each key or count index; for a block in a child module, prefixed with the call (`module.x`). */
  instance: string | null;
  backend: string | Unknown;
  config: ObjectValue | Unknown;
  workspace: string | Unknown;
  /** The root module's folder (Terraform's working directory), for local paths. */
  cwd: string;
  /** Absent for a `terraform_remote_state` block; a Terragrunt unit's `dependency` block or `dependencies` path otherwise. */
  block?: 'dependency' | 'dependencies' | 'component';
  /**
   * When no workspace was chosen and the address depends on `terraform.workspace`: the configuration
   * and workspace evaluated with it unknown, tried when the `default` workspace's address finds no writer.
   */
  anyWorkspace?: { config: ObjectValue | Unknown; workspace: string | Unknown };
}

export interface ModuleProblem {
  file: string;
  range: Range;
  message: string;
  /**
   * An error, not a warning: `true` when Terragrunt itself fails on it (an include of the file itself),
   * `variables-not-allowed` for a reference in a backend Terraform reads, `not-evaluated` for what
   * Terrace could not evaluate (see `guarded`).
   */
  error?: true | 'variables-not-allowed' | 'not-evaluated';
}

export interface EvaluatedModule {
  id: string;
  dir: string;
  /**
   * `unit`: a Terragrunt unit (its folder's `terragrunt.hcl`), run with terragrunt; `component`: a
   * Terraform Stack's component or embedded stack, which only HCP Terraform plans.
   */
  kind: 'module' | 'unit' | 'component';
  backend: ModuleBackend | undefined;
  references: Reference[];
  /** A unit's `dependency` blocks and `dependencies` paths: edges by folder, not by state. */
  dependencies: readonly UnitDependency[];
  /** A unit's other folders whose files its plan depends on: its local code's, its included and read files'. */
  sourceDirs?: readonly string[];
  /** A unit's Terraform code, where its outputs are declared: its own folder, or a local `terraform.source`; absent when remote or not known. */
  codeDir?: string;
  /** The outputs a unit's `generate` blocks write into its code. */
  generatedOutputs?: readonly GeneratedOutput[];
  problems: ModuleProblem[];
  /** A Stack's component: its block, and the nodes of its Stack it waits for (by id). */
  component?: ComponentFacts;
  /** The files its plan reads beside its own folder's (see `FileRead`): what a change must touch to alter it. */
  reads: readonly FileRead[];
}

/** What the graph needs of a Stack's component or embedded stack. */
export interface ComponentFacts {
  /** `component.cluster`, `stack.shared`. */
  address: string;
  file: string;
  range: Range;
  headerRange: Range;
  source: string | undefined;
  /** Its `source` argument, and the file of the repository it leads to (the module's, an embedded Stack's). */
  sourceLink: { range: Range; file: string } | undefined;
  instances: StackNode['instances'];
  /** Its edges, `from` its id `to` the other node's. */
  edges: StackEdge[];
  /** Its references to no node of the Stack. */
  unknown: StackProblem[];
}
