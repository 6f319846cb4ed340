import path from 'node:path';
import type { ConfigRecord, ExecutionOptions, GithubOptions, ValidateOptions } from '../config';
import type { GatedJobs } from './gatedJobs';
import { GITHUB_DECIDE_JOB, GITHUB_FORWARD_JOB, githubDecideJob, githubForwardJob } from './githubChainGate';
import { callerJobs, type ModuleInputs, moduleInputs, reusableWorkflow } from './githubWorkflow';
import { type CiFile, modulesByLevel, type PipelinePlan, type PlannedModule, planPart } from './pipelinePlan';

/**
 * GitHub runs at most three workflows chained by `workflow_run` after the first (a fifth and later
 * ones do not run: docs.github.com/en/actions/reference/workflows-and-actions/events-that-trigger-workflows#workflow_run).
 */
const GITHUB_MAX_CHAINED_WORKFLOWS = 4;

/** A workflow of the chain: the levels it runs. */
export interface ChainedWorkflow {
  /** Relative to the workspace folder: the first at `github.path`, the others beside it. */
  path: string;
  /** Its `name:`, which the next workflow's `workflow_run` names: its levels and the first file's name. */
  name: string;
  levels: number[];
  modules: number;
  file: CiFile;
}

/** The `if` of a chained workflow's jobs: the workflow before it succeeded (`workflow_run` fires on any conclusion). */
const PREVIOUS_SUCCEEDED = "github.event.workflow_run.conclusion == 'success'";

/**
 * The workflow of a plan split by level, for a graph past GitHub's limits: the levels in consecutive
 * runs of about as many modules each, one workflow per run (at most four: see
 * `GITHUB_MAX_CHAINED_WORKFLOWS`), the first started by the configured triggers, each other by the one
 * before it completing (`workflow_run`), its jobs only when that one succeeded. Within a workflow a
 * job needs its dependencies' jobs; a dependency in an earlier workflow has run when it starts. All
 * call the one reusable workflow, made for the whole plan.
 *
 * GitHub starts a `workflow_run` workflow from the default branch only, on its latest commit: the
 * chain suits the pipeline of the default branch (pushes to main), not pull requests. The validate
 * job (`validate.enabled`) is the first workflow's alone: it validates the whole graph once. `gated`
 * (changed-only): each dependent decides from the outputs it reads, the records crossing the chain as
 * artifacts (`githubChainGate.ts`).
 */
export function githubChainedWorkflows(
  plan: PipelinePlan,
  github: GithubOptions,
  execution: ExecutionOptions,
  validate: ValidateOptions,
  gated?: GatedJobs,
): { workflows: ChainedWorkflow[]; module: CiFile } {
  const runs = levelRuns(plan);
  const inputs = moduleInputs(plan, github, gated !== undefined, gated !== undefined && runs.length > 1);
  const workflows: ChainedWorkflow[] = [];
  // `workflow_run` finds the workflow before by its name, among all the repository's: a chain's
  // names carry its first file's, so that two chains (two workspace folders) never start each other's.
  const chain = path.posix.basename(github.path);
  const workflowOf = chainedWorkflowOf(plan);
  for (const [index, run] of runs.entries()) {
    const modules = run.flatMap((level) => level.modules);
    const levels = run.map((level) => level.level);
    const name = `${github.name}: ${levels.length === 1 ? `level ${levels[0]}` : `levels ${levels[0]}-${levels.at(-1)}`} (${chain})`;
    const before = workflows.at(-1);
    const on: ConfigRecord = before ? { workflow_run: { workflows: [before.name], types: ['completed'] } } : github.on;
    const part = planPart(modules);
    const position = { index, last: index === runs.length - 1, workflowOf };
    workflows.push({
      path: index === 0 ? github.path : chainedWorkflowPath(github.path, index + 1),
      name,
      levels,
      modules: modules.length,
      file: {
        head: { name, on, permissions: github.permissions },
        jobsKey: 'jobs',
        jobs: gated
          ? gatedChainJobs(modules, part, github, inputs, before ? undefined : validate, gated, position)
          : before
            ? callerJobs(part, github, inputs, PREVIOUS_SUCCEEDED, undefined)
            : callerJobs(part, github, inputs, undefined, validate),
      },
    });
  }
  return { workflows, module: reusableWorkflow(plan, github, execution, inputs, gated) };
}

