/** What users see of an analysis: hovers, navigation, completion and rename of outputs, diagnostics, the graph as JSON and as text. */
export { addContractDiagnostics } from './contractDiagnostics';
export { type EngineDiagnostic, workspaceDiagnostics } from './diagnostics';
export { type GraphJson, graphJson, problemLine, relativeFile } from './graphJson';
export { cyclesOf, renderDot, renderLevels, renderMermaid, renderText } from './graphRender';
export { moduleHover, moduleLensTitle, referenceHover, runStateLine } from './hoverText';
export {
  componentSourceAt,
  moduleById,
  moduleContaining,
  moduleLocation,
  modulesPlacedIn,
  moduleWithBackendAt,
  referenceOutcomesAt,
} from './navigation';
export { type OutputCompletion, outputCompletions } from './outputCompletion';
export { outputBlockHover, outputsReadLine, outputUseHover } from './outputHover';
export { type OutputIndex, outputIndex } from './outputIndex';
export { type OutputLens, outputDefinitions, outputLenses, outputReferences } from './outputNavigation';
export { type NameEdit, outputRenameEdits, prepareOutputRename } from './outputRename';
export type { TextOf } from './outputValue';
export { reachExplanations, reachedText } from './reachText';
export { onceEach } from './repeatedReads';
