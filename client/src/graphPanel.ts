import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  type GraphMessage,
  type PanelCommand,
  type PanelDetails,
  PanelDetailsRequest,
  type PanelModel,
  type PanelToWebview,
  type WebviewToPanel,
} from '../../server/src/protocol';
import type { LayoutInput } from '../../webview/src/layoutGraph';
import { packOutputs } from '../../webview/src/packedGraph';
import { sameFolder } from './folderKey';
import { chooseFolder } from './folderPick';
import { onGraphChanged } from './graphChanges';
import { saveExport } from './graphExport';
import { getWebviewOptions, graphPanelPage } from './graphPanelPage';
import type { LayoutService } from './layoutService';
import type { PanelPlacement } from './openingViews';
import { PanelAffected } from './panelAffected';
import type { PanelAreas } from './panelAreas';
import { type PanelGraph, panelGraphs } from './panelGraphs';
import { PanelOpening } from './panelOpening';
import { openModule, openRead } from './panelOpens';
import { panelPlacement } from './panelPlacement';
import { PanelReports } from './panelReports';

/** What the panel needs from the running extension. */
export interface GraphPanelContext {
  readonly client: LanguageClient;
  readonly output: vscode.LogOutputChannel;
  readonly extensionUri: vscode.Uri;
  readonly layouts: LayoutService;
  /** The drawing areas of the last panels, for the layouts made ahead of the next. */
  readonly areas: PanelAreas;
}

/**
 * The graph panel (`Terrace: Show Graph`): one webview panel at a time, showing one workspace folder's
 * graph, redrawn when the server says the graph changed. The webview draws; this side fetches the
 * graph, opens modules and writes exported files.
 */
export class GraphPanel {
  static readonly viewType = 'terrace.graph';
  static currentPanel: GraphPanel | undefined;

  /** What its webview reports it has shown (its drawings): read by the panel's timings and the extension's tests. */
  readonly reports = new PanelReports();
  private readonly disposables: vscode.Disposable[] = [];
  /** The graph last sent to the page. */
  private shown: PanelGraph | undefined;
  /** When the panel was made, its webview last said it was ready, and the graph was last sent: where its time goes. */
  readonly times: {
    created: number;
    ready?: number;
    pageMs?: number;
    /** When the page's navigation began (the page's clock, the machine's). */
    pageAt?: number;
    graphSent?: number;
    /** Whether the first graph came in the page's HTML (fetched before the panel), not in a message. */
    graphInPage?: boolean;
    /** The graph sent last: when it was asked of the server (maybe before the panel), and answered. */
    graphAsked?: number;
    graphAnswered?: number;
    /** The last layout the webview asked for: its request here, and its answer made (the layout thread's wait and work). */
    layoutAsked?: number;
    layoutMade?: number;
    /** Whether that layout was made ahead of the request, while the page loaded (`openingViews.ts`). */
    layoutAhead?: boolean;
  } = { created: Date.now() };
  private pendingFocus: string | undefined;
  private readonly affected: PanelAffected;
  /** The layouts its page opens with, and the view it opened with (`panelOpening.ts`). */
  private readonly opening: PanelOpening;
  /** Closed: a graph or layout that comes after is dropped (its webview is gone). */
  private disposed = false;
  /**
   * The first page's graph, posted as soon as the server answers, while the page still loads: VS Code
   * holds a new webview's messages until its page has loaded, so the page starts with its graph
   * instead of asking for it (a round trip through VS Code at a fresh window, 30–60 ms). Undefined
   * once that page said it was ready: a page loaded again (revealed, restored) is sent its graph then.
   */
  private firstGraph: Promise<boolean> | undefined;
  /** Each graph sent is numbered: one asked for later is never replaced by an earlier answer. */
  private graphsAsked = 0;

