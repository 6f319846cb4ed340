import { type Engine, type EnvironmentConfig, environmentVarFiles } from './analysisOptions';
import {
  boolean,
  ConfigError,
  type ConfigRecord,
  integer,
  isRecord,
  nonEmptyString,
  oneOf,
  record,
  records,
  string,
  stringOrStrings,
  strings,
  unknownKey,
  variables,
} from './configValues';

/**
 * The `execution`, `gitlab`, `github` and `validate` sections of `.terrace.yaml`: how Terraform runs,
 * and the shape of the generated pipelines. Read by the CLI and the server alike.
 */
export interface PipelineOptions {
  execution: ExecutionOptions;
  gitlab: GitlabOptions;
  github: GithubOptions;
  validate: ValidateOptions;
  gate: GateOptions;
  /** Folders (relative to the workspace, `/`-separated) of shared child modules: a change there counts for every root that calls into them. */
  libraryModules: string[];
}

export interface ExecutionOptions {
  /** `terraform` or `tofu`; by default the workspace's engine's (see `executionFor`). */
  binary: 'terraform' | 'tofu';
  /** Whether `binary` was configured: otherwise the workspace's engine chooses it. */
  binaryChosen: boolean;
  /**
   * Tfvars files (names or globs, relative to a root's folder) each job gives `plan` as `-var-file` where the
   * root has them, and `init` too with `tofu` (a backend may read variables): the selected environment's.
   */
  varFiles: string[];
  /** The command that runs Terragrunt units: `terragrunt`, or a path. */
  terragrunt: string;
  /** Modules run at once by Run Plans; 0 means Terraform's default, 10. */
  parallelism: number;
  /** Extra arguments of `init`, after `-input=false`. */
  initArgs: string[];
  /** Extra arguments of `plan`, after `-input=false -out=<the plan file>`. */
  planArgs: string[];
  /** Environment variables of every Terraform run (the pipeline's global variables). */
  env: Record<string, string>;
  /** Run Plans: extra attempts after a failed plan, with exponential backoff (0 = none). */
  retries: number;
  /** Run Plans: `auto` inits when `.terraform/` is missing or the provider lock file changed; `always`; `never`. */
  init: 'auto' | 'always' | 'never';
}

/**
 * The `validate` section: a first job of the generated pipelines that runs `terrace validate`, so that
 * a read of an output its writer no longer declares (or a cycle, a syntax error) fails the pipeline
 * before anything is planned.
 */
export interface ValidateOptions {
  /** Off by default: the job needs Terrace's CLI on the runner. */
  enabled: boolean;
  /** One shell line, run at the workspace folder (the repository's root, as every job). */
  command: string;
  /** GitLab: the job's image (one with Node and the CLI); by default the other jobs'. */
  image: string | ConfigRecord | undefined;
}

/**
 * The `gate` section: how the jobs of a changed-only pipeline run Terrace's CLI (`terrace gate …`), which decides
 * from the outputs each dependent reads whether its job plans and applies.
 */
export interface GateOptions {
  /** The command that runs the CLI in a job, before its arguments: `terrace` on the PATH, `node tools/terrace/cli.js`. */
  command: string;
}

/** GitLab job keywords a user may set for every job (`jobDefaults`) or per job type (`overwrites`). */
export const GITLAB_JOB_KEYS = [
  'image',
  'tags',
  'before_script',
  'after_script',
  'variables',
  'rules',
  'id_tokens',
  'secrets',
  'artifacts',
  'environment',
  'interruptible',
  'retry',
  'timeout',
] as const;
export type GitlabJobKey = (typeof GITLAB_JOB_KEYS)[number];
export type GitlabJobSettings = Partial<Record<GitlabJobKey, unknown>>;

export interface GitlabOverwrite {
  type: 'plan' | 'apply';
  settings: GitlabJobSettings;
}

/**
 * One pipeline, or one split by level for a graph past a platform's limits: GitLab child pipelines,
 * chained GitHub workflows (see `gitlabChildPipelines.ts`, `githubChainedWorkflows.ts`).
 */
