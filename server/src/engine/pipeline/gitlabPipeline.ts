import path from 'node:path';
import type {
  ConfigRecord,
  ExecutionOptions,
  GitlabJobKey,
  GitlabJobSettings,
  GitlabOptions,
  ValidateOptions,
} from '../config';
import { type GatedJobs, gitlabGatedApply, gitlabGatedPlan, gitlabRecordArtifact } from './gatedJobs';
import { type JobCommands, jobCommands } from './jobCommands';
import {
  type CiFile,
  jobNames,
  modulesByLevel,
  type PipelinePlan,
  type PlannedModule,
  shellWord,
} from './pipelinePlan';
import { yamlAnchored, yamlConstant, yamlFlow } from './pipelineYaml';
import { GITLAB_MAX_NEEDS } from './platformLimits';

/** The name of the single job of a pipeline with nothing to do (GitLab rejects an empty pipeline). */
export const GITLAB_NO_CHANGES_JOB = 'no-changes';

/** The first job when `validate.enabled`: `terrace validate`, which the plans that start first need. */
export const GITLAB_VALIDATE_JOB = 'validate';

/**
 * The `.gitlab-ci.yml` of a plan, in a stable key order (written by the caller): `stages`
 * (`<prefix>-plan-<level>`, `<prefix>-apply-<level>` for each level present), global
 * `variables`, `default.image`, `workflow.rules`, then per level the plan jobs and the apply
 * jobs. A plan job `needs` the apply jobs of its own dependencies (and nothing else, so it does not
 * wait for its whole level); an apply job `needs` its own plan, whose plan file it receives.
 * `noChanges` is the message of the single job of an empty plan. With `validate.enabled`, the
 * validate job comes first, in a stage of its own, and a plan that needs no other job needs it:
 * nothing plans until the graph and its contracts hold.
 *
 * `gated` (changed-only): each dependent decides from the outputs it reads. A plan job then `needs` the plan jobs
 * of its dependencies, whose records (what their plans do to their outputs) it reads before init, and ends when
 * its module is unaffected or stale; an apply job needs its plan and the apply jobs of its dependencies, whose
 * records (what their applies changed) tell it to skip, apply its saved plan or plan afresh.
 */
export function gitlabPipeline(
  plan: PipelinePlan,
  gitlab: GitlabOptions,
  execution: ExecutionOptions,
  noChanges: string,
  validate?: ValidateOptions,
  gated?: GatedJobs,
): CiFile {
  const validated = validate?.enabled === true ? validate : undefined;
  const head = pipelineHead(plan, gitlab, execution, validated !== undefined);
  if (plan.modules.length === 0) {
    const job = gitlabShellJob(`${gitlab.stagePrefix}-plan-0`, gitlab, `echo ${shellWord(noChanges)}`);
    return { head, jobsKey: undefined, jobs: [[GITLAB_NO_CHANGES_JOB, job]] };
  }
  return {
    head,
    jobsKey: undefined,
    templates: templates(plan, gitlab, execution, gated),
    jobs: moduleJobs(plan, gitlab, execution, validated, gated),
  };
}

/** The keys before the jobs: `stages`, `variables`, `default`, `workflow`. */
function pipelineHead(
  plan: PipelinePlan,
  gitlab: GitlabOptions,
  execution: ExecutionOptions,
  validated: boolean,
): ConfigRecord {
  const kinds: ('plan' | 'apply')[] = gitlab.planOnly ? ['plan'] : ['plan', 'apply'];
  const head: ConfigRecord = {};
  head['stages'] =
    plan.modules.length === 0
      ? [`${gitlab.stagePrefix}-plan-0`]
      : [
          ...(validated ? [gitlabValidateStage(gitlab)] : []),
          ...plan.levels.flatMap((level) => kinds.map((kind) => stageName(gitlab, kind, level))),
        ];
  head['variables'] = { TF_IN_AUTOMATION: 'true', ...execution.env, ...gitlab.variables };
  if (gitlab.image !== undefined) head['default'] = { image: gitlab.image };
  if (gitlab.rules) head['workflow'] = { rules: gitlab.rules };
  return head;
}

function stageName(gitlab: GitlabOptions, kind: 'plan' | 'apply', level: number): string {
  return `${gitlab.stagePrefix}-${kind}-${level}`;
}

