import {
  boolean,
  type ConfigRecord,
  nonEmptyString,
  oneOf,
  record,
  records,
  stringOrStrings,
  unknownKey,
  variables,
} from './configValues';
import { type PipelineSplit, readTargetKey } from './pipelineTarget';

/** The `github` section of `.terrace.yaml`: the generated GitHub Actions workflow. */
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

export function defaultGithubOptions(): GithubOptions {
  return {
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
  };
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
    if (readTargetKey(options, key, value, at, file)) continue;
    switch (key) {
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

function permissions(value: unknown, at: string, file: string): Record<string, string> {
  const map = record(value, at, file);
  const result: Record<string, string> = {};
  for (const [key, item] of Object.entries(map))
    result[key] = oneOf(item, `${at}.${key}`, file, ['read', 'write', 'none']);
  return result;
}
