/** CI pipelines: the plan of jobs by level, written as GitLab CI or GitHub Actions YAML. */
export { CI_SYSTEMS, type CiSystem } from './ciSystem';
export {
  type GateChainSpec,
  type GateRead,
  type GateRecord,
  type GateSpec,
  GITHUB_RECORDS_FILE,
  gateReadText,
  gateRecordFile,
  gateSpecs,
  type PipelineGate,
  parseGateRead,
  pipelineGate,
} from './gateSpec';
export { githubWorkflow } from './githubWorkflow';
export { gitlabPipeline } from './gitlabPipeline';
export { jobCommands } from './jobCommands';
export {
  cyclesLeftAloneWarning,
  existingPipelineFile,
  generatePipeline,
  isGeneratedByTerrace,
  type PipelineRequest,
  SPLIT_PLANS_EVERY_DEPENDENT,
} from './pipeline';
export {
  type CiFile,
  jobSlugs,
  PipelineCycleError,
  type PipelinePlan,
  PipelineTooBigError,
  planPipeline,
  selectionCycles,
} from './pipelinePlan';
export { yamlAnchored, yamlConstant, yamlFlow, yamlText } from './pipelineYaml';
export { GITLAB_MAX_NEEDS, limitWarnings } from './platformLimits';