/** The stage of the validate job, before every other: `<prefix>-validate`. */
export function gitlabValidateStage(gitlab: GitlabOptions): string {
  return `${gitlab.stagePrefix}-validate`;
}

/**
 * The validate job: the command on `validate.image` (by default the jobs' image) and the jobs' runner
 * tags. It takes none of the jobs' `rules`: the plans that start first need it, and GitLab refuses a
 * pipeline in which a job needs one that a rule left out; so it runs whenever the pipeline does
 * (`workflow: rules` decide that, for it as for every job).
 */
export function gitlabValidateJob(gitlab: GitlabOptions, validate: ValidateOptions): ConfigRecord {
  return gitlabShellJob(gitlabValidateStage(gitlab), gitlab, validate.command, validate.image);
}

/** The job types, in the order their templates are written. */
const JOB_TYPES = ['plan', 'apply'] as const;
type JobType = (typeof JOB_TYPES)[number];
type ModuleKind = PlannedModule['kind'];

/** The hidden job a module's plan or apply job extends: `.terrace-plan`, `.terrace-apply-unit`. */
function templateName(type: JobType, kind: ModuleKind): string {
  return kind === 'module' ? `.terrace-${type}` : `.terrace-${type}-unit`;
}

/**
 * The hidden jobs the module jobs extend, one per job type and kind of module present: every
 * setting the jobs of a type share (the user's job settings, the script, artifacts, cache,
 * lock), written once. What differs per module comes in through the job's variables
 * (`TF_MODULE_PATH`, `TERRACE_LOCK`), which GitLab expands in `artifacts`, `cache` and
 * `resource_group` (docs.gitlab.com/ci/variables/where_variables_can_be_used/) and the shell in
 * the script. The plan file is named after the lock, not the folder (`GITLAB_PLAN_FILE`).
 */
function templates(
  plan: PipelinePlan,
  gitlab: GitlabOptions,
  execution: ExecutionOptions,
  gated: GatedJobs | undefined,
): [string, ConfigRecord][] {
  const kinds = (['module', 'unit'] as const).filter((kind) => plan.modules.some((module) => module.kind === kind));
  const out: [string, ConfigRecord][] = [];
  for (const type of JOB_TYPES) {
    if (type === 'apply' && gitlab.planOnly) continue;
    const gate = type === 'apply' && !gitlab.autoApprove ? 'manual' : undefined;
    const settings = jobSettings(gitlab, type, gate);
    for (const kind of kinds) {
      const run = jobCommands(kind, execution, GITLAB_PLAN_FILE);
      out.push([
        templateName(type, kind),
        template(settings, {
          script: script(type, run, [ENTER_MODULE], gated),
          artifacts: jobArtifacts(type, settings.artifacts, gated !== undefined),
          gate,
          cache: gitlab.cache ? run.cacheDir : undefined,
        }),
      ]);
    }
  }
  // Then one per level, which adds the stage: the jobs of a level share it.
  for (const { level, modules } of modulesByLevel(plan))
    for (const type of JOB_TYPES) {
      if (type === 'apply' && gitlab.planOnly) continue;
      for (const kind of kinds)
        if (modules.some((module) => module.kind === kind))
          out.push([
            levelTemplateName(type, kind, level),
            { extends: templateName(type, kind), stage: stageName(gitlab, type, level) },
          ]);
    }
  return out;
}

/** The hidden job of a type, kind and level (`.terrace-plan-3`), which the module's job extends. */
function levelTemplateName(type: JobType, kind: ModuleKind, level: number): string {
  return `${templateName(type, kind)}-${level}`;
}

/** A job's script: into the module (`enter`), init, then plan or apply; gated, with `terrace gate` around them. */
function script(type: JobType, run: JobCommands, enter: readonly string[], gated: GatedJobs | undefined): string[] {
  if (gated) return type === 'plan' ? gitlabGatedPlan(run, gated, enter) : gitlabGatedApply(run, gated, enter);
  return [...enter, run.init, type === 'plan' ? run.plan : run.apply];
}

/** Into the module's folder, by the job's variable: the one script serves every module. */
const ENTER_MODULE = 'cd "$TF_MODULE_PATH"';

/**
 * The plan file, at the root of the checkout and named after the module's lock (`terraform-<slug>`):
 * the plan job's artifact path names no folder, whose characters GitLab would read as a glob
 * (`[ab]`, `{a,b}`, `*`) or expand (`$HOME`). As the script gives it, then as the artifact's path.
 */
