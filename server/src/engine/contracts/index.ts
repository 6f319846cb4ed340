export { closestNames } from './closestNames';
export type { ContractWorkspace } from './contractWorkspace';
export type { DeclaredOutput } from './declaredOutput';
export type { MockOutput } from './mockOutputs';
export {
  ContractCache,
  type ContractInput,
  codeDirOf,
  lastStep,
  type OutputContracts,
  outputContractSteps,
  outputContracts,
  sameInstance,
} from './outputContracts';
export type { ContractProblem } from './outputProblems';
export type { CarriedOutputs, OutputUse } from './outputUses';
export type { StateSource, StateVia } from './referenceReach';
export type { ResolvedUse, UseWriter } from './resolvedUse';
export { type UpstreamRead, upstreamReads } from './upstreamReads';
