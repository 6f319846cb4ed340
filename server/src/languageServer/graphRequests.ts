import { packGraph } from '../../../webview/src/packedGraph';
import type { GraphModel, PackedPanelModel } from '../protocol';
import { toGraphModel } from './graphModel';
import { toPanelModel } from './panelModel';
import type { RunStateCache } from './runStateCache';
import type { FolderState } from './workspaceFolders';

/** `terrace/graph`: the folder's graph model, its modules with their run states. */
export async function graphModelFor(folder: FolderState, runStates: RunStateCache): Promise<GraphModel> {
  await folder.ready;
  const model = toGraphModel(folder.analysis.result(), folder.version);
  const states = await runStates.forFolder(folder);
  if (states) for (const module of model.modules) module.runState = states.get(module.id);
  return model;
}

/**
 * `terrace/panelGraph`: the graph as the panel's page draws it, made from the analysis and packed here rather
 * than in the extension host. At 3,000 units the whole model is 6 MB of JSON, which the host once had to read
 * before it could make the page's graph: 0.2-0.3 s of Show Graph in a window still busy with its first problems.
 */
export async function panelGraphFor(folder: FolderState, runStates: RunStateCache): Promise<PackedPanelModel> {
  await folder.ready;
  const version = folder.version;
  const result = folder.analysis.result();
  return packGraph(toPanelModel(result, version, await runStates.forFolder(folder)));
}
