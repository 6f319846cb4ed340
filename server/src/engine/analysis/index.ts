/** The analysis: scan, facts, matches and graph of one workspace, kept up to date as files change; the modules a Git change touches. */

export type { AnalysisResult, ModuleSummary } from './analysisResult';
export { analyzeDirectory, loadWorkspace } from './analyzeDirectory';
export {
  BrokenModulesError,
  brokenModules,
  type SkippedModule,
  skippedAsBroken,
  skippedCause,
  skippedList,
} from './brokenModules';
export { baseRefProblem, ChangedFilesError, changedFiles } from './changedFiles';
export {
  type ChangeReach,
  changeReach,
  modulesReading,
  REASONS_KEPT,
  type ReachedModule,
  type ReachOptions,
  type ReachReason,
} from './changeReach';
export { MAX_TYPED_CHARS, readSourceFile } from './sourceFile';
export { WorkspaceAnalysis } from './workspaceAnalysis';
