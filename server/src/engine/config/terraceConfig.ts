import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type AnalysisOptions, defaultOptions, ENGINES, type EnvironmentConfig } from './analysisOptions';
import { ConfigError, folders, oneOf, pattern, record, string, strings, unknownKey } from './configValues';
import { readGithub } from './githubConfig';
import { readGitlab } from './gitlabConfig';
import { defaultPipelineOptions, type PipelineOptions, readExecution, readGate, readValidate } from './pipelineConfig';
import { parseTerraciConfig, TERRACI_CONFIG_FILES } from './terraciConfig';
import { parseYaml } from './yamlText';

export { ConfigError };

/** The workspace's `.terrace.yaml`, read by the CLI and the server alike. */
export const CONFIG_FILE = '.terrace.yaml';

/** Everything a workspace's configuration file says: how to analyse it, how to run and ship it. */
export interface WorkspaceConfig {
  /** The file read: `.terrace.yaml`, or TerraCi's `.terraci.yaml` when there is no `.terrace.yaml`; undefined when neither exists. */
  file: string | undefined;
  analysis: AnalysisOptions;
  pipeline: PipelineOptions;
  /** Settings read but without effect in Terrace (TerraCi features), one line each. */
  warnings: string[];
}

/**
 * The configuration of a workspace: `base` (the defaults, or the editor's settings) overridden by
 * `.terrace.yaml`, or, when there is none, by TerraCi's `.terraci.yaml`, so that a TerraCi user
 * switches without rewriting anything. An invalid file is an error that names the key and what
 * was expected, never silently ignored.
 */
export async function loadWorkspaceConfig(
  root: string,
  base: AnalysisOptions = defaultOptions(),
): Promise<WorkspaceConfig> {
  for (const [name, parseText] of [
    [CONFIG_FILE, parseTerraceConfig],
    ...TERRACI_CONFIG_FILES.map((name) => [name, parseTerraciConfig] as const),
  ] as const) {
    const file = path.join(root, name);
    const text = await readConfigFile(file);
    if (text !== undefined) return { file, ...parseText(text, file, base) };
  }
  return { file: undefined, analysis: base, pipeline: defaultPipelineOptions(), warnings: [] };
}

/** The analysis options alone (see `loadWorkspaceConfig`). */
export async function loadAnalysisOptions(
  root: string,
  base: AnalysisOptions = defaultOptions(),
): Promise<AnalysisOptions> {
  return (await loadWorkspaceConfig(root, base)).analysis;
}

async function readConfigFile(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(file, error instanceof Error ? error.message : String(error));
  }
}

export function parseAnalysisOptions(
  text: string,
  file: string,
  base: AnalysisOptions = defaultOptions(),
): AnalysisOptions {
  return parseTerraceConfig(text, file, base).analysis;
}

const TOP_KEYS = [
  'engine',
  'discovery',
  'terraformWorkspace',
  'environments',
  'backendConfig',
  'execution',
  'gitlab',
  'github',
  'validate',
  'gate',
];

/** A `.terrace.yaml` text: its analysis options over `base`, and its pipeline options over the defaults. */
export function parseTerraceConfig(
  text: string,
  file: string,
  base: AnalysisOptions = defaultOptions(),
): Omit<WorkspaceConfig, 'file'> {
  const options: AnalysisOptions = {
    ...base,
    discovery: { ...base.discovery },
    environments: { ...base.environments },
  };
  const pipeline = defaultPipelineOptions();
  const top = record(parseYaml(text, file), '', file);
  for (const [key, value] of Object.entries(top)) {
    switch (key) {
      case 'engine':
        options.engine = oneOf(value, key, file, ENGINES);
        break;
      case 'discovery':
        readDiscovery(record(value, key, file), options, pipeline, file);
        break;
      case 'terraformWorkspace':
        options.terraformWorkspace = string(value, key, file);
        break;
      case 'environments':
        options.environments = readEnvironments(record(value, key, file), file);
        break;
      case 'backendConfig':
        options.backendConfig = Object.fromEntries(
          Object.entries(record(value, key, file)).map(([name, setting]) => [
            name,
            string(setting, `${key}.${name}`, file),
          ]),
        );
        break;
      case 'execution':
        readExecution(record(value, key, file), pipeline.execution, file);
        break;
      case 'gitlab':
        readGitlab(record(value, key, file), pipeline.gitlab, file);
        break;
      case 'github':
        readGithub(record(value, key, file), pipeline.github, file);
        break;
      case 'validate':
        readValidate(record(value, key, file), pipeline.validate, file);
        break;
      case 'gate':
        readGate(record(value, key, file), pipeline.gate, file);
        break;
      default:
        throw unknownKey(file, key, TOP_KEYS);
    }
  }
  return { analysis: options, pipeline, warnings: [] };
}

const ENVIRONMENT_KEYS = ['variables', 'varFiles', 'backendConfigFiles', 'workspace'];

function readEnvironments(section: Record<string, unknown>, file: string): Record<string, EnvironmentConfig> {
  const environments: Record<string, EnvironmentConfig> = {};
  for (const [name, value] of Object.entries(section)) {
    const environment: EnvironmentConfig = {
      variables: {},
      varFiles: undefined,
      backendConfigFiles: undefined,
      workspace: undefined,
    };
    for (const [key, setting] of Object.entries(record(value ?? {}, `environments.${name}`, file))) {
      const at = `environments.${name}.${key}`;
      switch (key) {
        case 'variables':
          environment.variables = record(setting, at, file);
          break;
        case 'varFiles':
        case 'backendConfigFiles':
          environment[key] = strings(setting, at, file);
          break;
        case 'workspace':
          environment.workspace = string(setting, at, file);
          break;
        default:
          throw unknownKey(file, at, ENVIRONMENT_KEYS);
      }
    }
    environments[name] = environment;
  }
  return environments;
}

const DISCOVERY_KEYS = ['mode', 'pattern', 'exclude', 'include', 'backendConfigFiles', 'libraryModules'];

function readDiscovery(
  section: Record<string, unknown>,
  options: AnalysisOptions,
  pipeline: PipelineOptions,
  file: string,
): void {
  const discovery = options.discovery;
  for (const [key, value] of Object.entries(section)) {
    const at = `discovery.${key}`;
    switch (key) {
      case 'mode':
        discovery.mode = oneOf(value, at, file, ['auto', 'pattern']);
        break;
      case 'pattern':
        discovery.pattern = pattern(string(value, at, file), at, file);
        break;
      case 'exclude':
      case 'include':
      case 'backendConfigFiles':
        discovery[key] = strings(value, at, file);
        break;
      case 'libraryModules':
        pipeline.libraryModules = folders(value, at, file);
        break;
      default:
        throw unknownKey(file, at, DISCOVERY_KEYS);
    }
  }
}