const GITLAB_PLAN_FILE = '"$CI_PROJECT_DIR/$TERRACE_LOCK.tfplan"';
const GITLAB_PLAN_ARTIFACT = '$TERRACE_LOCK.tfplan';

/** The validate job if any, then per level the plan jobs then the apply jobs, made one at a time as they are written. */
function* moduleJobs(
  plan: PipelinePlan,
  gitlab: GitlabOptions,
  execution: ExecutionOptions,
  validate: ValidateOptions | undefined,
  gated: GatedJobs | undefined,
): Generator<[string, ConfigRecord]> {
  if (validate) yield [GITLAB_VALIDATE_JOB, gitlabValidateJob(gitlab, validate)];
  // What a plan with no dependency in the pipeline waits for: the validate job, or nothing (`needs: []`).
  const first = validate ? [GITLAB_VALIDATE_JOB] : [];
  const apply = !gitlab.planOnly;
  // A plan needs its dependencies' applies for their order only; by name alone it would also
  // fetch their artifacts, which they have only when the user gives apply jobs some.
  const planNeedsByName = apply && jobSettings(gitlab, 'apply', undefined).artifacts === undefined;
  // Gated, the records a job decides from come in its dependencies' artifacts: a plan reads their plans' records
  // (so it runs before they apply), an apply their applies'.
  const commands = {
    module: jobCommands('module', execution, GITLAB_PLAN_FILE),
    unit: jobCommands('unit', execution, GITLAB_PLAN_FILE),
  };
  const namesOf = jobNames(plan);
  // A module's variables, written in full in its plan job and referred to by its apply job.
  const variablesOf = new Map<string, ConfigRecord>();

  for (const { level, modules } of modulesByLevel(plan)) {
    for (const module of modules) {
      const names = namesOf.get(module.id)!;
      const spec = gated?.specs.get(module.id);
      const variables = gitlabVariables({
        ...module.variables,
        TERRACE_LOCK: names.lock,
        ...(spec !== undefined ? { TERRACE_GATE: spec } : {}),
      });
      if (apply) variablesOf.set(module.id, yamlAnchored(module.slug, variables));
      const dependencies = module.dependencies.map((dep) => {
        const waitFor = namesOf.get(dep)!;
        if (gated) return waitFor.plan;
        return planNeedsByName ? waitFor.apply : { job: apply ? waitFor.apply : waitFor.plan, artifacts: false };
      });
      const needs = dependencies.length > 0 ? dependencies : [...first];
      yield [
        names.plan,
        job(module, commands[module.kind], gated, {
          extends: levelTemplateName('plan', module.kind, level),
          variables,
          // GitLab allows 50 needs per job; beyond, the stage order (all lower levels) is the safe wait.
          needs: needs.length > GITLAB_MAX_NEEDS ? undefined : needs,
          last: 'plan',
        }),
      ];
    }
    if (!apply) continue;
    for (const module of modules) {
      const names = namesOf.get(module.id)!;
      // By name: the plan's artifact, its plan file, comes with it (gated: and the dependencies' applies' records).
      const needs = [names.plan, ...(gated ? module.dependencies.map((dep) => namesOf.get(dep)!.apply) : [])];
      yield [
        names.apply,
        job(module, commands[module.kind], gated, {
          extends: levelTemplateName('apply', module.kind, level),
          variables: variablesOf.get(module.id)!,
          needs: needs.length > GITLAB_MAX_NEEDS ? undefined : needs,
          last: 'apply',
        }),
      ];
      variablesOf.delete(module.id);
    }
  }
}

interface JobParts {
  extends: string;
  variables: ConfigRecord;
  /** Undefined: no `needs:`, the job waits for every job of the earlier stages. */
  needs: (string | { job: string; artifacts: boolean })[] | undefined;
  /** The command after init, for the script of a unit of a stack file. */
  last: 'plan' | 'apply';
}

/** A module's job: what differs from its template (a unit of a stack file has a script of its own). */
function job(module: PlannedModule, run: JobCommands, gated: GatedJobs | undefined, parts: JobParts): ConfigRecord {
  const out: ConfigRecord = { extends: parts.extends, variables: parts.variables };
  if (parts.needs)
    out['needs'] = parts.needs.every((need) => typeof need === 'string') ? yamlFlow(parts.needs) : parts.needs;
  if (module.stackPath !== undefined) out['script'] = script(parts.last, run, enterStack(module, run), gated);
  return out;
}

