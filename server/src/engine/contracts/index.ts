export { closestNames } from './closestNames';
export type { MockOutput } from './mockOutputs';
export {
  ContractCache,
  type ContractInput,
  codeDirOf,
  type DeclaredOutput,
  lastStep,
  type OutputContracts,
  outputContractSteps,
  outputContracts,
  type ResolvedUse,
  sameInstance,
  type UseWriter,
} from './outputContracts';
export type { ContractProblem } from './outputProblems';
export type { CarriedOutputs, ContractWorkspace, OutputUse } from './outputUses';
export type { StateSource, StateVia } from './referenceReach';
export { type UpstreamRead, upstreamReads } from './upstreamReads';
