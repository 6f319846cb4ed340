import type { LanguageClient } from 'vscode-languageclient/node';
import {
  EdgeOutputsRequest,
  type PackedPanelModel,
  PanelGraphRequest,
  type PanelModel,
} from '../../server/src/protocol';
import { unpackGraph } from '../../webview/src/packedGraph';
import { folderKey } from './folderKey';
import { onGraphChanged } from './graphChanges';

/** A folder's graph as the panel draws it, as the server sent it. */
export interface PanelGraph {
  /** As the page gets it (`packedGraph.ts`), packed by the server. */
  readonly packed: PackedPanelModel;
  /** Unpacked, as the page draws it (`GraphPanel.currentGraph`): made when first asked for. */
  readonly panel: PanelModel;
  readonly version: number;
  /**
   * The outputs read along the edges, asked of the server with the graph and answered once the contracts
   * between states are known, after it. Undefined if the server had none.
   */
  readonly outputs: Promise<string[][] | undefined>;
  /** When it was asked of the server, and when its answer was in (the graph panel's timings). */
  readonly askedAt: number;
  readonly answeredAt: number;
}

/**
 * The folders' graphs fetched for the panel, each kept until the server says it changed: the graph
 * fetched to lay a first panel out ahead (`panelAhead.ts`) is the one Show Graph draws, without asking
 * the server again (at 300 units, 0.1–1 s of a window still starting). One per language client.
 */
class PanelGraphs {
  /** By folder (`folderKey`). */
  private readonly fetched = new Map<
    string,
    { graph: Promise<PanelGraph | undefined>; of: string | undefined; answer?: PanelGraph }
  >();
  /** The version and run states the server last said each folder's graph has. */
  private readonly said = new Map<string, string>();

  constructor(private readonly client: LanguageClient) {
    onGraphChanged(client)(({ folderUri, version, states }) => {
      const key = folderKey(folderUri);
      const now = `${version}:${states}`;
      this.said.set(key, now);
      // The server says so again after a run's states were looked at, or another folder changed: the same graph.
      if (this.fetched.get(key)?.of !== now) this.fetched.delete(key);
    });
  }

  /** The folder's graph if it was fetched since its last change and has come: one a new panel can start with. */
  fetchedNow(folderUri: string): PanelGraph | undefined {
    return this.fetched.get(folderKey(folderUri))?.answer;
  }

  /** The folder's graph, fetched now or since its last change; undefined when the server has none. */
  get(folderUri: string): Promise<PanelGraph | undefined> {
    const key = folderKey(folderUri);
    const kept = this.fetched.get(key);
    if (kept) return kept.graph;
    const of = this.said.get(key);
    const askedAt = Date.now();
    const graph = this.client.sendRequest(PanelGraphRequest.type, { folderUri }).then(
      (packed) => {
        if (!packed) return undefined;
        const outputs = this.client.sendRequest(EdgeOutputsRequest.type, { folderUri, version: packed.version });
        const answer = new FetchedGraph(packed, outputs, askedAt, Date.now());
        // Its failure is the panel's to report (`GraphPanel`), if one is open to show them.
        answer.outputs.catch(() => undefined);
        const kept = this.fetched.get(key);
        if (kept?.graph === graph) kept.answer = answer;
        return answer;
      },
      (error: unknown) => {
        if (this.fetched.get(key)?.graph === graph) this.fetched.delete(key);
        throw error;
      },
    );
    this.fetched.set(key, { graph, of });
    return graph;
  }
}

/** A folder's graph as the server packed it; unpacked when first asked for. */
class FetchedGraph implements PanelGraph {
  readonly outputs: Promise<string[][] | undefined>;
  private unpacked: PanelModel | undefined;

  constructor(
    readonly packed: PackedPanelModel,
    outputs: Promise<string[][] | null>,
    readonly askedAt: number,
    readonly answeredAt: number,
  ) {
    this.outputs = outputs.then((list) => (list && list.length === packed.edges.count ? list : undefined));
  }

  get version(): number {
    return this.packed.version;
  }

  get panel(): PanelModel {
    this.unpacked ??= unpackGraph(this.packed);
    return this.unpacked;
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
