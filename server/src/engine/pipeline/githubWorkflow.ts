import path from 'node:path';
import type { ConfigRecord, ExecutionOptions, GithubOptions, ValidateOptions } from '../config';
import type { GatedJobs } from './gatedJobs';
import {
  type ChainGate,
  GITHUB_EARLIER_RECORDS_STEP,
  GITHUB_GATE_ENV,
  GITHUB_GATE_INPUTS,
  githubGateCondition,
  githubGatedApply,
  githubGateOutputs,
  githubGateStep,
  githubRecordPlan,
  githubWorkflowOutputs,
  whenPlanning,
} from './githubGate';
import { jobCommands } from './jobCommands';
import { type CiFile, modulesByLevel, type PipelinePlan, type PlannedModule, shellWord } from './pipelinePlan';
import { yamlConstant, yamlFlow } from './pipelineYaml';

/** The id of the single job of a workflow with nothing to do. */
export const GITHUB_NO_CHANGES_JOB = 'no-changes';

/** The first job when `validate.enabled`: `terrace validate`, which the module jobs that need no other need. */
export const GITHUB_VALIDATE_JOB = 'validate';

/** The job id of a module in the workflow (an id must start with a letter, a slug need not). */
export function githubModuleJob(slug: string): string {
  return `module-${slug}`;
}

/**
 * Where the reusable workflow goes, relative to the workspace: beside the workflow, named after
 * it (`terrace.yml` calls `terrace-module.yml`). GitHub runs a reusable workflow of the same
 * repository only from `.github/workflows/`, whatever the caller's path.
 */
export function githubModuleWorkflowPath(workflowPath: string): string {
  const ext = path.posix.extname(workflowPath) || '.yml';
  return `.github/workflows/${path.posix.basename(workflowPath, ext)}-module${ext}`;
}

/**
 * The GitHub Actions workflow of a plan, in a stable key order, and the reusable workflow it calls:
 * per module one job that calls the reusable workflow with what differs (its folder, variables,
 * the name of its artifact and lock) and `needs` the jobs of its own dependencies. The reusable
 * workflow holds what every module's jobs repeat: the plan job, which uploads the plan file, and
 * the apply job, which downloads it in an `environment` (whose protection rules are GitHub's manual
 * gate). A module's jobs share a concurrency group, so two runs never touch one state at once.
 * Each caller passes its secrets on (`secrets: inherit`), as the jobs it replaces had them all.
 * With `validate.enabled`, a first job runs `terrace validate` and the module jobs that need no
 * other need it. `gated` (changed-only): each dependent's job starts only when an output it reads changes (see
 * `githubGate.ts`).
 */
export function githubWorkflow(
  plan: PipelinePlan,
  github: GithubOptions,
  execution: ExecutionOptions,
  noChanges: string,
  validate?: ValidateOptions,
  gated?: GatedJobs,
): { workflow: CiFile; module: CiFile | undefined } {
  const env = workflowEnv(github, execution);
  const head: ConfigRecord = { name: github.name, on: github.on, permissions: github.permissions };
  if (plan.modules.length === 0) {
    const job = {
      name: 'No module changed',
      'runs-on': github.runsOn,
      steps: [{ run: `echo ${githubLiteral(shellWord(noChanges))}` }],
    };
    return {
      workflow: { head: { ...head, env }, jobsKey: 'jobs', jobs: [[GITHUB_NO_CHANGES_JOB, job]] },
      module: undefined,
    };
  }
  const inputs = moduleInputs(plan, github, gated !== undefined);
  return {
    workflow: { head, jobsKey: 'jobs', jobs: callerJobs(plan, github, inputs, undefined, validate, gated) },
    module: reusableWorkflow(plan, github, execution, inputs, gated),
  };
}

/** The reusable workflow every module's job calls: its inputs, the shared `env`, the plan and apply jobs. */
export function reusableWorkflow(
  plan: PipelinePlan,
  github: GithubOptions,
  execution: ExecutionOptions,
  inputs: ModuleInputs,
  gated?: GatedJobs,
): CiFile {
  // Variables of the caller's `env` do not reach a called workflow: they are set here.
  const env = workflowEnv(github, execution);
  const call: ConfigRecord = { inputs: inputs.declared };
  if (gated) call['outputs'] = githubWorkflowOutputs(github.planOnly);
  return {
    head: { name: `${github.name}: one module`, on: { workflow_call: call }, env },
    jobsKey: 'jobs',
    jobs: reusableJobs(plan, github, execution, inputs, gated),
  };
}

