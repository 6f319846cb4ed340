import path from 'node:path';
import type { ConfigRecord, ExecutionOptions, GitlabJobKey, GitlabJobSettings, GitlabOptions } from '../config';
import { type JobCommands, jobCommands } from './jobCommands';
import {
  type CiFile,
  type JobNames,
  jobNames,
  modulesByLevel,
  type PipelinePlan,
  type PlannedModule,
  shellWord,
} from './pipelinePlan';
import { yamlConstant } from './pipelineYaml';

/** GitLab's limit of `needs:` entries per job. */
export const GITLAB_MAX_NEEDS = 50;

/** The name of the single job of a pipeline with nothing to do (GitLab rejects an empty pipeline). */
export const GITLAB_NO_CHANGES_JOB = 'no-changes';

/**
 * The `.gitlab-ci.yml` of a plan, in a stable key order (written by the caller): `stages`
 * (`<prefix>-plan-<level>`, `<prefix>-apply-<level>` for each level present), global
 * `variables`, `default.image`, `workflow.rules`, then per level the plan jobs and the apply
 * jobs. A plan job `needs` the apply jobs of its own dependencies (and nothing else, so it does not
 * wait for its whole level); an apply job `needs` its own plan, whose plan file it receives.
 * `noChanges` is the message of the single job of an empty plan.
 */
export function gitlabPipeline(
  plan: PipelinePlan,
  gitlab: GitlabOptions,
  execution: ExecutionOptions,
  noChanges: string,
): CiFile {
  const head = pipelineHead(plan, gitlab, execution);
  if (plan.modules.length === 0) {
    const job = noChangesJob(`${gitlab.stagePrefix}-plan-0`, gitlab, noChanges);
    return { head, jobsKey: undefined, jobs: [[GITLAB_NO_CHANGES_JOB, job]] };
  }
  return { head, jobsKey: undefined, jobs: moduleJobs(plan, gitlab, execution) };
}

/** The keys before the jobs: `stages`, `variables`, `default`, `workflow`. */
function pipelineHead(plan: PipelinePlan, gitlab: GitlabOptions, execution: ExecutionOptions): ConfigRecord {
  const kinds: ('plan' | 'apply')[] = gitlab.planOnly ? ['plan'] : ['plan', 'apply'];
  const head: ConfigRecord = {};
  head['stages'] =
    plan.modules.length === 0
      ? [`${gitlab.stagePrefix}-plan-0`]
      : plan.levels.flatMap((level) => kinds.map((kind) => stageName(gitlab, kind, level)));
  head['variables'] = { TF_IN_AUTOMATION: 'true', ...execution.env, ...gitlab.variables };
  if (gitlab.image !== undefined) head['default'] = { image: gitlab.image };
  if (gitlab.rules) head['workflow'] = { rules: gitlab.rules };
  return head;
}

function stageName(gitlab: GitlabOptions, kind: 'plan' | 'apply', level: number): string {
  return `${gitlab.stagePrefix}-${kind}-${level}`;
}

/** Per level, the plan jobs then the apply jobs, made one at a time as they are written. */
function* moduleJobs(
  plan: PipelinePlan,
  gitlab: GitlabOptions,
  execution: ExecutionOptions,
): Generator<[string, ConfigRecord]> {
  const apply = !gitlab.planOnly;
  const applyGate = gitlab.autoApprove ? undefined : 'manual';
  const settings = {
    plan: jobSettings(gitlab, 'plan', undefined),
    apply: jobSettings(gitlab, 'apply', applyGate),
  };
  const commands = { module: jobCommands('module', execution), unit: jobCommands('unit', execution) };
  const namesOf = jobNames(plan);

  for (const { level, modules } of modulesByLevel(plan)) {
    const planStage = stageName(gitlab, 'plan', level);
    for (const module of modules) {
      const names = namesOf.get(module.id)!;
      const run = commands[module.kind];
      const needs = module.dependencies.map((dep) => {
        const waitFor = namesOf.get(dep)!;
        return { job: apply ? waitFor.apply : waitFor.plan, artifacts: false };
      });
      yield [
        names.plan,
        job(module, names, settings.plan, {
          stage: planStage,
          // GitLab allows 50 needs per job; beyond, the stage order (all lower levels) is the safe wait.
          needs: needs.length > GITLAB_MAX_NEEDS ? undefined : needs,
          script: [...enter(module, run), run.init, run.plan],
          artifacts: planArtifacts(module, names, settings.plan.artifacts),
          gate: undefined,
          cache: gitlab.cache ? run.cacheDir : undefined,
        }),
      ];
    }
    if (!apply) continue;
    const applyStage = stageName(gitlab, 'apply', level);
    for (const module of modules) {
      const names = namesOf.get(module.id)!;
      const run = commands[module.kind];
      yield [
        names.apply,
        job(module, names, settings.apply, {
          stage: applyStage,
          needs: [{ job: names.plan, artifacts: true }],
          script: [...enter(module, run), run.init, run.apply],
          artifacts: settings.apply.artifacts,
          gate: applyGate,
          cache: gitlab.cache ? run.cacheDir : undefined,
        }),
      ];
    }
  }
}