  /** Shows the panel (creating it beside the editor), on `folderUri` or the folder the user works in. */
  static async createOrShow(
    ctx: GraphPanelContext,
    folderUri?: string,
    focus?: string,
  ): Promise<GraphPanel | undefined> {
    // The layout thread starts (if it has not) while the webview loads.
    startLayouts(ctx);
    const folder = folderUri ?? (await chooseFolder('Show the graph of which folder?'));
    if (!folder) {
      void vscode.window.showInformationMessage('Terrace: open a folder with Terraform modules to see its graph.');
      return undefined;
    }
    const existing = GraphPanel.currentPanel;
    if (existing) {
      existing.panel.reveal(existing.panel.viewColumn ?? vscode.ViewColumn.Beside);
      existing.show(folder, focus);
      return existing;
    }
    const placement = panelPlacement(GraphPanel.viewType);
    const panel = vscode.window.createWebviewPanel(
      GraphPanel.viewType,
      'Terrace Graph',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      getWebviewOptions(ctx.extensionUri),
    );
    GraphPanel.currentPanel = new GraphPanel(panel, ctx, folder, focus, placement);
    return GraphPanel.currentPanel;
  }

  /** A panel VS Code restores after a reload, with the state its webview saved. */
  static revive(panel: vscode.WebviewPanel, ctx: GraphPanelContext, state: unknown): GraphPanel {
    const saved = state && typeof state === 'object' ? (state as { folderUri?: unknown }).folderUri : undefined;
    const folder = typeof saved === 'string' ? saved : vscode.workspace.workspaceFolders?.[0]?.uri.toString();
    GraphPanel.currentPanel?.dispose();
    GraphPanel.currentPanel = new GraphPanel(panel, ctx, folder ?? '', undefined, panelPlacement(GraphPanel.viewType));
    return GraphPanel.currentPanel;
  }

  /** Restores panels after a reload (`onWebviewPanel:terrace.graph` activates the extension for it). */
  static registerSerializer(ctx: GraphPanelContext): vscode.Disposable {
    return vscode.window.registerWebviewPanelSerializer(GraphPanel.viewType, {
      async deserializeWebviewPanel(panel, state) {
        startLayouts(ctx);
        panel.webview.options = getWebviewOptions(ctx.extensionUri);
        GraphPanel.revive(panel, ctx, state);
      },
    });
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly ctx: GraphPanelContext,
    private folderUri: string,
    focus: string | undefined,
    /** Where it opened: beside an editor, or alone in the editor area. */
    private readonly placement: PanelPlacement,
  ) {
    this.pendingFocus = focus;
    this.opening = new PanelOpening(ctx.layouts, () => ({ placement, known: ctx.areas.of(placement) }), ctx.output);
    this.affected = new PanelAffected(
      ctx.client,
      ctx.output,
      () => this.folderUri,
      (message) => this.post(message),
    );
    this.updateTitle();
    panel.onDidDispose(() => this.dispose(), null, this.disposables);
    panel.webview.onDidReceiveMessage((message: WebviewToPanel) => this.receive(message), null, this.disposables);
    // Asked of the server (if it was not) while VS Code readies the webview (a few hundred milliseconds at 3,000 units).
    this.firstGraph = this.loadPage();
    this.disposables.push(
      onGraphChanged(ctx.client)((params) => {
        if (sameFolder(params.folderUri, this.folderUri)) void this.sendGraph();
      }),
    );
  }

  /**
   * Gives the webview its page. A graph fetched already (laid out ahead, or for the last panel) comes in the
   * page itself, with the layouts made ahead of it: the page draws as its script runs, not once VS Code passes
   * it messages after its load (for a layout, a round trip through VS Code of 0.05–0.3 s). VS Code readies a
   * new webview's frame for some 0.25–0.5 s before it loads a page into it, so the page's HTML may wait a little
   * for them (at most `PAGE_WAIT_MS`) at no cost. Resolves to whether the page has its graph (`sendGraph`).
   */
  private async loadPage(): Promise<boolean> {
    const folderUri = this.folderUri;
    // A graph the server could not give is reported once, by `sendGraph`, which asks for it again.
    const graphs = panelGraphs(this.ctx.client);
    const things = graphs.get(folderUri).then(
      (graph) => this.opening.aheadOf(graph),
      () => undefined,
    );
    await Promise.race([things, new Promise((resolve) => setTimeout(resolve, PAGE_WAIT_MS))]);
    if (this.disposed) return false;
    const kept = folderUri === this.folderUri ? graphs.fetchedNow(folderUri) : undefined;
    let inPage: GraphMessage | undefined;
    let delivered: Promise<boolean> | undefined;
    if (kept) {
      this.graphsAsked++;
      this.times.graphInPage = true;
      delivered = this.deliver(kept, (message) => {
        inPage = message;
        return undefined;
      }).then(() => true);
    }
    this.panel.webview.html = graphPanelPage(this.panel.webview, this.ctx.extensionUri, inPage);
    return delivered ?? this.sendGraph();
  }

