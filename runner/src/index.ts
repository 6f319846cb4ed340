/** Running terraform, for Run Plans in the extension host and for `terrace plan` in the CLI: processes, locks, logs, the .terrace/ files, run states. */
export { moduleFingerprint } from './moduleFingerprint';
export { acquireModuleLock } from './moduleLock';
export { moduleRunStates } from './moduleRunStates';
export { gatedTargets } from './planGate';
export { LOG_FILE, moduleRunDir } from './runLayout';
export { applyCandidates, resolveRunBinaries, runModules, terraformEnv } from './runModules';
export { formatDuration, idColor, orderByDependencies, RunPrinter, resultText, summaryRowModule } from './runReport';
export type { ModuleOutcome, RunKind, RunReport, RunRequest, RunSettings, RunTarget } from './runRequest';
export { runTargets } from './runTargets';
export { hasRunState, readRunState, updateModuleRecord } from './stateFile';
export { outputChanges, outputHashes } from './stateOutputs';
export { isPath, locateBinary, resolveTerraformBinary, TerraformNotFoundError } from './terraformBinary';
export { killAllProcessGroups } from './terraformProcess';
