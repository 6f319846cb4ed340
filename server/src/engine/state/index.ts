/** Remote state: backend addresses, and the matching of each remote-state read to the module that writes that state. */
export { type AddressInput, moduleIdFromKey, stateAddress } from './backendAddress';
export {
  type MatchedEdge,
  type MatchResult,
  mergeMatches,
  ReferenceMatcher,
  type UnmatchedReference,
  writerAddresses,
} from './match';
