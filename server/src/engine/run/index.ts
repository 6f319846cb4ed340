/** Runs: which modules to run, in what order, their run states derived from the recorded plans and applies, plan summaries. */
export { describeCounts, type PlanCounts, summarizePlanJson } from './planSummary';
export {
  backoffDelay,
  checkRunnable,
  type ExecutorOutcome,
  effectiveParallelism,
  type ModuleRunResult,
  ParallelismError,
  RunCycleError,
  type RunEvent,
  type RunResult,
  runScheduled,
} from './runScheduler';
export { type RunSelection, selectModules, UnknownModuleError } from './runSelection';
export {
  deriveRunState,
  formatAge,
  type LockOwner,
  type ModuleRecord,
  type ModuleRunState,
  type PlanRecord,
  type RunStateFile,
  stalePlanReason,
} from './runStateDerivation';
