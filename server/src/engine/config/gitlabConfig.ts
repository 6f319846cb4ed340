import {
  boolean,
  ConfigError,
  type ConfigRecord,
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
import { type PipelineSplit, readTargetKey } from './pipelineTarget';

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

/** The `gitlab` section of `.terrace.yaml`: the generated GitLab pipeline. */
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

export function defaultGitlabOptions(): GitlabOptions {
  return {
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
    if (readTargetKey(options, key, value, at, file)) continue;
    switch (key) {
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

function stagePrefix(value: unknown, at: string, file: string): string {
  const text = string(value, at, file);
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(text))
    throw new ConfigError(file, `${at} must be letters, digits, '.', '_' or '-', like deploy; got '${text}'`);
  return text;
}

export function gitlabImage(value: unknown, at: string, file: string): string | ConfigRecord {
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
