/** The workspace: its folders scanned, modules discovered, the facts of each file, each module's evaluated backend and remote-state reads. */
export {
  type ClaimedFolders,
  type DiscoveredUnits,
  discoverRoots,
  discoverUnits,
  emptyPatternHint,
  includedBy,
  localSource,
  moduleSegments,
  NO_UNITS,
} from './discovery';
export {
  decideEngine,
  type Engine,
  engineFiles,
  isConfigurationFile,
  isTerraformFile,
  isTofuFile,
  isTofuLockFile,
} from './engine';
export {
  type Environment,
  environmentNames,
  environmentOfFile,
  resolveEnvironment,
  UnknownEnvironmentError,
} from './environments';
export type {
  ChildModules,
  ComponentFacts,
  EvaluatedModule,
  FileInput,
  ModuleProblem,
  Reference,
} from './evaluatedModule';
export { failureReason } from './evaluationFailure';
export { EMPTY_FACTS, type FileFacts, factsFromDocument, keepBody, type ModuleCall, mayHaveFacts } from './fileFacts';
export type { GeneratedOutput } from './generatedOutputs';
export { evaluateModule, referenceKey, referenceLabel } from './moduleEvaluation';
export { nestedBackendOwner } from './nestedBackendFiles';
export {
  type Binding,
  type OutputDecl,
  type OutputReference,
  type PathKey,
  type ReferenceRoot,
  type TryCall,
  type TryGuard,
  terragruntReferences,
} from './outputFacts';
export { isIgnoredByTerraform, isOverrideFile, withOverrides } from './overrideFiles';
export { neutralFilters, safeGit } from './safeGit';
export { shallowModule } from './shallowModule';
export {
  type ComponentCode,
  componentId,
  componentModule,
  componentSourceDir,
  discoverStackComponents,
  type StackComponentRef,
  type StackEmbedding,
  stackSourceFiles,
} from './stackComponents';
export { factsOfText, syntaxOnlyFacts } from './textFacts';
export { evaluateUnitModule } from './unitModule';
export {
  emptyDir,
  FilesystemRootError,
  fileRole,
  folderContains,
  readInFolder,
  type ScannedDir,
  type ScanProblem,
  scanWorkspace,
  varFileOrder,
} from './workspaceScan';
