import { FILE_START } from '../hcl';
import { type EvaluatedModule, failureReason } from '../workspace';
import { workingReads } from './moduleFiles';
import type { NodeKind } from './nodeKind';

/**
 * A node whose evaluation threw: no backend and no reads of other states, and an error saying why on
 * its kind's file for it (its place in the order is not known: validate fails, pipelines refuse it).
 */
export function failedNode(id: string, kind: NodeKind, error: unknown): EvaluatedModule {
  const { dir, file } = kind.placeOf(id);
  return {
    id,
    dir,
    kind: kind.name,
    backend: undefined,
    references: [],
    dependencies: [],
    problems: [
      {
        file,
        range: FILE_START,
        message: `Terrace could not evaluate this module: ${failureReason(error)}`,
        error: 'not-evaluated',
      },
    ],
    // What else it reads is not known: its own folder's files, at least.
    reads: workingReads(dir),
  };
}