/** The workflow's `env`: the pipeline's global variables. */
function workflowEnv(github: GithubOptions, execution: ExecutionOptions): Record<string, string> {
  return { TF_IN_AUTOMATION: 'true', ...execution.env, ...github.env };
}

/** The reusable workflow's inputs: the lock's and artifact's slug, the variables, and what varies. */
export interface ModuleInputs {
  declared: ConfigRecord;
  /** Variable names (`TF_MODULE_PATH`, `TF_SERVICE`, …), in the order modules first have them. */
  variables: string[];
  /** The apply environment has `{segment}` placeholders: each module passes its own. */
  environment: boolean;
  /** Both root modules and Terragrunt units: each unit says so. */
  kind: boolean;
  /** Units of stack files: each passes its stack's folder. */
  stack: boolean;
  /** Gated and chained by level: a module that reads one of an earlier workflow says so, and its plan job downloads their records. */
  earlier: boolean;
}

export function moduleInputs(plan: PipelinePlan, github: GithubOptions, gated = false, chained = false): ModuleInputs {
  const variables = new Set<string>();
  for (const module of plan.modules) for (const name in module.variables) variables.add(name);
  const environment =
    !github.planOnly &&
    !github.autoApprove &&
    github.environment !== undefined &&
    /\{[\w-]+\}/.test(github.environment);
  const kind = new Set(plan.modules.map((module) => module.kind)).size > 1;
  const stack = plan.modules.some((module) => module.stackPath !== undefined);
  const text = (required: boolean) => ({ type: 'string', required });
  const declared: ConfigRecord = { slug: text(true) };
  for (const name of variables) declared[name] = text(name === 'TF_MODULE_PATH');
  if (environment) declared['environment'] = text(true);
  if (kind) declared['kind'] = { type: 'string', required: false, default: 'module' };
  if (stack) declared['stack_path'] = text(false);
  if (gated) Object.assign(declared, GITHUB_GATE_INPUTS);
  if (gated && chained) declared['earlier'] = { type: 'boolean', required: false, default: false };
  return { declared, variables: [...variables], environment, kind, stack, earlier: gated && chained };
}

/**
 * The validate job with `validate.enabled`, then per level each module's job: its name, needs, the
 * call and its inputs. `gate`: the `if` of the jobs that need no other module's (those that do are
 * skipped with what they need), for a chained workflow after the first. `gated`: each module's job passes its
 * spec and its upstreams' results, and starts as they say (`githubGate.ts`); `chain`, in a gated chained
 * workflow: the job every module job needs, which says which start as far as earlier workflows go, and the
 * modules that read one of an earlier workflow (`githubChainGate.ts`).
 */
export function* callerJobs(
  plan: PipelinePlan,
  github: GithubOptions,
  inputs: ModuleInputs,
  gate: string | undefined,
  validate: ValidateOptions | undefined,
  gated?: GatedJobs,
  chain?: ChainGate,
): Generator<[string, ConfigRecord]> {
  const uses = `./${githubModuleWorkflowPath(github.path)}`;
  const slugOf = new Map(plan.modules.map((module) => [module.id, module.slug]));
  const validated = validate?.enabled === true;
  if (validated) yield [GITHUB_VALIDATE_JOB, githubValidateJob(github, validate)];
  for (const { modules } of modulesByLevel(plan)) {
    for (const module of modules) {
      const dependencies = module.dependencies.map((dep) => githubModuleJob(slugOf.get(dep)!));
      const decide = chain?.decide;
      const needs = [
        ...(decide !== undefined ? [decide] : []),
        ...(dependencies.length === 0 && validated ? [GITHUB_VALIDATE_JOB] : dependencies),
      ];
      const with_: Record<string, string | boolean> = { slug: module.slug };
      for (const name in module.variables) with_[name] = githubLiteral(module.variables[name]!);
      if (inputs.environment) with_['environment'] = environmentName(github.environment!, module);
      if (inputs.kind && module.kind === 'unit') with_['kind'] = 'unit';
      if (module.stackPath !== undefined) with_['stack_path'] = githubLiteral(module.stackPath);
      if (gated) with_['gate'] = githubLiteral(gated.specs.get(module.id)!);
      if (gated && dependencies.length > 0) with_['upstream'] = `\${{ toJSON(needs) }}`;
      if (chain?.earlier.has(module.id)) with_['earlier'] = true;
      const condition =
        gated && (dependencies.length > 0 || decide !== undefined)
          ? githubGateCondition(module, gated.changed.has(module.id), decide)
          : gate !== undefined && dependencies.length === 0
            ? gate
            : undefined;
      yield [
        githubModuleJob(module.slug),
        {
          name: githubLiteral(module.id),
          ...(condition !== undefined ? { if: condition } : {}),
          ...(needs.length > 0 ? { needs: yamlFlow(needs) } : {}),
          uses,
          with: yamlFlow(with_),
          secrets: 'inherit',
        },
      ];
    }
  }
}

