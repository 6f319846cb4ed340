import { ConfigError, nonEmptyString, oneOf } from './configValues';

/**
 * One pipeline, or one split by level for a graph past a platform's limits: GitLab child pipelines,
 * chained GitHub workflows (see `gitlabChildPipelines.ts`, `githubChainedWorkflows.ts`).
 */
export const PIPELINE_SPLITS = ['none', 'level'] as const;
export type PipelineSplit = (typeof PIPELINE_SPLITS)[number];

/**
 * Reads `key` of a platform's section into `options` when it is one of the keys both platforms have (`path`,
 * `split`); false for any other key, which the platform's own reader reads.
 */
export function readTargetKey(
  options: { path: string; split: PipelineSplit },
  key: string,
  value: unknown,
  at: string,
  file: string,
): boolean {
  if (key === 'path') options.path = outputPath(value, at, file);
  else if (key === 'split') options.split = oneOf(value, at, file, PIPELINE_SPLITS);
  else return false;
  return true;
}

/** A relative path inside the workspace, `/`-separated. */
function outputPath(value: unknown, at: string, file: string): string {
  const text = nonEmptyString(value, at, file).replaceAll('\\', '/');
  if (text.startsWith('/') || /^[A-Za-z]:/.test(text) || text.split('/').includes('..'))
    throw new ConfigError(file, `${at} must be a path inside the workspace folder, like .gitlab-ci.yml; got '${text}'`);
  return text;
}