export const PIPELINE_SPLITS = ['none', 'level'] as const;
export type PipelineSplit = (typeof PIPELINE_SPLITS)[number];

export interface GitlabOptions {
  /** Where the editor command writes the pipeline, relative to the workspace folder. */
  path: string;
  /** `level`: a parent pipeline that triggers a child pipeline per level, one after another. */
  split: PipelineSplit;
  /** Stages are `<prefix>-plan-<level>` and `<prefix>-apply-<level>`. */
  stagePrefix: string;
  /** The `default:` image of every job. */
  image: string | ConfigRecord | undefined;
  /** Apply jobs run without a manual start. */
  autoApprove: boolean;
  /** Plan jobs only. */
  planOnly: boolean;
  /** Cache each module's `.terraform/` between its jobs and pipelines. */
  cache: boolean;
  /** Global pipeline variables (after `execution.env`). */
  variables: Record<string, string>;
  /** `workflow: rules:` of the pipeline. */
  rules: ConfigRecord[] | undefined;
  jobDefaults: GitlabJobSettings;
  overwrites: GitlabOverwrite[];
}

export interface GithubOptions {
  /** Where the editor command writes the workflow, relative to the workspace folder. */
  path: string;
  /** `level`: the levels in up to four workflows, each started when the one before succeeded. */
  split: PipelineSplit;
  /** The workflow's `name:`. */
  name: string;
  /** The workflow's triggers (`on:`); by default pushes to main and manual runs. */
  on: ConfigRecord;
  runsOn: string | string[];
  /** The environment of apply jobs (its protection rules are the manual gate); `{segment}` placeholders take the module's segments. */
  environment: string | undefined;
  autoApprove: boolean;
  planOnly: boolean;
  permissions: Record<string, string>;
  env: Record<string, string>;
  /** Steps after checkout that install Terraform; by default the official setup action of the binary. */
  setupSteps: ConfigRecord[] | undefined;
}

export function defaultPipelineOptions(): PipelineOptions {
  return {
    execution: {
      binary: 'terraform',
      binaryChosen: false,
      varFiles: [],
      terragrunt: 'terragrunt',
      parallelism: 0,
      initArgs: [],
      planArgs: [],
      env: {},
      retries: 0,
      init: 'auto',
    },
    gitlab: {
      path: '.gitlab-ci.yml',
      split: 'none',
      stagePrefix: 'deploy',
      image: undefined,
      autoApprove: false,
      planOnly: false,
      cache: true,
      variables: {},
      rules: undefined,
      jobDefaults: {},
      overwrites: [],
    },
    github: {
      path: '.github/workflows/terrace.yml',
      split: 'none',
      name: 'Terraform',
      on: { push: { branches: ['main'] }, workflow_dispatch: {} },
      runsOn: 'ubuntu-latest',
      environment: 'production',
      autoApprove: false,
      planOnly: false,
      permissions: { contents: 'read' },
      env: {},
      setupSteps: undefined,
    },
    validate: { enabled: false, command: 'terrace validate .', image: undefined },
    gate: { command: 'terrace' },
    libraryModules: [],
  };
}

const EXECUTION_KEYS = ['binary', 'terragrunt', 'parallelism', 'initArgs', 'planArgs', 'env', 'retries', 'init'];

export function readExecution(
  section: ConfigRecord,
  options: ExecutionOptions,
  file: string,
  prefix = 'execution',
): void {
  for (const [key, value] of Object.entries(section)) {
    const at = `${prefix}.${key}`;
    switch (key) {
      case 'binary':
        options.binary = oneOf(value, at, file, ['terraform', 'tofu']);
        options.binaryChosen = true;
        break;
      case 'terragrunt':
        options.terragrunt = nonEmptyString(value, at, file);
        break;
      case 'parallelism':
        options.parallelism = integer(value, at, file, 0);
        break;
      case 'initArgs':
      case 'planArgs':
        options[key] = strings(value, at, file);
        break;
      case 'env':
        options.env = variables(value, at, file);
        break;
      case 'retries':
        options.retries = integer(value, at, file, 0);
        break;
      case 'init':
        options.init = oneOf(value, at, file, ['auto', 'always', 'never']);
        break;
      default:
        throw unknownKey(file, at, EXECUTION_KEYS);
    }
  }
}