/** The validate job: the repository checked out, then the command, on the workflow's runners. */
function githubValidateJob(github: GithubOptions, validate: ValidateOptions): ConfigRecord {
  return {
    name: 'Validate',
    'runs-on': github.runsOn,
    steps: [{ uses: 'actions/checkout@v4' }, { name: 'Validate', run: validate.command }],
  };
}

/**
 * The reusable workflow's jobs: plan, then (unless plan only) apply. Gated, the plan job decides once set up
 * (checkout, `setupSteps`) and its other steps run only when it plans; each job records what its plan or apply did to the outputs (its outputs
 * `record` and `starts`), and the apply job runs only when there is a plan.
 */
function* reusableJobs(
  plan: PipelinePlan,
  github: GithubOptions,
  execution: ExecutionOptions,
  inputs: ModuleInputs,
  gated: GatedJobs | undefined,
): Generator<[string, ConfigRecord]> {
  const kinds = (['module', 'unit'] as const).filter((kind) => plan.modules.some((module) => module.kind === kind));
  const steps = kinds.map((kind) => ({ kind, ...kindSteps(kind, execution, gated) }));
  const checkout = { uses: 'actions/checkout@v4' };
  const setup = github.setupSteps ?? defaultSetupSteps(execution.binary);
  const env: Record<string, string> = {};
  for (const name of inputs.variables) env[name] = input(name);
  env['TERRACE_PLAN'] = `${WORKSPACE}/${PLAN_ARTIFACT_PATH}`;
  if (gated) Object.assign(env, GITHUB_GATE_ENV);
  const shared = {
    'runs-on': github.runsOn,
    concurrency: { group: `terraform-${input('slug')}`, 'cancel-in-progress': false },
    env,
    defaults: { run: { 'working-directory': input('TF_MODULE_PATH') } },
  };
  // Each kind's steps, run only for its modules when there are both.
  const each = (pick: (own: (typeof steps)[number]) => ConfigRecord[]) =>
    steps.flatMap((own) =>
      pick(own).map((step) =>
        inputs.kind ? { ...step, if: own.kind === 'unit' ? "inputs.kind == 'unit'" : "inputs.kind != 'unit'" } : step,
      ),
    );
  const stack = inputs.stack ? [generateStack(execution)] : [];
  // Gated, the decision comes after the setup steps (which may install Terrace) and before anything else.
  const planSteps = [
    ...each((own) => own.setup),
    ...stack,
    ...each((own) => [own.init, own.plan, ...own.record]),
    {
      name: 'Upload the plan',
      uses: 'actions/upload-artifact@v4',
      with: { name: `plan-${input('slug')}`, path: PLAN_ARTIFACT_PATH, 'retention-days': 7 },
    },
  ];
  yield [
    'plan',
    {
      name: 'plan',
      ...(gated
        ? {
            outputs: {
              step: `\${{ steps.gate.outputs.step }}`,
              ...githubGateOutputs([...kinds.map((kind) => `planned_${kind}`), 'gate']),
            },
          }
        : {}),
      ...shared,
      steps: gated
        ? [
            checkout,
            ...setup,
            ...(inputs.earlier ? [GITHUB_EARLIER_RECORDS_STEP] : []),
            githubGateStep(gated),
            ...planSteps.map(whenPlanning),
          ]
        : [checkout, ...setup, ...planSteps],
    },
  ];
  if (github.planOnly) return;
  const environment = github.autoApprove ? undefined : inputs.environment ? input('environment') : github.environment;
  yield [
    'apply',
    {
      name: 'apply',
      needs: ['plan'],
      ...(gated
        ? { if: "needs.plan.outputs.step == 'plan'", outputs: githubGateOutputs(kinds.map((kind) => `apply_${kind}`)) }
        : {}),
      ...(environment ? { environment } : {}),
      ...shared,
      steps: [
        checkout,
        ...setup,
        {
          name: 'Download the plan',
          uses: 'actions/download-artifact@v4',
          with: { name: `plan-${input('slug')}`, path: WORKSPACE },
        },
        ...each((own) => own.setup),
        ...stack,
        ...each((own) => [own.init, own.apply]),
      ],
    },
  ];
}

