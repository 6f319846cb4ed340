import type { MatchKind } from '../state';
import type { DeclaredOutput } from './declaredOutput';
import type { OutputUse } from './outputUses';

/** The node a use reads, how sure the edge is, and whether its code declares the output. */
export interface UseWriter {
  id: string;
  match: MatchKind;
  /** Undefined when the writer's code is not in the repository (a remote source): not checked. */
  declared: DeclaredOutput | undefined | null;
}

export interface ResolvedUse extends OutputUse {
  /** The writers the use's block reads (several for a `for_each` read or an ambiguous edge). */
  writers: UseWriter[];
}
