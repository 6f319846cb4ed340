/** Runs: which modules to run, in what order, their run states derived from the recorded plans and applies, plan summaries. */
export {
  type GatedModule,
  type GateMode,
  gateDecision,
  type ModuleGate,
  type OutputsRead,
  outputGate,
  type PlannedOutputs,
} from './outputGate';
export {
  describeCounts,
  NO_CHANGES,
  type OutputChange,
  type PlanCounts,
  type PlanSummary,
  summarizePlanJson,
} from './planSummary';
export {
  backoffDelay,
  checkRunnable,
  type ExecutorOutcome,
  effectiveParallelism,
  type GateDecision,
  type ModuleRunResult,
  type ModuleRunStatus,
  ParallelismError,
  RunCycleError,
  type RunEvent,
  type RunOptions,
  type RunResult,
  runScheduled,
} from './runScheduler';
export { type RunSelection, selectModules, UnknownModuleError } from './runSelection';
export {
  type DecisionRecord,
  deriveRunState,
  formatAge,
  type LockOwner,
  type ModuleRecord,
  type ModuleRunState,
  type PlanRecord,
  type RunStateFile,
  stalePlanReason,
} from './runStateDerivation';