/** `{segment}` placeholders replaced by the module's segments (`{id}` is the module id), as text. */
function environmentName(template: string, module: PlannedModule): string {
  return template.replace(/\{([\w-]+)\}/g, (whole, name: string) =>
    githubLiteral(name === 'id' ? module.id : (module.segments[name] ?? whole)),
  );
}

function input(name: string): string {
  return `\${{ inputs.${name} }}`;
}

/**
 * The plan file, at the root of the checkout and named after the module's job slug: the artifact's
 * path names no folder, which upload-artifact would read as a glob (`[ab]`, `{a,b}`, `*`), an
 * exclusion (a leading `!`) or a hidden file (a folder such as `.terragrunt-stack/`, left out
 * without `include-hidden-files`). Relative to the workspace, where the artifact actions start.
 */
const PLAN_ARTIFACT_PATH = `terraform-${input('slug')}.tfplan`;

/** The checkout on the runner, where the artifact actions start and the jobs' steps begin. */
const WORKSPACE = `\${{ github.workspace }}`;

/**
 * Text that GitHub keeps as it is. GitHub evaluates `${{ … }}` in every string of a workflow, a
 * job's `name:` and the inputs of `with:` included: a folder named `${{ 'other' }}` would plan and
 * apply the folder `other`. Each `${{` is written as an expression whose value it is, `${{ '${{' }}`
 * (the expression ends at the first `}}` outside a quoted string); what an input carries is not
 * evaluated again where the called workflow reads it.
 */
export function githubLiteral(text: string): string {
  return text.includes(OPEN_EXPRESSION) ? text.replaceAll(OPEN_EXPRESSION, `\${{ '\${{' }}`) : text;
}

const OPEN_EXPRESSION = `\${{`;

/**
 * The init, plan and apply steps of a module or a unit; a unit's job installs Terragrunt first. Gated, the plan
 * is recorded after it, and the apply records what it changed.
 */
function kindSteps(kind: 'module' | 'unit', execution: ExecutionOptions, gated: GatedJobs | undefined) {
  const commands = jobCommands(kind, execution, GITHUB_PLAN_FILE);
  return {
    setup: kind === 'unit' && execution.terragrunt === 'terragrunt' ? [TERRAGRUNT_SETUP] : [],
    init: { name: 'Init', run: commands.init },
    plan: { name: 'Plan', run: commands.plan },
    record: gated ? [githubRecordPlan(commands, gated, kind)] : [],
    apply: gated ? githubGatedApply(commands, gated, kind) : { name: 'Apply', run: commands.apply },
  };
}

/** A unit of a stack file is made first, in the stack's folder (the job's own folder exists only after). */
function generateStack(execution: ExecutionOptions): ConfigRecord {
  return {
    name: 'Generate the stack',
    if: "inputs.stack_path != ''",
    run: jobCommands('unit', execution, GITHUB_PLAN_FILE).generateStack,
    'working-directory': input('stack_path'),
  };
}

/** The plan file as the steps' shell reads it: the jobs' `TERRACE_PLAN`, an absolute path. */
const GITHUB_PLAN_FILE = '"$TERRACE_PLAN"';

/** Terragrunt has no official setup action: its release binary, installed on the runner's PATH. */
const TERRAGRUNT_SETUP = yamlConstant({
  name: 'Install Terragrunt',
  run: 'sudo curl -fsSL -o /usr/local/bin/terragrunt https://github.com/gruntwork-io/terragrunt/releases/latest/download/terragrunt_linux_amd64 && sudo chmod +x /usr/local/bin/terragrunt',
});

/** The official setup action of the binary, without the wrapper that rewrites its output. */
function defaultSetupSteps(binary: ExecutionOptions['binary']): ConfigRecord[] {
  return binary === 'tofu'
    ? [{ uses: 'opentofu/setup-opentofu@v1', with: { tofu_wrapper: false } }]
    : [{ uses: 'hashicorp/setup-terraform@v3', with: { terraform_wrapper: false } }];
}
