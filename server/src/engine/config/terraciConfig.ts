import { type AnalysisOptions, defaultOptions } from './analysisOptions';
import {
  boolean,
  ConfigError,
  type ConfigRecord,
  folders,
  integer,
  oneOf,
  pattern,
  record,
  records,
  string,
  stringOrStrings,
  strings,
  unknownKey,
  variables,
} from './configValues';
import { type GitlabOverwrite, gitlabJobSettings } from './gitlabConfig';
import { defaultPipelineOptions, type PipelineOptions } from './pipelineConfig';
import { parseYaml } from './yamlText';

/** TerraCi's configuration files, read when a workspace has no `.terrace.yaml`. */
export const TERRACI_CONFIG_FILES = ['.terraci.yaml', '.terraci.yml'];

/**
 * A `.terraci.yaml` (TerraCi's format, snake_case) as Terrace options: `structure.pattern`
 * (TerraCi finds modules at the pattern's depth: pattern discovery), `exclude`, `include`,
 * `library_modules.paths`, `execution`, and the `gitlab` and `github` sections. Keys of TerraCi
 * features Terrace does not have (merge-request comments, cost, policy, …) are accepted and
 * reported in `warnings`; unknown keys and wrong values are errors naming the key.
 */
export function parseTerraciConfig(
  text: string,
  file: string,
  base: AnalysisOptions = defaultOptions(),
): { analysis: AnalysisOptions; pipeline: PipelineOptions; warnings: string[] } {
  const analysis: AnalysisOptions = { ...base, discovery: { ...base.discovery, mode: 'pattern', patternFrom: file } };
  const pipeline = defaultPipelineOptions();
  const warnings: string[] = [];
  const ignored = (at: string, what: string) => warnings.push(`${file}: ${at}: ${what}; Terrace ignores it`);
  const top = record(parseYaml(text, file), '', file);
  for (const [key, value] of Object.entries(top)) {
    switch (key) {
      case 'structure':
        readStructure(record(value, key, file), analysis, file, ignored);
        break;
      case 'exclude':
      case 'include':
        analysis.discovery[key] = strings(value, key, file);
        break;
      case 'library_modules': {
        const section = record(value, key, file);
        for (const [name, item] of Object.entries(section)) {
          if (name === 'paths') pipeline.libraryModules = folders(item, `${key}.paths`, file);
          else throw unknownKey(file, `${key}.${name}`, ['paths']);
        }
        break;
      }
      case 'execution':
        readExecution(record(value, key, file), pipeline, file, ignored);
        break;
      case 'gitlab':
        readGitlab(record(value, key, file), pipeline, file, ignored);
        break;
      case 'github':
        readGithub(record(value, key, file), pipeline, file, ignored);
        break;
      case 'backend':
        // TerraCi needs the backend to find state paths; Terrace reads every module's own backend block.
        record(value, key, file);
        break;
      default:
        if (TERRACI_ONLY_SECTIONS.includes(key)) ignored(key, 'a TerraCi feature');
        else throw unknownKey(file, key, [...TOP_KEYS, ...TERRACI_ONLY_SECTIONS]);
    }
  }
  return { analysis, pipeline, warnings };
}

const TOP_KEYS = ['structure', 'exclude', 'include', 'library_modules', 'execution', 'gitlab', 'github', 'backend'];
/** TerraCi sections for features outside Terrace's scope. */
const TERRACI_ONLY_SECTIONS = ['plugins', 'policy', 'cost', 'summary', 'update', 'tfupdate', 'localexec', 'inframap'];

type Ignored = (at: string, what: string) => void;

function readStructure(section: ConfigRecord, analysis: AnalysisOptions, file: string, ignored: Ignored): void {
  for (const [key, value] of Object.entries(section)) {
    const at = `structure.${key}`;
    switch (key) {
      case 'pattern':
        analysis.discovery.pattern = pattern(string(value, at, file), at, file);
        break;
      case 'min_depth':
      case 'max_depth':
      case 'depth':
        integer(value, at, file, 0);
        ignored(at, 'the depth follows from the pattern (and one level deeper for submodules)');
        break;
      case 'allow_submodules':
        boolean(value, at, file);
        break;
      default:
        throw unknownKey(file, at, ['pattern', 'min_depth', 'max_depth', 'allow_submodules']);
    }
  }
}

function readExecution(section: ConfigRecord, pipeline: PipelineOptions, file: string, ignored: Ignored): void {
  for (const [key, value] of Object.entries(section)) {
    const at = `execution.${key}`;
    switch (key) {
      case 'binary':
        pipeline.execution.binary = oneOf(value, at, file, ['terraform', 'tofu']);
        pipeline.execution.binaryChosen = true;
        break;
      case 'parallelism':
        pipeline.execution.parallelism = integer(value, at, file, 0);
        break;
      default:
        ignored(at, 'a TerraCi setting');
    }
  }
}

