/** Terragrunt: the facts of its configuration files, its functions, and each unit evaluated with what it includes. */

export { expandStack, type StackExpansion, type StackUnit, withGeneratedUnits } from './stackExpansion';
export {
  type DependencyBlock,
  isTerragruntFile,
  STACK_FILE,
  type TerragruntFile,
  terragruntFileFacts,
  UNIT_FILE,
} from './terragruntFile';
export {
  type EvaluatedUnit,
  evaluateUnit,
  type TerragruntProblem,
  type UnitBackend,
  type UnitDependency,
  type UnitSource,
  unitIncludes,
} from './unitEvaluation';
