import type { GateRead, GateSpec } from './gateSpec';
import type { JobCommands } from './jobCommands';

/**
 * What the jobs of a gated pipeline (changed-only: each dependent decides from the outputs it reads) run around
 * terraform: `terrace gate` before init, which ends the job when its module is unaffected or stale, and after the
 * plan or the apply, which records what they did to the module's outputs for the jobs of its dependents (see
 * `gateSpec.ts`, and `server/src/cli/gateCommand.ts` for what each step does).
 */

/** How the jobs run Terrace (`gate.command`), and each module's spec (`TERRACE_GATE`) by id. */
export interface GatedJobs {
  command: string;
  /** The version of Terrace the jobs must run (`PipelineGate.terrace`). */
  terrace: string;
  specs: ReadonlyMap<string, string>;
  /** The modules whose own files changed: they plan whatever their upstreams do. */
  changed: ReadonlySet<string>;
  /** What the upstream records read before a module plans are (`GateSpec.after`). */
  after: GateSpec['after'];
  /** What a module reads of one it depends on (a chained workflow's `decide` job decides from it). */
  readOf: (reader: string, writer: string) => GateRead;
}

/**
 * `terrace gate <step>` run from the checkout's root (`root`, a shell word), where a relative command
 * (`node tools/terrace/cli.js`) is found and the records are: in a subshell, so the job stays in its folder.
 */
function atRoot(command: string, root: string, step: string): string {
  return `(cd ${root} && ${command} gate ${step})`;
}

/** The word `terrace gate` prints, kept in the job's shell for the lines after it. */
const STEP = 'TERRACE_STEP';
/** The hashes of the state's outputs before the apply, in the job's shell only (never a file, nor an artifact). */
const BEFORE = 'TERRACE_OUTPUTS';

/** GitLab's checkout, where each job starts. */
const GITLAB_ROOT = '"$CI_PROJECT_DIR"';

/**
 * A gated GitLab plan job's script: decide at the root, end the job when it says `skip`, else into the module
 * (`enter`), init, plan, and record what the plan does to the outputs.
 */
export function gitlabGatedPlan(run: JobCommands, gated: GatedJobs, enter: readonly string[]): string[] {
  return [
    `${STEP}="$(${gated.command} gate plan)"`,
    `if [ "$${STEP}" = skip ]; then exit 0; fi`,
    ...enter,
    run.init,
    run.plan,
    `${run.show} | ${atRoot(gated.command, GITLAB_ROOT, 'planned')}`,
  ];
}

/**
 * A gated GitLab apply job's script: decide (`skip`, `saved` or `fresh`), end the job on `skip`; else into the
 * module, init, hash the state's outputs, plan afresh when `fresh` (the saved plan read values its upstreams'
 * applies replaced, or there is none), apply, and record what the apply changed.
 */
export function gitlabGatedApply(run: JobCommands, gated: GatedJobs, enter: readonly string[]): string[] {
  return [
    `${STEP}="$(${gated.command} gate apply)"`,
    `if [ "$${STEP}" = skip ]; then exit 0; fi`,
    ...enter,
    run.init,
    `${BEFORE}="$(${run.outputs} | ${atRoot(gated.command, GITLAB_ROOT, 'outputs')})"`,
    `if [ "$${STEP}" = fresh ]; then ${run.plan}; fi`,
    run.apply,
    `${run.outputs} | ${atRoot(gated.command, GITLAB_ROOT, `applied --before "$${BEFORE}"`)}`,
  ];
}

/** The artifact of a gated GitLab job beside its plan file: its record, named after its lock as the plan file is. */
export function gitlabRecordArtifact(type: 'plan' | 'apply'): string {
  return `$TERRACE_LOCK.${type}.json`;
}
