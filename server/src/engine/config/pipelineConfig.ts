import { type Engine, type EnvironmentConfig, environmentVarFiles } from './analysisOptions';
import {
  boolean,
  type ConfigRecord,
  integer,
  nonEmptyString,
  oneOf,
  strings,
  unknownKey,
  variables,
} from './configValues';
import { defaultGithubOptions, type GithubOptions } from './githubConfig';
import { defaultGitlabOptions, type GitlabOptions, gitlabImage } from './gitlabConfig';

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
    gitlab: defaultGitlabOptions(),
    github: defaultGithubOptions(),
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