  /** A message from the webview (the tests post the one a click would post through here too). */
  async receive(message: WebviewToPanel): Promise<void> {
    switch (message.type) {
      case 'ready':
        // The webview (re)loaded: when created, revealed again after being hidden, or restored.
        this.times.ready = Date.now();
        this.times.pageMs = message.pageMs;
        this.times.pageAt = message.pageAt;
        this.ctx.areas.remember(this.placement, message.area);
        await this.pageReady(message.graphInPage === true);
        break;
      case 'openModule': {
        const module = (await this.details([message.id], 0))?.modules[0];
        if (module) await openModule(module.location, this.panel.viewColumn);
        break;
      }
      case 'openRead':
        if (this.shown) await openRead(this.shown.packed.root, message, this.panel.viewColumn);
        break;
      case 'affected':
        await this.affected.toggle(message.on);
        break;
      case 'problems': {
        const details = await this.details(message.modules, message.limit);
        await this.post({ type: 'problems', id: message.id, problems: details?.problems ?? [] });
        break;
      }
      case 'address': {
        const details = await this.details([message.module], 0);
        await this.post({ type: 'address', id: message.id, address: details?.modules[0]?.address ?? null });
        break;
      }
      case 'layout':
        this.opening.requested(this.folderUri, message.input);
        await this.layout(message.id, message.input);
        break;
      case 'rendered':
        this.opening.drew();
        this.reports.received(message);
        break;
      case 'outputsShown':
        this.reports.received(message);
        break;
      case 'export':
        await saveExport(vscode.Uri.parse(this.folderUri), message.format, message.data);
        break;
      case 'problem':
        this.ctx.output.warn(`graph panel: ${message.message}`);
        break;
    }
  }

  /** Runs a panel command (from the editor title bar or the command palette) in the webview. */
  runCommand(command: PanelCommand): void {
    void this.post({ type: 'command', command });
  }

  /** The graph last sent to the webview, as it draws it. */
  get currentGraph(): PanelModel | undefined {
    return this.shown?.panel;
  }

  dispose(): void {
    this.disposed = true;
    if (GraphPanel.currentPanel === this) GraphPanel.currentPanel = undefined;
    this.panel.dispose();
    this.reports.dispose();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }

  /** A page said it was ready: the first has its graph unless the server had none; a page loaded again is sent it. */
  private async pageReady(drewInPage: boolean): Promise<void> {
    const first = this.firstGraph;
    this.firstGraph = undefined;
    // A page restored with a saved state does not draw the graph in its HTML: it is sent it.
    const inPage = this.times.graphInPage === true;
    if (first && (await first) && (!inPage || drewInPage)) return;
    this.opening.pageLoaded();
    await this.sendGraph();
  }

  private show(folderUri: string, focus: string | undefined): void {
    if (!sameFolder(folderUri, this.folderUri)) {
      this.folderUri = folderUri;
      this.affected.forget();
      this.updateTitle();
      void this.sendGraph();
    }
    if (focus) {
      if (this.shown && sameFolder(folderUri, this.folderUri)) void this.post({ type: 'focus', id: focus });
      else this.pendingFocus = focus;
    }
  }

  /** The folder's graph from the server, as the webview gets it; undefined when the server could not say. */
  private async fetchGraph(folderUri: string): Promise<PanelGraph | undefined> {
    try {
      return await panelGraphs(this.ctx.client).get(folderUri);
    } catch (error) {
      this.ctx.output.error(`graph panel: could not get the graph of ${folderUri}: ${String(error)}`);
      return undefined;
    }
  }