/**
 * How a workspace's modules run: with `tofu` in an OpenTofu workspace unless `binary` is configured, and
 * with the selected environment's tfvars files (`environment`, as `.terrace.yaml` names them or by default).
 */
export function executionFor(
  execution: ExecutionOptions,
  engine: Engine,
  environment: string | undefined,
  environments: Readonly<Record<string, EnvironmentConfig>>,
): ExecutionOptions {
  return {
    ...execution,
    binary: execution.binaryChosen ? execution.binary : engine,
    varFiles: environment === undefined ? [] : environmentVarFiles(environment, environments),
  };
}

const GITLAB_KEYS = [
  'path',
  'stagePrefix',
  'image',
  'autoApprove',
  'planOnly',
  'cache',
  'variables',
  'rules',
  'jobDefaults',
  'overwrites',
  'split',
];

export function readGitlab(section: ConfigRecord, options: GitlabOptions, file: string): void {
  for (const [key, value] of Object.entries(section)) {
    const at = `gitlab.${key}`;
    switch (key) {
      case 'path':
        options.path = outputPath(value, at, file);
        break;
      case 'split':
        options.split = oneOf(value, at, file, PIPELINE_SPLITS);
        break;
      case 'stagePrefix':
        options.stagePrefix = stagePrefix(value, at, file);
        break;
      case 'image':
        options.image = gitlabImage(value, at, file);
        break;
      case 'autoApprove':
      case 'planOnly':
      case 'cache':
        options[key] = boolean(value, at, file);
        break;
      case 'variables':
        options.variables = variables(value, at, file);
        break;
      case 'rules':
        options.rules = records(value, at, file);
        break;
      case 'jobDefaults':
        options.jobDefaults = gitlabJobSettings(value, at, file);
        break;
      case 'overwrites':
        options.overwrites = gitlabOverwrites(value, at, file);
        break;
      default:
        throw unknownKey(file, at, GITLAB_KEYS);
    }
  }
}

const GITHUB_KEYS = [
  'path',
  'name',
  'on',
  'runsOn',
  'environment',
  'autoApprove',
  'planOnly',
  'permissions',
  'env',
  'setupSteps',
  'split',
];

export function readGithub(section: ConfigRecord, options: GithubOptions, file: string): void {
  for (const [key, value] of Object.entries(section)) {
    const at = `github.${key}`;
    switch (key) {
      case 'path':
        options.path = outputPath(value, at, file);
        break;
      case 'split':
        options.split = oneOf(value, at, file, PIPELINE_SPLITS);
        break;
      case 'name':
        options.name = nonEmptyString(value, at, file);
        break;
      case 'on':
        options.on = record(value, at, file);
        break;
      case 'runsOn':
        options.runsOn = stringOrStrings(value, at, file);
        break;
      case 'environment':
        options.environment = value === null ? undefined : nonEmptyString(value, at, file);
        break;
      case 'autoApprove':
      case 'planOnly':
        options[key] = boolean(value, at, file);
        break;
      case 'permissions':
        options.permissions = permissions(value, at, file);
        break;
      case 'env':
        options.env = variables(value, at, file);
        break;
      case 'setupSteps':
        options.setupSteps = records(value, at, file);
        break;
      default:
        throw unknownKey(file, at, GITHUB_KEYS);
    }
  }
}

const VALIDATE_KEYS = ['enabled', 'command', 'image'];

export function readValidate(section: ConfigRecord, options: ValidateOptions, file: string): void {
  for (const [key, value] of Object.entries(section)) {
    const at = `validate.${key}`;
    switch (key) {
      case 'enabled':
        options.enabled = boolean(value, at, file);
        break;
      case 'command':
        options.command = nonEmptyString(value, at, file);
        break;
      case 'image':
        options.image = gitlabImage(value, at, file);
        break;
      default:
        throw unknownKey(file, at, VALIDATE_KEYS);
    }
  }
}

const GATE_KEYS = ['command'];

