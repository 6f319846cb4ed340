/** Terragrunt: the facts of its configuration files, its functions, and each unit evaluated with what it includes. */
export {
  type DependencyBlock,
  isTerragruntFile,
  type TerragruntFile,
  terragruntFileFacts,
  UNIT_FILE,
} from './terragruntFile';
export {
  type EvaluatedUnit,
  evaluateUnit,
  type UnitBackend,
  type UnitDependency,
  type UnitSource,
  unitIncludes,
} from './unitEvaluation';
