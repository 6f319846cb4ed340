import { contractsInTurn } from './contractsInTurn';
import { toEdgeOutputs } from './graphModel';
import type { FolderState } from './workspaceFolders';

/**
 * `terrace/edgeOutputs`: the outputs read along the edges of the folder's graph at `version`, once its
 * contracts are worked out (between other requests); null when the graph has changed since.
 */
export async function edgeOutputsFor(folder: FolderState, version: number): Promise<string[][] | null> {
  await folder.ready;
  if (folder.version !== version) return null;
  const contracts = await contractsInTurn(folder.analysis);
  if (folder.version !== version) return null;
  return toEdgeOutputs(folder.analysis.result(), contracts);
}
