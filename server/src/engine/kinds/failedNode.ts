import { FILE_START } from '../hcl';
import type { EvaluatedModule } from '../workspace';
import { workingReads } from './moduleFiles';
import type { NodeKind } from './nodeKind';

/** A node whose evaluation threw: no backend and no reads of other states, one problem saying why, on its kind's file for it. */
export function failedNode(id: string, kind: NodeKind, error: unknown): EvaluatedModule {
  const { dir, file } = kind.placeOf(id);
  const why =
    error instanceof RangeError ? `${error.message} (nesting or sizes past what Terrace reads)` : String(error);
  return {
    id,
    dir,
    kind: kind.name,
    backend: undefined,
    references: [],
    dependencies: [],
    problems: [{ file, range: FILE_START, message: `Terrace could not evaluate this module: ${why}` }],
    // What else it reads is not known: its own folder's files, at least.
    reads: workingReads(dir),
  };
}
