import type { CiSystem } from './ciSystem';

/**
 * The limits GitLab and GitHub put on a pipeline, as their documentation gives them (they change:
 * each says where it comes from), and the warnings for a pipeline that passes one.
 *
 * GitLab (docs.gitlab.com/administration/instance_limits/, docs.gitlab.com/ci/yaml/#needs):
 * - the configuration's size is measured after it is loaded (`max_yaml_size_bytes`, 2 MB in memory
 *   on recent versions); GitLab's docs warn that a file of about 200 KB is likely to reach the default;
 * - GitLab.com's Free tier allows 500 jobs in active pipelines (`ci_active_jobs`);
 * - a job has at most 50 `needs` by default (`ci_max_needs`).
 *
 * GitHub (docs.github.com/en/actions/reference/limits, …/reusable-workflows-reference):
 * - a workflow file larger than 500 KB does not start runs;
 * - a matrix makes at most 256 jobs per workflow run (the generator uses none; no other cap on a
 *   workflow's jobs is documented);
 * - a workflow calls at most 20 unique reusable workflows, nested at most 4 levels (the generator
 *   calls one, one level deep).
 */
export const GITLAB_CONFIG_BYTES = 200 * 1000;
export const GITLAB_FREE_ACTIVE_JOBS = 500;
export const GITLAB_MAX_NEEDS = 50;
export const GITHUB_WORKFLOW_BYTES = 500 * 1000;

/** What a generated pipeline amounts to, against the limits. */
export interface PipelineFigures {
  ci: CiSystem;
  /** Bytes of each file written (the pipeline, then what it calls). */
  files: { path: string; bytes: number }[];
  /** Jobs of the GitLab pipeline (split: the parent's and its largest child's, which exist at once). */
  jobs: number;
  /** Plan jobs with more dependencies than GitLab's `needs` allows. */
  overNeeds: number;
  /** The pipeline holds only the modules a change affects. */
  changedOnly: boolean;
  /** The pipeline is split by level (GitLab child pipelines, chained GitHub workflows). */
  split: boolean;
}

/** One sentence per limit passed: the limit, the figure, and the way out. */
export function limitWarnings(figures: PipelineFigures): string[] {
  const warnings: string[] = [];
  const wayOut = waysOut(figures);
  for (const file of figures.files) {
    const limit = figures.ci === 'gitlab' ? GITLAB_CONFIG_BYTES : GITHUB_WORKFLOW_BYTES;
    if (file.bytes <= limit) continue;
    const what =
      figures.ci === 'gitlab'
        ? `GitLab's docs warn that a configuration of about ${kb(limit)} passes its default size limit (measured after loading)`
        : `GitHub does not start runs of a workflow file larger than ${kb(limit)}`;
    warnings.push(`${file.path} is ${kb(file.bytes)}: ${what}; ${wayOut}.`);
  }
  if (figures.ci === 'gitlab' && figures.jobs > GITLAB_FREE_ACTIVE_JOBS)
    warnings.push(
      `the pipeline has ${figures.jobs} jobs${figures.split ? " at once (its own and its largest child pipeline's)" : ''}: GitLab.com's Free tier allows ${GITLAB_FREE_ACTIVE_JOBS} jobs in active pipelines; ${wayOut}.`,
    );
  if (figures.ci === 'gitlab' && figures.overNeeds > 0)
    warnings.push(
      `${figures.overNeeds} plan job${figures.overNeeds === 1 ? ' has' : 's have'} more than ${GITLAB_MAX_NEEDS} dependencies, GitLab's default limit of needs per job: ${figures.overNeeds === 1 ? 'it waits' : 'they wait'} for every earlier stage instead of their dependencies alone.`,
    );
  return warnings;
}

/**
 * What to do about a limit passed: the pipeline of the modules a change affects (what merge requests
 * run), and, unsplit, the split by level, which keeps each file and each child pipeline small.
 */
function waysOut(figures: PipelineFigures): string {
  const split =
    figures.ci === 'gitlab'
      ? 'split it into a child pipeline per level, one after another (--split level)'
      : 'split it into workflows chained in dependency order (--split level)';
  if (figures.changedOnly)
    return figures.split
      ? 'even the modules this change affects are too many: plan the change in smaller steps'
      : `even the modules this change affects are too many: ${split}, or plan the change in smaller steps`;
  const changedOnly =
    'generate the pipeline of the modules a change affects (--changed-only --base-ref origin/main), as merge requests do';
  if (!figures.split) return `${changedOnly}, or ${split}`;
  // Split already: GitHub's chain has as many workflows as it runs (see `githubChainedWorkflows.ts`).
  return figures.ci === 'github' ? `${changedOnly}: GitHub chains no more than four workflows` : changedOnly;
}

function kb(bytes: number): string {
  return `${Math.round(bytes / 1000)} KB`;
}
