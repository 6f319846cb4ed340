import type { ConfigRecord, GithubOptions } from '../config';
import type { GatedJobs } from './gatedJobs';
import { type GateRead, GITHUB_RECORDS_FILE, gateReadTexts } from './gateSpec';
import { GITHUB_EARLIER_RECORDS_ARTIFACT } from './githubGate';
import { githubLiteral, githubModuleJob } from './githubWorkflow';
import type { PlannedModule } from './pipelinePlan';
import { yamlConstant, yamlFlow } from './pipelineYaml';

/**
 * A gated GitHub pipeline split by level (changed-only): its workflows are chained by `workflow_run`, and a
 * workflow's jobs read only what its own run holds, the artifacts of the run that started it aside. So the records
 * cross runs as artifacts: each workflow but the last ends with `forward`, which writes the records of its module
 * jobs (from their outputs, in its `needs`) beside those the workflow before passed on (`GITHUB_RECORDS_FILE`) and
 * uploads them; each but the first starts with `decide`, which downloads them from the run that started it, says
 * which of its modules start as far as the earlier workflows go (its output `starts`, which a module job's `if:`
 * reads as it reads an upstream job's), and uploads them again in its own run, where the plan jobs of its modules
 * that read an earlier one download them (`GITHUB_EARLIER_RECORDS_STEP`). `terrace gate decide` and `forward` do
 * the work (`server/src/cli/gateChain.ts`); the rule is the engine's, as in the unsplit workflow.
 */

/** The first job of a gated chained workflow after the first. */
export const GITHUB_DECIDE_JOB = 'decide';

/** The last job of a gated chained workflow before the last. */
export const GITHUB_FORWARD_JOB = 'forward';

/** What a workflow passes on to the next: the records of its modules and every earlier one. */
const RECORDS_ARTIFACT = 'terrace-records';

const CHECKOUT = yamlConstant({ uses: 'actions/checkout@v4' });

/**
 * The `decide` job, when the workflow before succeeded (`previousSucceeded`): it downloads that run's records (with
 * the token, which needs `actions: read`), decides, and uploads them again for its own run's plan jobs.
 */
export function githubDecideJob(
  modules: readonly PlannedModule[],
  github: GithubOptions,
  gated: GatedJobs,
  workflowOf: ReadonlyMap<string, number>,
  previousSucceeded: string,
): ConfigRecord {
  const reads: Record<string, Record<string, GateRead>> = {};
  for (const module of modules) {
    const own = workflowOf.get(module.id)!;
    const earlier = module.dependencies.filter((dep) => workflowOf.get(dep)! < own);
    if (earlier.length > 0)
      reads[module.id] = Object.fromEntries(earlier.map((dep) => [dep, gated.readOf(module.id, dep)]));
  }
  const spec = chainSpec(
    gated,
    modules.filter((module) => reads[module.id] !== undefined),
    reads,
    true,
  );
  // Its own permissions replace the workflow's: the workflow's, and reading another run's artifacts.
  const permissions = { ...github.permissions, actions: github.permissions['actions'] === 'write' ? 'write' : 'read' };
  return {
    name: 'Decide which modules start',
    'runs-on': github.runsOn,
    if: previousSucceeded,
    permissions,
    env: { TERRACE_GATE: githubLiteral(spec) },
    outputs: { starts: `\${{ steps.decide.outputs.starts }}` },
    steps: [
      CHECKOUT,
      ...(github.setupSteps ?? []),
      {
        name: 'Download the records of the earlier workflows',
        uses: 'actions/download-artifact@v4',
        with: {
          name: RECORDS_ARTIFACT,
          path: `\${{ github.workspace }}`,
          'run-id': `\${{ github.event.workflow_run.id }}`,
          'github-token': `\${{ github.token }}`,
        },
      },
      { name: 'Decide', id: 'decide', run: `${gated.command} gate decide` },
      upload(GITHUB_EARLIER_RECORDS_ARTIFACT),
    ],
  };
}

/**
 * The `forward` job, once every module job of the workflow is done and none failed: the records so far (`earlier`:
 * those the `decide` job uploaded) and its module jobs' (their outputs, from `toJSON(needs)` on stdin: a quoted
 * here-document, expanded by nothing, and no variable, whose size the runner's exec would bound), uploaded for the
 * next workflow.
 */
export function githubForwardJob(
  modules: readonly PlannedModule[],
  github: GithubOptions,
  gated: GatedJobs,
  earlier: boolean,
): ConfigRecord {
  const jobs = modules.map((module) => githubModuleJob(module.slug));
  const needs = earlier ? [GITHUB_DECIDE_JOB, ...jobs] : jobs;
  const decided = earlier ? `needs.${GITHUB_DECIDE_JOB}.result == 'success' && ` : '';
  return {
    name: 'Pass the records on',
    'runs-on': github.runsOn,
    needs: yamlFlow(needs),
    if: `\${{ ${decided}!cancelled() && !failure() }}`,
    env: { TERRACE_GATE: githubLiteral(chainSpec(gated, modules, {}, earlier)) },
    steps: [
      CHECKOUT,
      ...(github.setupSteps ?? []),
      ...(earlier
        ? [
            {
              name: 'Download the records of the earlier workflows',
              uses: 'actions/download-artifact@v4',
              with: { name: GITHUB_EARLIER_RECORDS_ARTIFACT, path: `\${{ github.workspace }}` },
            },
          ]
        : []),
      {
        name: 'Pass the records on',
        run: `${gated.command} gate forward <<'TERRACE_NEEDS'\n\${{ toJSON(needs) }}\nTERRACE_NEEDS`,
      },
      upload(RECORDS_ARTIFACT),
    ],
  };
}

/** The JSON of a `GateChainSpec` (`TERRACE_GATE`) of `modules`, their reads of earlier ones as `gateReadText`. */
function chainSpec(
  gated: GatedJobs,
  modules: readonly PlannedModule[],
  reads: Record<string, Record<string, GateRead>>,
  earlier: boolean,
): string {
  return JSON.stringify({
    terrace: gated.terrace,
    after: gated.after,
    modules: Object.fromEntries(modules.map((module) => [module.id, module.slug])),
    reads: Object.fromEntries(Object.entries(reads).map(([id, own]) => [id, gateReadTexts(own)])),
    earlier,
  });
}

/** The records file, uploaded as `name`: a file at the checkout's root, no folder in its path. */
function upload(name: string): ConfigRecord {
  return {
    name: 'Upload the records',
    uses: 'actions/upload-artifact@v4',
    with: { name, path: GITHUB_RECORDS_FILE, 'if-no-files-found': 'error', 'retention-days': 7 },
  };
}
