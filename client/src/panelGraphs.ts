import type { LanguageClient } from 'vscode-languageclient/node';
import { type GraphModel, GraphRequest, type PanelModel } from '../../server/src/protocol';
import { onGraphChanged } from './graphChanges';
import { toPanelModel } from './panelModel';

/** A folder's graph as the server sent it, and as the panel draws it. */
export interface PanelGraph {
  graph: GraphModel;
  panel: PanelModel;
}

/**
 * The folders' graphs fetched for the panel, each kept until the server says it changed: the graph
 * fetched to lay a first panel out ahead (`panelAhead.ts`) is the one Show Graph draws, without asking
 * the server again (at 300 units, 0.1–1 s of a window still starting). One per language client.
 */
class PanelGraphs {
  private readonly fetched = new Map<string, Promise<PanelGraph | undefined>>();
  /** Changes seen per folder: a graph asked for before the last change is not kept. */
  private readonly changes = new Map<string, number>();

  constructor(private readonly client: LanguageClient) {
    onGraphChanged(client)(({ folderUri }) => {
      this.fetched.delete(folderUri);
      this.changes.set(folderUri, (this.changes.get(folderUri) ?? 0) + 1);
    });
  }

  /** The folder's graph, fetched now or since its last change; undefined when the server has none. */
  get(folderUri: string): Promise<PanelGraph | undefined> {
    const kept = this.fetched.get(folderUri);
    if (kept) return kept;
    const asked = this.changes.get(folderUri) ?? 0;
    const fetching = this.client.sendRequest(GraphRequest.type, { folderUri }).then(
      (graph) => (graph ? { graph, panel: toPanelModel(graph) } : undefined),
      (error: unknown) => {
        if ((this.changes.get(folderUri) ?? 0) === asked) this.fetched.delete(folderUri);
        throw error;
      },
    );
    this.fetched.set(folderUri, fetching);
    return fetching;
  }
}

const graphs = new WeakMap<LanguageClient, PanelGraphs>();

/** The client's panel graphs (`PanelGraphs`). */
export function panelGraphs(client: LanguageClient): PanelGraphs {
  let kept = graphs.get(client);
  if (!kept) {
    kept = new PanelGraphs(client);
    graphs.set(client, kept);
  }
  return kept;
}