  /**
   * The folder's graph from the server to the page (held by VS Code until a loading page has loaded);
   * false when the server had none, or a later graph was asked for meanwhile.
   */
  private async sendGraph(): Promise<boolean> {
    const folderUri = this.folderUri;
    const asked = ++this.graphsAsked;
    const fetched = await this.fetchGraph(folderUri);
    if (!fetched || folderUri !== this.folderUri || asked !== this.graphsAsked) return false;
    await this.deliver(fetched, (message) => this.post(message));
    return true;
  }

  /**
   * Gives the page a graph (`send`: posts it, or puts it in a new page's HTML), then what follows it: what the
   * changes affect, a module to focus.
   */
  private async deliver(
    fetched: PanelGraph,
    send: (message: GraphMessage) => Thenable<boolean> | undefined,
  ): Promise<void> {
    this.shown = fetched;
    this.times.graphSent = Date.now();
    this.times.graphAsked = fetched.askedAt;
    this.times.graphAnswered = fetched.answeredAt;
    const layouts = this.opening.withGraph(this.folderUri, fetched);
    const sent = send({ type: 'graph', graph: fetched.packed, folderUri: this.folderUri, ...layouts });
    void this.sendOutputs(fetched);
    await sent;
    await this.affected.graphSent();
    if (this.pendingFocus) {
      const id = this.pendingFocus;
      this.pendingFocus = undefined;
      await this.post({ type: 'focus', id });
    }
  }

  /** The outputs read along the edges of a graph sent (the server has them after the graph), once it has them. */
  private async sendOutputs(fetched: PanelGraph): Promise<void> {
    try {
      const outputs = await fetched.outputs;
      if (outputs && this.shown === fetched)
        await this.post({ type: 'outputs', version: fetched.version, outputs: packOutputs(outputs) });
    } catch (error) {
      this.ctx.output.warn(`graph panel: the outputs read along the edges did not come: ${String(error)}`);
    }
  }

  /**
   * What the page does not have of some modules (where each is written, its state's address, the texts of
   * their problems), asked of the server; undefined if it could not say.
   */
  private async details(modules: string[], problems: number): Promise<PanelDetails | undefined> {
    try {
      const params = { folderUri: this.folderUri, modules, problems };
      return (await this.ctx.client.sendRequest(PanelDetailsRequest.type, params)) ?? undefined;
    } catch (error) {
      this.ctx.output.warn(`graph panel: could not get the modules' details: ${String(error)}`);
      return undefined;
    }
  }

  private post(message: PanelToWebview): Thenable<boolean> {
    if (this.disposed) return Promise.resolve(false);
    return this.panel.webview.postMessage(message);
  }

  /** Lays a view out for the webview, in the extension host's layout thread. */
  private async layout(id: number, input: LayoutInput): Promise<void> {
    try {
      this.times.layoutAsked = Date.now();
      const ahead = this.ctx.layouts.answeredAhead;
      const layout = await this.ctx.layouts.layout(input);
      this.times.layoutMade = Date.now();
      this.times.layoutAhead = this.ctx.layouts.answeredAhead > ahead;
      await this.post({ type: 'layout', id, layout });
    } catch (error) {
      this.ctx.output.warn(`graph panel: layout in the extension host failed: ${String(error)}`);
      await this.post({ type: 'layout', id, error: String(error) });
    }
  }

  private updateTitle(): void {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const folder = folders.find((candidate) => sameFolder(candidate.uri.toString(), this.folderUri));
    this.panel.title = folders.length > 1 && folder ? `Terrace Graph: ${folder.name}` : 'Terrace Graph';
  }
}

/** How long a new page may wait for its graph and layouts before VS Code could load it (`loadPage`). */
const PAGE_WAIT_MS = 150;

function startLayouts(ctx: GraphPanelContext): void {
  void ctx.layouts.startSoon();
  // Unless a graph came before the panel, the page's first layout is elkjs's first: warmed up while the page loads.
  ctx.layouts.warmUp();
}
