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
export type { UnitBackend, UnitDependency } from './unitBlocks';
export type { TerragruntProblem, UnitSource } from './unitContext';
export { type EvaluatedUnit, evaluateUnit, unitIncludes } from './unitEvaluation';