interface JobParts {
  stage: string;
  /** Undefined: no `needs:`, the job waits for every job of the earlier stages. */
  needs: { job: string; artifacts: boolean }[] | undefined;
  script: string[];
  artifacts: unknown;
  /** `manual`: the job waits for a person (and blocks what needs it until then). */
  gate: 'manual' | undefined;
  /** The folder (in the module's) kept between jobs, if any: `.terraform/`, a unit's `.terragrunt-cache/`. */
  cache: string | undefined;
}

/**
 * `jobDefaults`, then the overwrites of the job type on top (variables merge; other keys
 * replace), the `gate` in the rules that run the job. Every job of the type repeats these
 * settings: each is a constant copy, written once by the YAML writer and reused.
 */
function jobSettings(gitlab: GitlabOptions, type: 'plan' | 'apply', gate: JobParts['gate']): GitlabJobSettings {
  const settings: GitlabJobSettings = { ...gitlab.jobDefaults };
  // One object the overwrites' variables merge into: copying it for each overwrite was quadratic.
  const variables: Record<string, unknown> = { ...(gitlab.jobDefaults.variables as object) };
  for (const overwrite of gitlab.overwrites) {
    if (overwrite.type !== type) continue;
    Object.assign(settings, overwrite.settings);
    Object.assign(variables, overwrite.settings.variables);
  }
  if (Object.keys(variables).length > 0) settings.variables = variables;
  // GitLab refuses `when` beside `rules`: the manual gate goes into each rule that runs the job.
  if (gate && settings.rules !== undefined) settings.rules = gatedRules(settings.rules as ConfigRecord[], gate);
  const constants: GitlabJobSettings = {};
  for (const [key, value] of Object.entries(settings) as [GitlabJobKey, unknown][])
    constants[key] = typeof value === 'object' && value !== null ? yamlConstant(structuredClone(value)) : value;
  return constants;
}

/** One job, keys in a fixed order. */
function job(module: PlannedModule, names: JobNames, settings: GitlabJobSettings, parts: JobParts): ConfigRecord {
  const out: ConfigRecord = { stage: parts.stage };
  if (settings.image !== undefined) out['image'] = settings.image;
  if (settings.tags !== undefined) out['tags'] = settings.tags;
  // The module's own object when there is nothing to merge: written, never changed.
  out['variables'] =
    settings.variables === undefined ? module.variables : { ...(settings.variables as object), ...module.variables };
  if (settings.id_tokens !== undefined) out['id_tokens'] = settings.id_tokens;
  if (settings.secrets !== undefined) out['secrets'] = settings.secrets;
  if (parts.needs) out['needs'] = parts.needs;
  if (settings.before_script !== undefined) out['before_script'] = settings.before_script;
  out['script'] = parts.script;
  if (settings.after_script !== undefined) out['after_script'] = settings.after_script;
  // With rules, the gate is in them (see `jobSettings`).
  if (settings.rules !== undefined) out['rules'] = settings.rules;
  else if (parts.gate) {
    out['when'] = parts.gate;
    out['allow_failure'] = false;
  }
  if (parts.artifacts !== undefined) out['artifacts'] = parts.artifacts;
  if (parts.cache) out['cache'] = { key: names.lock, paths: [joinPath(module.path, parts.cache)] };
  out['resource_group'] = names.lock;
  if (settings.environment !== undefined) out['environment'] = settings.environment;
  if (settings.interruptible !== undefined) out['interruptible'] = settings.interruptible;
  if (settings.retry !== undefined) out['retry'] = settings.retry;
  if (settings.timeout !== undefined) out['timeout'] = settings.timeout;
  return out;
}

/** Rules that run the job (no `when`, or `on_success`) become gated (manual) and blocking; others stay. */
function gatedRules(rules: readonly ConfigRecord[], gate: 'manual'): ConfigRecord[] {
  return rules.map((rule) =>
    rule['when'] === undefined || rule['when'] === 'on_success' ? { ...rule, when: gate, allow_failure: false } : rule,
  );
}

/** The plan file (and the user's artifact settings, their paths after it). */
function planArtifacts(module: PlannedModule, names: JobNames, configured: unknown): ConfigRecord {
  const user = (configured ?? {}) as ConfigRecord;
  const paths = Array.isArray(user['paths']) ? (user['paths'] as unknown[]) : [];
  return {
    name: names.plan,
    ...user,
    paths: [joinPath(module.path, 'plan.tfplan'), ...paths],
    expire_in: user['expire_in'] ?? '1 week',
  };
}

function noChangesJob(stage: string, gitlab: GitlabOptions, message: string): ConfigRecord {
  const out: ConfigRecord = { stage };
  const defaults = gitlab.jobDefaults;
  if (defaults.image !== undefined) out['image'] = defaults.image;
  if (defaults.tags !== undefined) out['tags'] = defaults.tags;
  out['script'] = [`echo ${shellWord(message)}`];
  return out;
}

/** Into the module's folder; a unit of a stack file is made first (`terragrunt stack generate` in the stack's folder). */
function enter(module: PlannedModule, run: JobCommands): string[] {
  if (module.stackPath === undefined) return [`cd ${shellWord(module.path)}`];
  const inside = path.posix.relative(module.stackPath, module.path);
  return [`cd ${shellWord(module.stackPath)}`, run.generateStack, `cd ${shellWord(inside)}`];
}

function joinPath(dir: string, name: string): string {
  return dir === '.' ? name : `${dir}/${name}`;
}