interface TemplateParts {
  script: string[];
  artifacts: unknown;
  /** `manual`: the job waits for a person (and blocks what needs it until then). */
  gate: 'manual' | undefined;
  /** The folder (in the module's) kept between jobs, if any: `.terraform/`, a unit's `.terragrunt-cache/`. */
  cache: string | undefined;
}

/**
 * `jobDefaults`, then the overwrites of the job type on top (variables merge; other keys
 * replace), the `gate` in the rules that run the job. Each setting is a constant copy, written
 * once by the YAML writer and reused.
 */
function jobSettings(gitlab: GitlabOptions, type: JobType, gate: TemplateParts['gate']): GitlabJobSettings {
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

/** A template (hidden job), keys in a fixed order. */
function template(settings: GitlabJobSettings, parts: TemplateParts): ConfigRecord {
  const out: ConfigRecord = {};
  if (settings.image !== undefined) out['image'] = settings.image;
  if (settings.tags !== undefined) out['tags'] = settings.tags;
  if (settings.variables !== undefined) out['variables'] = settings.variables;
  if (settings.id_tokens !== undefined) out['id_tokens'] = settings.id_tokens;
  if (settings.secrets !== undefined) out['secrets'] = settings.secrets;
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
  if (parts.cache) out['cache'] = { key: '$TERRACE_LOCK', paths: [`$TF_MODULE_PATH/${parts.cache}`] };
  out['resource_group'] = '$TERRACE_LOCK';
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

/**
 * A job's artifacts: a plan job's plan file, gated jobs' records (and the user's artifact settings, their paths
 * after them), named after the job; an ungated apply job's are the user's.
 */
function jobArtifacts(type: JobType, configured: unknown, gated: boolean): unknown {
  const own = [...(type === 'plan' ? [GITLAB_PLAN_ARTIFACT] : []), ...(gated ? [gitlabRecordArtifact(type)] : [])];
  if (own.length === 0) return configured;
  const user = (configured ?? {}) as ConfigRecord;
  const paths = Array.isArray(user['paths']) ? (user['paths'] as unknown[]) : [];
  return {
    name: '$CI_JOB_NAME',
    ...user,
    paths: [...own, ...paths],
    expire_in: user['expire_in'] ?? '1 week',
  };
}

/**
 * A module's job variables as GitLab reads them, on one line. GitLab expands `$NAME`, `${NAME}` and
 * `%NAME%` in a variable's value, and its runner `$NAME`, `${NAME}` and `$$`: a folder named `$HOME`
 * would run in the runner's home, one named `${CI_JOB_TOKEN}` in a folder named after the token. A
 * value holding `$` or `%` is given raw (`expand: false`), which neither expands, and the variables
 * of its job are written as a block (a one-line mapping holds plain values only); the cache path
 * and the script that read the variable take its value as it is.
 */
function gitlabVariables(variables: Record<string, string>): ConfigRecord {
  if (!Object.values(variables).some(expandable)) return yamlFlow(variables);
  const out: ConfigRecord = {};
  for (const [name, value] of Object.entries(variables))
    out[name] = expandable(value) ? { value, expand: false } : value;
  return out;
}

function expandable(value: string): boolean {
  return value.includes('$') || value.includes('%');
}

/**
 * A job of one shell line that is no module's (the no-changes job, the split's files job, the validate
 * job), on the jobs' image (unless given another) and runners.
 */
export function gitlabShellJob(
  stage: string,
  gitlab: GitlabOptions,
  line: string,
  image: unknown = gitlab.jobDefaults.image,
): ConfigRecord {
  const out: ConfigRecord = { stage };
  const defaults = gitlab.jobDefaults;
  if (image !== undefined) out['image'] = image;
  if (defaults.tags !== undefined) out['tags'] = defaults.tags;
  out['script'] = [line];
  return out;
}

/** A unit of a stack file: the stack made first (`terragrunt stack generate` in its folder), then into the unit's. */
function enterStack(module: PlannedModule, run: JobCommands): string[] {
  const inside = path.posix.relative(module.stackPath!, module.path);
  return [`cd ${shellWord(module.stackPath!)}`, run.generateStack, `cd ${shellWord(inside)}`];
}