export function readGate(section: ConfigRecord, options: GateOptions, file: string): void {
  for (const [key, value] of Object.entries(section)) {
    const at = `gate.${key}`;
    if (key !== 'command') throw unknownKey(file, at, GATE_KEYS);
    options.command = nonEmptyString(value, at, file);
  }
}

/** A relative path inside the workspace, `/`-separated. */
function outputPath(value: unknown, at: string, file: string): string {
  const text = nonEmptyString(value, at, file).replaceAll('\\', '/');
  if (text.startsWith('/') || /^[A-Za-z]:/.test(text) || text.split('/').includes('..'))
    throw new ConfigError(file, `${at} must be a path inside the workspace folder, like .gitlab-ci.yml; got '${text}'`);
  return text;
}

function stagePrefix(value: unknown, at: string, file: string): string {
  const text = string(value, at, file);
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(text))
    throw new ConfigError(file, `${at} must be letters, digits, '.', '_' or '-', like deploy; got '${text}'`);
  return text;
}

function gitlabImage(value: unknown, at: string, file: string): string | ConfigRecord {
  if (typeof value === 'string') return nonEmptyString(value, at, file);
  if (isRecord(value) && typeof value['name'] === 'string') return value;
  throw new ConfigError(file, `${at} must be an image name or a mapping with a name (and entrypoint)`);
}

/** Checks the shape of each GitLab keyword; values are passed to the pipeline as they are. */
export function gitlabJobSettings(value: unknown, at: string, file: string): GitlabJobSettings {
  const section = record(value, at, file);
  const settings: GitlabJobSettings = {};
  for (const [key, item] of Object.entries(section)) {
    const where = `${at}.${key}`;
    switch (key) {
      case 'image':
        settings.image = gitlabImage(item, where, file);
        break;
      case 'tags':
        settings.tags = strings(item, where, file);
        break;
      case 'before_script':
      case 'after_script':
        settings[key] = stringOrStrings(item, where, file);
        break;
      case 'variables':
        settings.variables = variables(item, where, file);
        break;
      case 'rules':
        settings.rules = records(item, where, file);
        break;
      case 'id_tokens':
      case 'secrets':
        settings[key] = mappingOfMappings(item, where, file);
        break;
      case 'artifacts':
        settings.artifacts = record(item, where, file);
        break;
      case 'environment':
        if (typeof item !== 'string' && !isRecord(item))
          throw new ConfigError(file, `${where} must be an environment name or a mapping`);
        settings.environment = item;
        break;
      case 'interruptible':
        settings.interruptible = boolean(item, where, file);
        break;
      case 'retry':
        if (!(typeof item === 'number' && Number.isInteger(item) && item >= 0 && item <= 2) && !isRecord(item))
          throw new ConfigError(file, `${where} must be 0, 1, 2 or a mapping with max and when`);
        settings.retry = item;
        break;
      case 'timeout':
        settings.timeout = nonEmptyString(item, where, file);
        break;
      default:
        throw unknownKey(file, where, GITLAB_JOB_KEYS);
    }
  }
  return settings;
}

function gitlabOverwrites(value: unknown, at: string, file: string): GitlabOverwrite[] {
  return records(value, at, file).map((item, index) => {
    const where = `${at}[${index}]`;
    const { type, ...rest } = item;
    if (type === undefined) throw new ConfigError(file, `${where}.type is required: 'plan' or 'apply'`);
    return {
      type: oneOf(type, `${where}.type`, file, ['plan', 'apply']),
      settings: gitlabJobSettings(rest, where, file),
    };
  });
}

function mappingOfMappings(value: unknown, at: string, file: string): ConfigRecord {
  const map = record(value, at, file);
  for (const [key, item] of Object.entries(map)) record(item, `${at}.${key}`, file);
  return map;
}

function permissions(value: unknown, at: string, file: string): Record<string, string> {
  const map = record(value, at, file);
  const result: Record<string, string> = {};
  for (const [key, item] of Object.entries(map))
    result[key] = oneOf(item, `${at}.${key}`, file, ['read', 'write', 'none']);
  return result;
}
