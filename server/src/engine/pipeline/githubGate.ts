import type { ConfigRecord } from '../config';
import type { GatedJobs } from './gatedJobs';
import type { JobCommands } from './jobCommands';
import type { PlannedModule } from './pipelinePlan';
import { yamlConstant } from './pipelineYaml';

/**
 * A gated GitHub workflow (changed-only: each dependent decides from the outputs it reads). A module's job calls
 * the reusable workflow as before; its plan job runs `terrace gate plan` first, and after its plan or its apply
 * `terrace gate planned` or `applied`, which write the job's outputs: `record` (what its plan or apply did to its
 * outputs, names and kinds only) and `starts` (the job slugs of the dependents that must run, as far as this module
 * goes). A dependent's job then has an `if:` that starts it only when one of its upstreams says so (or its own
 * files changed) and nothing before it failed, so an unaffected one shows as skipped; the reason is in the upstream job's log and step summary.
 * See `gateSpec.ts` for what the records hold, and `server/src/cli/gateCommand.ts` for each step.
 */

/** The gate's environment in the reusable workflow's jobs: the module's spec and its upstreams' results. */
export const GITHUB_GATE_ENV: Readonly<Record<string, string>> = {
  TERRACE_GATE: `\${{ inputs.gate }}`,
  TERRACE_NEEDS: `\${{ inputs.upstream }}`,
};

/** The inputs a gated module's job passes: its spec, and what its upstreams' jobs did (`toJSON(needs)`). */
export const GITHUB_GATE_INPUTS: Readonly<ConfigRecord> = {
  gate: { type: 'string', required: true },
  upstream: { type: 'string', required: false, default: '{}' },
};

/**
 * A gated module's `if:`: no job before it failed (`failure()`, which looks at every ancestor job: a module whose
 * upstream's upstream failed was skipped, and its dependents are skipped too, as without the gate), none it needs
 * was cancelled, and its own files changed or one of its upstreams' jobs lists it in `starts`. Without a status
 * function GitHub would skip it whenever an upstream was skipped as unaffected. The slug is letters, digits, `_`
 * and `-`: a string literal as it is. `decide`, in a chained workflow after the first: the job that says which
 * modules start as far as the earlier workflows go (in its `starts`), and which ran only when the workflow before
 * succeeded: the module runs only when it did.
 */
export function githubGateCondition(module: PlannedModule, changed: boolean, decide?: string): string {
  const healthy = `${decide !== undefined ? `needs.${decide}.result == 'success' && ` : ''}!cancelled() && !failure() && !contains(needs.*.result, 'cancelled')`;
  if (changed || (module.dependencies.length === 0 && decide === undefined)) return `\${{ ${healthy} }}`;
  return `\${{ ${healthy} && contains(format(' {0} ', join(needs.*.outputs.starts, ' ')), ' ${module.slug} ') }}`;
}

/** A gated chained workflow's module jobs (split by level): see `githubChainGate.ts`. */
export interface ChainGate {
  /** The job every module job needs, which says which start as far as the earlier workflows go (not in the first). */
  decide: string | undefined;
  /** The modules that read one of an earlier workflow: their plan job downloads the records passed on. */
  earlier: ReadonlySet<string>;
}

/**
 * The artifact of a chained workflow's `decide` job: the records the workflows before it passed on, for the plan
 * jobs of its modules that read one of theirs (an artifact of the same run: no token needed).
 */
export const GITHUB_EARLIER_RECORDS_ARTIFACT = 'terrace-earlier-records';

/** The plan job's step, before it decides, that downloads the earlier workflows' records when it reads one of theirs. */
export const GITHUB_EARLIER_RECORDS_STEP: ConfigRecord = yamlConstant({
  name: 'Download the records of the earlier workflows',
  if: 'inputs.earlier',
  uses: 'actions/download-artifact@v4',
  with: { name: GITHUB_EARLIER_RECORDS_ARTIFACT, path: `\${{ github.workspace }}` },
});

/** The plan job's step that decides, at the checkout's root (a relative `gate.command` is found there). */
export function githubGateStep(gated: GatedJobs): ConfigRecord {
  return {
    name: 'Decide',
    id: 'gate',
    'working-directory': `\${{ github.workspace }}`,
    run: `${gated.command} gate plan`,
  };
}

/** A step of the plan job that runs only when the gate said to plan (and its own `if`, when it has one). */
export function whenPlanning(step: ConfigRecord): ConfigRecord {
  const planning = "steps.gate.outputs.step == 'plan'";
  const own = step['if'];
  return { ...step, if: typeof own === 'string' ? `${own} && ${planning}` : planning };
}

/** The step after the plan of one kind: what it does to the outputs, recorded by `terrace gate planned`. */
export function githubRecordPlan(run: JobCommands, gated: GatedJobs, kind: PlannedModule['kind']): ConfigRecord {
  return {
    name: 'Record the plan',
    id: `planned_${kind}`,
    run: `${run.show} | ${atWorkspace(gated, 'planned')}`,
  };
}

/**
 * The apply of one kind, gated: the state's outputs hashed before (kept in the step's shell, never a file), the
 * saved plan applied (its upstreams applied before this job started: it read their new values), and what the
 * apply changed recorded by `terrace gate applied`.
 */
export function githubGatedApply(run: JobCommands, gated: GatedJobs, kind: PlannedModule['kind']): ConfigRecord {
  return {
    name: 'Apply',
    id: `apply_${kind}`,
    run: [
      `TERRACE_OUTPUTS="$(${run.outputs} | ${atWorkspace(gated, 'outputs')})"`,
      run.apply,
      `${run.outputs} | ${atWorkspace(gated, 'applied --before "$TERRACE_OUTPUTS"')}`,
    ].join('\n'),
  };
}

/** `terrace gate <step>` at the checkout's root, in a subshell: the step stays in the module's folder. */
function atWorkspace(gated: GatedJobs, step: string): string {
  return `(cd "$GITHUB_WORKSPACE" && ${gated.command} gate ${step})`;
}

/** A job's outputs: the first that is set of the steps' `record` and `starts` (a step of each kind). */
export function githubGateOutputs(steps: readonly string[]): Record<string, string> {
  const first = (name: string) => `\${{ ${steps.map((id) => `steps.${id}.outputs.${name}`).join(' || ')} }}`;
  return { record: first('record'), starts: first('starts') };
}

/** The reusable workflow's outputs: the apply job's record when it ran, else the plan job's. */
export function githubWorkflowOutputs(planOnly: boolean): ConfigRecord {
  const value = (name: string) =>
    planOnly ? `\${{ jobs.plan.outputs.${name} }}` : `\${{ jobs.apply.outputs.${name} || jobs.plan.outputs.${name} }}`;
  return { record: { value: value('record') }, starts: { value: value('starts') } };
}