/**
 * A gated workflow's jobs (changed-only): but in the first, `decide` first, which says which of its modules start
 * as far as the earlier workflows go, and which every module job needs; its module jobs; and but in the last,
 * `forward`, which passes on every record so far to the next (`githubChainGate.ts`).
 */
function* gatedChainJobs(
  modules: readonly PlannedModule[],
  part: PipelinePlan,
  github: GithubOptions,
  inputs: ModuleInputs,
  validate: ValidateOptions | undefined,
  gated: GatedJobs,
  position: { index: number; last: boolean; workflowOf: ReadonlyMap<string, number> },
): Generator<[string, ConfigRecord]> {
  const first = position.index === 0;
  if (!first)
    yield [GITHUB_DECIDE_JOB, githubDecideJob(modules, github, gated, position.workflowOf, PREVIOUS_SUCCEEDED)];
  const earlier = new Set(
    modules
      .filter((module) => module.dependencies.some((dep) => position.workflowOf.get(dep)! < position.index))
      .map((module) => module.id),
  );
  yield* callerJobs(part, github, inputs, undefined, validate, gated, {
    decide: first ? undefined : GITHUB_DECIDE_JOB,
    earlier,
  });
  if (!position.last) yield [GITHUB_FORWARD_JOB, githubForwardJob(modules, github, gated, !first)];
}

/** Each module's workflow in the chain, by id: 0 for the first. */
export function chainedWorkflowOf(plan: PipelinePlan): Map<string, number> {
  const of = new Map<string, number>();
  for (const [index, run] of levelRuns(plan).entries())
    for (const level of run) for (const module of level.modules) of.set(module.id, index);
  return of;
}

/** The n-th workflow (from 2), beside the first and named after it: `terrace.yml`, `terrace-2.yml`. */
function chainedWorkflowPath(firstPath: string, n: number): string {
  const ext = path.posix.extname(firstPath) || '.yml';
  return `.github/workflows/${path.posix.basename(firstPath, ext)}-${n}${ext}`;
}

/**
 * The levels in at most `GITHUB_MAX_CHAINED_WORKFLOWS` consecutive runs whose largest holds the fewest
 * modules (a job's text is about the same size for every module): the split the files' sizes are
 * the most even in.
 */
function levelRuns(plan: PipelinePlan): { level: number; modules: PlannedModule[] }[][] {
  const levels = modulesByLevel(plan);
  const count = Math.min(levels.length, GITHUB_MAX_CHAINED_WORKFLOWS);
  const sizes = levels.map((level) => level.modules.length);
  const cuts = evenCuts(sizes, count);
  return cuts.map((start, index) => levels.slice(start, cuts[index + 1] ?? levels.length));
}

/**
 * Where `count` consecutive runs of `sizes` start (the first at 0) so that the largest run's sum is
 * the least: dynamic programming over prefix sums, ties to the earliest cut, so the same sizes give
 * the same cuts.
 */
function evenCuts(sizes: readonly number[], count: number): number[] {
  const prefix = [0];
  for (const size of sizes) prefix.push(prefix.at(-1)! + size);
  const sum = (from: number, to: number) => prefix[to]! - prefix[from]!;
  // best[k][i]: the least largest sum of the first i sizes in k runs; from[k][i]: where the last run starts.
  const best: number[][] = [prefix.map((_, i) => (i === 0 ? 0 : Number.POSITIVE_INFINITY))];
  const from: number[][] = [prefix.map(() => 0)];
  for (let k = 1; k <= count; k++) {
    best.push([]);
    from.push([]);
    for (let i = 0; i <= sizes.length; i++) {
      best[k]![i] = Number.POSITIVE_INFINITY;
      from[k]![i] = 0;
      for (let j = k - 1; j < i; j++) {
        const largest = Math.max(best[k - 1]![j]!, sum(j, i));
        if (largest < best[k]![i]!) {
          best[k]![i] = largest;
          from[k]![i] = j;
        }
      }
    }
  }
  const cuts: number[] = [];
  for (let k = count, i = sizes.length; k > 0; k--) {
    i = from[k]![i]!;
    cuts.unshift(i);
  }
  return cuts;
}
