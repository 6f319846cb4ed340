import { ConfigError, nonEmptyString } from './configValues';

/**
 * One pipeline, or one split by level for a graph past a platform's limits: GitLab child pipelines,
 * chained GitHub workflows (see `gitlabChildPipelines.ts`, `githubChainedWorkflows.ts`).
 */
export const PIPELINE_SPLITS = ['none', 'level'] as const;
export type PipelineSplit = (typeof PIPELINE_SPLITS)[number];

/** A relative path inside the workspace, `/`-separated. */
export function outputPath(value: unknown, at: string, file: string): string {
  const text = nonEmptyString(value, at, file).replaceAll('\\', '/');
  if (text.startsWith('/') || /^[A-Za-z]:/.test(text) || text.split('/').includes('..'))
    throw new ConfigError(file, `${at} must be a path inside the workspace folder, like .gitlab-ci.yml; got '${text}'`);
  return text;
}
