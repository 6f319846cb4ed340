import type { LanguageClient } from 'vscode-languageclient/node';
import {
  EdgeOutputsRequest,
  type GraphModel,
  GraphRequest,
  type PackedPanelModel,
  type PanelModel,
} from '../../server/src/protocol';
import { packGraph } from '../../webview/src/packedGraph';
import { onGraphChanged } from './graphChanges';
import { toPanelModel } from './panelModel';

/** A folder's graph as the server sent it, and as the panel draws it. */
export interface PanelGraph {
  graph: GraphModel;
  panel: PanelModel;
  /** The panel's graph as the page gets it (`packedGraph.ts`): made with the fetch, ahead of a panel's. */
  packed: PackedPanelModel;
  /**
   * The outputs read along the edges, asked of the server with the graph and answered once the contracts
   * between states are known, after it: then in `panel` and `packed` too. Undefined if the server had none.
   */
  outputs: Promise<string[][] | undefined>;
  /** Whether `panel` and `packed` have the edges' outputs yet. */
  hasOutputs: boolean;
  /** When it was asked of the server, and when its answer was in (the graph panel's timings). */
  askedAt: number;
  answeredAt: number;
}

/**
 * The folders' graphs fetched for the panel, each kept until the server says it changed: the graph
 * fetched to lay a first panel out ahead (`panelAhead.ts`) is the one Show Graph draws, without asking
 * the server again (at 300 units, 0.1–1 s of a window still starting). One per language client.
 */
class PanelGraphs {
  private readonly fetched = new Map<
    string,
    { graph: Promise<PanelGraph | undefined>; of: string | undefined; answer?: PanelGraph }
  >();
  /** The version and run states the server last said each folder's graph has. */
  private readonly said = new Map<string, string>();

  constructor(private readonly client: LanguageClient) {
    onGraphChanged(client)(({ folderUri, version, states }) => {
      const now = `${version}:${states}`;
      this.said.set(folderUri, now);
      // The server says so again after a run's states were looked at, or another folder changed: the same graph.
      if (this.fetched.get(folderUri)?.of !== now) this.fetched.delete(folderUri);
    });
  }

  /** The folder's graph if it was fetched since its last change and has come: one a new panel can start with. */
  fetchedNow(folderUri: string): PanelGraph | undefined {
    return this.fetched.get(folderUri)?.answer;
  }

  /** The folder's graph, fetched now or since its last change; undefined when the server has none. */
  get(folderUri: string): Promise<PanelGraph | undefined> {
    const kept = this.fetched.get(folderUri);
    if (kept) return kept.graph;
    const of = this.said.get(folderUri);
    const askedAt = Date.now();
    const graph = this.client.sendRequest(GraphRequest.type, { folderUri }).then(
      (model) => {
        if (!model) return undefined;
        const outputs = this.client.sendRequest(EdgeOutputsRequest.type, { folderUri, version: model.version });
        const answer = new FetchedGraph(model, toPanelModel(model), outputs, askedAt, Date.now());
        // Its failure is the panel's to report (`GraphPanel`), if one is open to show them.
        answer.outputs.catch(() => undefined);
        const kept = this.fetched.get(folderUri);
        if (kept?.graph === graph) kept.answer = answer;
        return answer;
      },
      (error: unknown) => {
        if (this.fetched.get(folderUri)?.graph === graph) this.fetched.delete(folderUri);
        throw error;
      },
    );
    this.fetched.set(folderUri, { graph, of });
    return graph;
  }
}

/** A folder's graph as fetched; the outputs along its edges put in its panel's model when they come. */
class FetchedGraph implements PanelGraph {
  readonly outputs: Promise<string[][] | undefined>;
  hasOutputs = false;
  private packedNow: PackedPanelModel | undefined;

  constructor(
    readonly graph: GraphModel,
    readonly panel: PanelModel,
    outputs: Promise<string[][] | null>,
    readonly askedAt: number,
    readonly answeredAt: number,
  ) {
    this.packedNow = packGraph(panel);
    this.outputs = outputs.then((list) => this.withOutputs(list));
  }

  /** Packed again with the edges' outputs only when a later panel asks: they come while a panel opens. */
  get packed(): PackedPanelModel {
    this.packedNow ??= packGraph(this.panel);
    return this.packedNow;
  }

  private withOutputs(outputs: string[][] | null): string[][] | undefined {
    if (!outputs || outputs.length !== this.panel.edges.length) return undefined;
    this.panel.edges.forEach((edge, at) => {
      edge.outputs = outputs[at]!;
    });
    this.packedNow = undefined;
    this.hasOutputs = true;
    return outputs;
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
