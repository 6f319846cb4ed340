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
export {
  defaultPipelineOptions,
  type ExecutionOptions,
  executionFor,
  type GateOptions,
  type GithubOptions,
  type GitlabJobKey,
  type GitlabJobSettings,
  type GitlabOptions,
  PIPELINE_SPLITS,
  type PipelineOptions,
  type PipelineSplit,
  type ValidateOptions,
} from './pipelineConfig';
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
