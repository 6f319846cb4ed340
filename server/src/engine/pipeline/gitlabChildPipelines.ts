import path from 'node:path';
import type { ConfigRecord, ExecutionOptions, GitlabOptions, ValidateOptions } from '../config';
import {
  GITLAB_VALIDATE_JOB,
  gitlabPipeline,
  gitlabShellJob,
  gitlabValidateJob,
  gitlabValidateStage,
} from './gitlabPipeline';
import {
  type CiFile,
  modulesByLevel,
  type PipelinePlan,
  type PlannedModule,
  planPart,
  shellWord,
} from './pipelinePlan';
import { yamlFlow } from './pipelineYaml';
import { GITLAB_FREE_ACTIVE_JOBS } from './platformLimits';

/** The parent's job that publishes the child pipelines' files, which each trigger job includes. */
const GITLAB_FILES_JOB = 'pipeline-files';

/** A child pipeline: its file, and the parent's job that triggers it. */
export interface ChildPipeline {
  /** Relative to the workspace folder (the repository's root, where the jobs run), beside the parent. */
  path: string;
  /** The parent's trigger job. */
  trigger: string;
  level: number;
  modules: number;
  file: CiFile;
}

/**
 * The pipeline of a plan split by level, for a graph past GitLab's limits: a parent pipeline that
 * triggers a child pipeline per level (several per level when one would pass the active-jobs limit),
 * one after another, and the child pipelines' files. Each child is the unsplit pipeline of its
 * modules (`gitlabPipeline`: the same templates, job settings, rules and images), so within it a plan
 * waits for nothing: its dependencies are in earlier levels, which the chain has applied already.
 *
 * The children are dynamic child pipelines from an artifact (`trigger: include: artifact`), and the
 * artifact is the committed file, published by one job of the parent (`pipeline-files`): Terrace
 * writes the files beside the parent, so the pipeline runs with no Terrace in CI, and a job that
 * generates the files instead (`terrace generate --split level`) would need no other change. Each
 * trigger waits for its child to succeed (`strategy: depend`) and the next trigger `needs` it: level
 * N+1 starts when level N has planned and applied. The jobs of a child exist only from its start,
 * so GitLab counts the parent's jobs and one child's against the active-jobs limit, not all.
 *
 * `workflow: rules` stay in the parent alone: they decide whether the pipeline runs, and in a child
 * (whose `CI_PIPELINE_SOURCE` is `parent_pipeline`) a rule on the source would stop it. So does the
 * validate job (`validate.enabled`), which the first trigger needs: it validates the whole graph once.
 */
export function gitlabChildPipelines(
  plan: PipelinePlan,
  gitlab: GitlabOptions,
  execution: ExecutionOptions,
  noChanges: string,
  validate: ValidateOptions,
): { parent: CiFile; children: ChildPipeline[] } {
  const childOptions: GitlabOptions = { ...gitlab, rules: undefined };
  const parts = levelParts(plan, gitlab);
  const children = parts.map(({ level, part, modules }): ChildPipeline => {
    const name = part === undefined ? `level-${level}` : `level-${level}-part-${part}`;
    return {
      path: childPipelinePath(gitlab.path, name),
      trigger: name,
      level,
      modules: modules.length,
      file: gitlabPipeline(planPart(modules), childOptions, execution, noChanges),
    };
  });
  return { parent: parentPipeline(gitlab, children, validate), children };
}

/** Beside the parent, named after it: `.gitlab-ci.yml` triggers `.gitlab-ci-level-3.yml`. */
function childPipelinePath(parentPath: string, name: string): string {
  const ext = path.posix.extname(parentPath) || '.yml';
  return path.posix.join(path.posix.dirname(parentPath), `${path.posix.basename(parentPath, ext)}-${name}${ext}`);
}

/** A level's modules, or a part of them (numbered from 1) when the level is split. */
interface LevelPart {
  level: number;
  part: number | undefined;
  modules: PlannedModule[];
}

/**
 * Each level's modules, in parts small enough that the parent's jobs and one part's stay within
 * GitLab.com Free's active jobs (parts of a level run one after another too: at once, they would
 * count together). The parent has a job per part: the parts' size and count are settled together.
 */
function levelParts(plan: PipelinePlan, gitlab: GitlabOptions): LevelPart[] {
  const levels = modulesByLevel(plan);
  const jobsPerModule = gitlab.planOnly ? 1 : 2;
  let triggers = levels.length;
  let perPart = Number.POSITIVE_INFINITY;
  // A few rounds settle it: more parts, smaller parts, at most a few more parts.
  for (let round = 0; round < 4; round++) {
    perPart = Math.max(1, Math.floor((GITLAB_FREE_ACTIVE_JOBS - 1 - triggers) / jobsPerModule));
    const next = levels.reduce((sum, { modules }) => sum + Math.ceil(modules.length / perPart), 0);
    if (next === triggers) break;
    triggers = next;
  }
  return levels.flatMap(({ level, modules }): LevelPart[] => {
    const count = Math.ceil(modules.length / perPart);
    if (count === 1) return [{ level, part: undefined, modules }];
    const size = Math.ceil(modules.length / count);
    return Array.from({ length: count }, (_, index) => ({
      level,
      part: index + 1,
      modules: modules.slice(index * size, (index + 1) * size),
    }));
  });
}

/** The parent: the validate job if any, the files job, then per child a trigger job that needs the one before. */
function parentPipeline(gitlab: GitlabOptions, children: readonly ChildPipeline[], validate: ValidateOptions): CiFile {
  const filesStage = `${gitlab.stagePrefix}-pipelines`;
  const levelStage = (level: number) => `${gitlab.stagePrefix}-level-${level}`;
  const head: ConfigRecord = {
    stages: [
      ...(validate.enabled ? [gitlabValidateStage(gitlab)] : []),
      filesStage,
      ...new Set(children.map((child) => levelStage(child.level))),
    ],
  };
  if (gitlab.image !== undefined) head['default'] = { image: gitlab.image };
  if (gitlab.rules) head['workflow'] = { rules: gitlab.rules };
  const files = children.map((child) => child.path);
  // `ls` fails the job, naming the file, when one is missing (not committed, or from an older run).
  const filesJob = gitlabShellJob(filesStage, gitlab, `ls -l ${files.map(shellWord).join(' ')}`);
  // Kept 30 days: the last trigger reads them after every level before it is applied, which may wait on people.
  filesJob['artifacts'] = { paths: files, expire_in: '30 days' };
  const jobs: [string, ConfigRecord][] = [];
  if (validate.enabled) jobs.push([GITLAB_VALIDATE_JOB, gitlabValidateJob(gitlab, validate)]);
  jobs.push([GITLAB_FILES_JOB, filesJob]);
  // The first level waits for the validate job; the others wait for the level before.
  const first = validate.enabled ? [GITLAB_FILES_JOB, GITLAB_VALIDATE_JOB] : [GITLAB_FILES_JOB];
  children.forEach((child, index) => {
    const before = children[index - 1];
    jobs.push([
      child.trigger,
      {
        stage: levelStage(child.level),
        needs: yamlFlow(before ? [GITLAB_FILES_JOB, before.trigger] : first),
        trigger: { include: [{ artifact: child.path, job: GITLAB_FILES_JOB }], strategy: 'depend' },
      },
    ]);
  });
  return { head, jobsKey: undefined, jobs };
}
