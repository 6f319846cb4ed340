/** The settings: .terrace.yaml, terraci's config, the analysis and pipeline options with their defaults. */
export {
  type AnalysisOptions,
  type DiscoveryOptions,
  defaultOptions,
  type Engine,
  type EnvironmentConfig,
  environmentVarFiles,
} from './analysisOptions';
export type { ConfigRecord } from './configValues';
export type { GithubOptions } from './githubConfig';
export type { GitlabJobKey, GitlabJobSettings, GitlabOptions } from './gitlabConfig';
export {
  defaultPipelineOptions,
  type ExecutionOptions,
  executionFor,
  type GateOptions,
  type PipelineOptions,
  type ValidateOptions,
} from './pipelineConfig';
export { PIPELINE_SPLITS, type PipelineSplit } from './pipelineTarget';
export {
  CONFIG_FILE,
  ConfigError,
  loadAnalysisOptions,
  loadWorkspaceConfig,
  parseAnalysisOptions,
  parseTerraceConfig,
  type WorkspaceConfig,
} from './terraceConfig';
export { parseTerraciConfig, TERRACI_CONFIG_FILES } from './terraciConfig';