const GITLAB_KEYS = [
  'terraform_binary',
  'image',
  'stages_prefix',
  'parallelism',
  'variables',
  'plan_enabled',
  'plan_only',
  'auto_approve',
  'cache_enabled',
  'cache',
  'init_enabled',
  'rules',
  'job_defaults',
  'overwrites',
  'mr',
];

function readGitlab(section: ConfigRecord, pipeline: PipelineOptions, file: string, ignored: Ignored): void {
  const gitlab = pipeline.gitlab;
  for (const [key, value] of Object.entries(section)) {
    const at = `gitlab.${key}`;
    switch (key) {
      case 'terraform_binary':
        pipeline.execution.binary = oneOf(value, at, file, ['terraform', 'tofu']);
        pipeline.execution.binaryChosen = true;
        break;
      case 'image': {
        const settings = gitlabJobSettings({ image: value }, 'gitlab', file);
        gitlab.image = settings.image as string | ConfigRecord;
        break;
      }
      case 'stages_prefix':
        gitlab.stagePrefix = string(value, at, file);
        break;
      case 'parallelism':
        pipeline.execution.parallelism = integer(value, at, file, 0);
        break;
      case 'variables':
        gitlab.variables = variables(value, at, file);
        break;
      case 'plan_enabled':
        if (!boolean(value, at, file)) ignored(at, 'false (applies without a plan job)');
        break;
      case 'plan_only':
        gitlab.planOnly = boolean(value, at, file);
        break;
      case 'auto_approve':
        gitlab.autoApprove = boolean(value, at, file);
        break;
      case 'cache_enabled':
        gitlab.cache = boolean(value, at, file);
        break;
      case 'cache': {
        const cache = record(value, at, file);
        for (const [name, item] of Object.entries(cache)) {
          if (name === 'enabled') gitlab.cache = boolean(item, `${at}.enabled`, file);
          else if (['key', 'paths', 'policy'].includes(name)) ignored(`${at}.${name}`, 'a cache template');
          else throw unknownKey(file, `${at}.${name}`, ['enabled', 'key', 'paths', 'policy']);
        }
        break;
      }
      case 'init_enabled':
        if (!boolean(value, at, file)) ignored(at, 'false (every job runs init)');
        break;
      case 'rules':
        gitlab.rules = records(value, at, file);
        break;
      case 'job_defaults':
        gitlab.jobDefaults = gitlabJobSettings(value, at, file);
        break;
      case 'overwrites':
        gitlab.overwrites = records(value, at, file).map((item, index): GitlabOverwrite => {
          const where = `${at}[${index}]`;
          const { type, ...rest } = item;
          if (type === undefined) throw new ConfigError(file, `${where}.type is required: 'plan' or 'apply'`);
          return {
            type: oneOf(type, `${where}.type`, file, ['plan', 'apply']),
            settings: gitlabJobSettings(rest, where, file),
          };
        });
        break;
      case 'mr':
        record(value, at, file);
        ignored(at, 'merge-request integration');
        break;
      default:
        throw unknownKey(file, at, GITLAB_KEYS);
    }
  }
}

const GITHUB_KEYS = ['runs_on', 'container', 'env', 'plan_only', 'permissions', 'job_defaults', 'overwrites'];
const GITHUB_JOB_KEYS = ['runs_on', 'container', 'env', 'if', 'environment', 'steps_before', 'steps_after'];

function readGithub(section: ConfigRecord, pipeline: PipelineOptions, file: string, ignored: Ignored): void {
  const github = pipeline.github;
  for (const [key, value] of Object.entries(section)) {
    const at = `github.${key}`;
    switch (key) {
      case 'runs_on':
        github.runsOn = stringOrStrings(value, at, file);
        break;
      case 'env':
        github.env = variables(value, at, file);
        break;
      case 'plan_only':
        github.planOnly = boolean(value, at, file);
        break;
      case 'permissions': {
        const map = record(value, at, file);
        github.permissions = {};
        for (const [name, item] of Object.entries(map))
          github.permissions[name] = oneOf(item, `${at}.${name}`, file, ['read', 'write', 'none']);
        break;
      }
      case 'job_defaults': {
        const defaults = record(value, at, file);
        for (const [name, item] of Object.entries(defaults)) {
          const where = `${at}.${name}`;
          if (name === 'runs_on') github.runsOn = stringOrStrings(item, where, file);
          else if (name === 'env') github.env = { ...github.env, ...variables(item, where, file) };
          else if (name === 'environment') github.environment = string(item, where, file);
          else if (name === 'steps_before') github.setupSteps = records(item, where, file);
          else if (GITHUB_JOB_KEYS.includes(name)) ignored(where, 'a job setting');
          else throw unknownKey(file, where, GITHUB_JOB_KEYS);
        }
        break;
      }
      case 'container':
      case 'overwrites':
        ignored(at, 'a job setting');
        break;
      default:
        throw unknownKey(file, at, GITHUB_KEYS);
    }
  }
}
