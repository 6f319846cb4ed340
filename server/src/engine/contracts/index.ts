export { closestNames } from './closestNames';
export {
  ContractCache,
  type ContractInput,
  type ContractProblem,
  codeDirOf,
  type DeclaredOutput,
  type MockOutput,
  type OutputContracts,
  outputContracts,
  type ResolvedUse,
  sameInstance,
  type UseWriter,
} from './outputContracts';
export type { CarriedOutputs, ContractWorkspace, OutputUse, StateSource, StateVia } from './outputUses';
export { type UpstreamRead, upstreamReads } from './upstreamReads';
