/** Remote state: backend addresses, and the matching of each remote-state read to the module that writes that state. */
export { assumedValues, type Binding, describeAssumed, unify } from './addressTemplate';
export { type AddressInput, moduleIdFromKey, stateAddress, templateAddress } from './backendAddress';
export { withComponentEdges } from './componentEdges';
export { withDependencies } from './dependencyEdges';
export {
  type MatchedEdge,
  type MatchKind,
  type MatchResult,
  mergeMatches,
  type UnmatchedReference,
  unreadableNote,
  withUnreadableDirs,
} from './match';
export { ReferenceMatcher } from './referenceMatcher';
// The writers a whole read may fit: exported for its tests, which check it against trying every writer.
export { WriterCandidates, type WriterTemplate } from './writerCandidates';
export { writerAddresses } from './writerIndex';
