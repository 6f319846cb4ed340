import type { OutputChange, PlanCounts, RunEvent, RunResult } from '../../server/src/engine/run';
import type { TerraformBinary } from './terraformBinary';

/** What a run is asked and what it reports: its targets, settings, each module's outcome. */

/**
 * `plan` and `drift` save plans; `apply` applies saved plans (Apply Saved Plans); `deploy` plans each module and
 * applies what it plans, in order (`terrace apply`).
 */
export type RunKind = 'plan' | 'drift' | 'apply' | 'deploy';

/** A module to run: where it is, what its fingerprint covers, what it depends on. */
export interface RunTarget {
  id: string;
  /** `unit`: a Terragrunt unit, run with terragrunt (which runs terraform); undefined: a root module. */
  kind?: 'module' | 'unit';
  /** A unit of a stack file: the stack's folder, where `terragrunt stack generate` makes the unit's folder. */
  stackDir?: string;
  /** Absolute folder. */
  dir: string;
  /** Folders of the local child modules it calls (part of its fingerprint). */
  sourceDirs: string[];
  /** Its direct dependencies (all of them, selected or not). */
  dependencies: string[];
  /**
   * In a plan of what a change reaches: whether its own files changed, and the outputs it reads of each
   * dependency (`all`: every one, whole; `unknown`: their names are not known). With it, a module is planned
   * only when what it reads changes (see `outputGate`).
   */
  gate?: { changed: boolean; reads: Record<string, string[] | 'all' | 'unknown'> };
}

export interface RunSettings {
  /** `terraform`, `tofu`, or a path: `terrace.terraformPath` / `execution.binary`. */
  binary: string;
  /** Named in the message when the binary is missing. */
  binarySetting?: string;
  /** What runs Terragrunt units: `terragrunt` or a path (`terrace.terragruntPath` / `execution.terragrunt`). */
  terragrunt?: string;
  /** Named in the message when terragrunt is missing. */
  terragruntSetting?: string;
  /** As `-parallelism`: 0 or undefined = 10; negative is an error. */
  parallelism?: number;
  initArgs?: string[];
  planArgs?: string[];
  /**
   * Tfvars files (names or globs) given as `-var-file` to `plan` where a module's folder holds them, and
   * to `init` too when the binary is OpenTofu (its backend may read variables): the selected environment's.
   */
  varFiles?: string[];
  /** Extra environment of every terraform process. */
  env?: Record<string, string>;
  /** `auto` (the default): when `.terraform/` is missing or `.terraform.lock.hcl` changed since the last init. */
  init?: 'auto' | 'always' | 'never';
  /** Extra attempts after a failed plan (0 = none). */
  retries?: number;
  retryDelay?: (attempt: number) => number;
  /** How long a module locked by another run waits; 0 = reported busy at once. */
  lockWaitMs?: number;
  /** Between the interrupt and the kill when a run is stopped. */
  graceMs?: number;
  /** Apply refuses saved plans older than this (`terrace.planMaxAge`); 0 or undefined: no limit. */
  planMaxAgeMs?: number;
  /** Recorded in the lock: who holds it (`terrace plan`, `Terrace: Run Plans`). */
  command: string;
}

export interface ModuleOutcome {
  kind: RunKind;
  /** The exit code of the main command (plan or apply); null when stopped. */
  exitCode: number | null;
  /** A plan (or drift check) found changes (exit code 2). */
  changes: boolean;
  /** What the plan would do, or what the apply did (the plan's counts). */
  counts?: PlanCounts;
  /**
   * What the plan does to each root output, or, after an apply, what the apply did to it (its state's outputs
   * compared by a hash of each value, in memory): names and kinds only, no value.
   */
  outputs?: Record<string, OutputChange>;
  drifted?: boolean;
  /** Absolute paths. */
  logFile: string;
  planFile?: string;
  initRan: boolean;
}

export interface RunRequest {
  root: string;
  targets: RunTarget[];
  kind: RunKind;
  settings: RunSettings;
  signal?: AbortSignal;
  /** A line of terraform output of a module. */
  onLine?: (id: string, line: string) => void;
  /** Scheduler events (start, retry, finish). */
  onEvent?: (event: RunEvent<ModuleOutcome>) => void;
  /** Called once the binary is found and the run folder exists, before any module starts. */
  onStart?: (run: { runId: string; runDir: string; binary: TerraformBinary; parallelism: number }) => void;
  /**
   * A `deploy` asks before it applies a module's plan (what `terraform apply` asks); without it, it applies
   * without asking (`--auto-approve`). Resolves to whether to apply.
   */
  approve?: (id: string, plan: string) => Promise<boolean>;
  /**
   * A `deploy` of Apply Saved Plans: the modules whose current saved plan is applied as it is, unless an
   * upstream's apply in this run changed an output they read (then they are planned afresh).
   */
  savedPlans?: readonly string[];
}

export interface RunReport {
  kind: RunKind;
  root: string;
  runId: string;
  runDir: string;
  binary: TerraformBinary;
  result: RunResult<ModuleOutcome>;
  targets: RunTarget[];
}
