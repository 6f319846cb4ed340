import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  type GraphModel,
  GraphRequest,
  type PanelCommand,
  type PanelToWebview,
  type WebviewToPanel,
} from '../../server/src/protocol';
import { chooseFolder } from './folderPick';
import { onGraphChanged } from './graphChanges';
import { graphPanelHtml, makeNonce } from './graphPanelHtml';

/** What the panel needs from the running extension. */
export interface GraphPanelContext {
  readonly client: LanguageClient;
  readonly output: vscode.LogOutputChannel;
  readonly extensionUri: vscode.Uri;
}

export type RenderedReport = Extract<WebviewToPanel, { type: 'rendered' }>;

/**
 * The graph panel (`Terrace: Show Graph`): one webview panel at a time, showing one workspace folder's
 * graph, redrawn when the server says the graph changed. The webview draws; this side fetches the
 * graph, opens modules and writes exported files.
 */
export class GraphPanel {
  static readonly viewType = 'terrace.graph';
  static currentPanel: GraphPanel | undefined;

  /** The drawings the webview reported (the last 50), newest last: read by the extension's tests. */
  readonly renders: RenderedReport[] = [];
  private readonly renderedEmitter = new vscode.EventEmitter<RenderedReport>();
  readonly onDidRender = this.renderedEmitter.event;
  private readonly disposables: vscode.Disposable[] = [];
  private graph: GraphModel | undefined;
  private pendingFocus: string | undefined;
  private ready = false;

  /** Shows the panel (creating it beside the editor), on `folderUri` or the folder the user works in. */
  static async createOrShow(
    ctx: GraphPanelContext,
    folderUri?: string,
    focus?: string,
  ): Promise<GraphPanel | undefined> {
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
    const panel = vscode.window.createWebviewPanel(
      GraphPanel.viewType,
      'Terrace Graph',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      getWebviewOptions(ctx.extensionUri),
    );
    GraphPanel.currentPanel = new GraphPanel(panel, ctx, folder, focus);
    return GraphPanel.currentPanel;
  }

  /** A panel VS Code restores after a reload, with the state its webview saved. */
  static revive(panel: vscode.WebviewPanel, ctx: GraphPanelContext, state: unknown): GraphPanel {
    const saved = state && typeof state === 'object' ? (state as { folderUri?: unknown }).folderUri : undefined;
    const folder = typeof saved === 'string' ? saved : vscode.workspace.workspaceFolders?.[0]?.uri.toString();
    GraphPanel.currentPanel?.dispose();
    GraphPanel.currentPanel = new GraphPanel(panel, ctx, folder ?? '', undefined);
    return GraphPanel.currentPanel;
  }

  /** Restores panels after a reload (`onWebviewPanel:terrace.graph` activates the extension for it). */
  static registerSerializer(ctx: GraphPanelContext): vscode.Disposable {
    return vscode.window.registerWebviewPanelSerializer(GraphPanel.viewType, {
      async deserializeWebviewPanel(panel, state) {
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
  ) {
    this.pendingFocus = focus;
    this.updateTitle();
    panel.webview.html = this._getHtmlForWebview(panel.webview);
    panel.onDidDispose(() => this.dispose(), null, this.disposables);
    panel.webview.onDidReceiveMessage((message: WebviewToPanel) => this.receive(message), null, this.disposables);
    this.disposables.push(
      onGraphChanged(ctx.client)((params) => {
        if (sameFolder(params.folderUri, this.folderUri) && this.ready) void this.sendGraph();
      }),
    );
  }

  /** A message from the webview (the tests post the one a click would post through here too). */
  async receive(message: WebviewToPanel): Promise<void> {
    switch (message.type) {
      case 'ready':
        // The webview (re)loaded: when created, revealed again after being hidden, or restored.
        this.ready = true;
        await this.sendGraph();
        break;
      case 'openModule':
        await this.openModule(message.id);
        break;
      case 'rendered':
        this.renders.push(message);
        if (this.renders.length > 50) this.renders.splice(0, this.renders.length - 50);
        this.renderedEmitter.fire(message);
        break;
      case 'export':
        await this.saveExport(message.format, message.data);
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

  /** The next drawing the webview reports for which `accept` holds (or one already reported). */
  waitForRender(accept: (report: RenderedReport) => boolean = () => true, timeoutMs = 30_000): Promise<RenderedReport> {
    const found = this.renders.find(accept);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        listener.dispose();
        reject(new Error(`the graph panel did not report a drawing within ${timeoutMs} ms`));
      }, timeoutMs);
      const listener = this.onDidRender((report) => {
        if (!accept(report)) return;
        clearTimeout(timer);
        listener.dispose();
        resolve(report);
      });
    });
  }

  /** The graph last sent to the webview. */
  get currentGraph(): GraphModel | undefined {
    return this.graph;
  }

  dispose(): void {
    if (GraphPanel.currentPanel === this) GraphPanel.currentPanel = undefined;
    this.panel.dispose();
    this.renderedEmitter.dispose();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
  }

  private show(folderUri: string, focus: string | undefined): void {
    if (!sameFolder(folderUri, this.folderUri)) {
      this.folderUri = folderUri;
      this.updateTitle();
      if (this.ready) void this.sendGraph();
    }
    if (focus) {
      if (this.ready && this.graph && sameFolder(folderUri, this.folderUri))
        void this.post({ type: 'focus', id: focus });
      else this.pendingFocus = focus;
    }
  }

  private async sendGraph(): Promise<void> {
    const folderUri = this.folderUri;
    let graph: GraphModel | null;
    try {
      graph = await this.ctx.client.sendRequest(GraphRequest.type, { folderUri });
    } catch (error) {
      this.ctx.output.error(`graph panel: could not get the graph of ${folderUri}: ${String(error)}`);
      return;
    }
    if (!graph || folderUri !== this.folderUri) return;
    this.graph = graph;
    await this.post({ type: 'graph', graph, folderUri });
    if (this.pendingFocus) {
      const id = this.pendingFocus;
      this.pendingFocus = undefined;
      await this.post({ type: 'focus', id });
    }
  }

  private post(message: PanelToWebview): Thenable<boolean> {
    return this.panel.webview.postMessage(message);
  }

  /** Opens a module where it declares its backend, in an editor group other than the panel's. */
  private async openModule(id: string): Promise<void> {
    const module = this.graph?.modules.find((candidate) => candidate.id === id);
    if (!module) return;
    const { uri, range } = module.location;
    const position = new vscode.Position(range.start.line, range.start.character);
    const viewColumn = this.panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One;
    await vscode.window.showTextDocument(vscode.Uri.parse(uri), {
      viewColumn,
      selection: new vscode.Range(position, position),
      preserveFocus: false,
    });
  }

  private async saveExport(format: 'svg' | 'png', data: string): Promise<void> {
    const folder = vscode.Uri.parse(this.folderUri);
    const target = await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.joinPath(folder, `terrace-graph.${format}`),
      filters: format === 'svg' ? { 'SVG image': ['svg'] } : { 'PNG image': ['png'] },
      saveLabel: 'Export',
      title: `Export the graph as ${format.toUpperCase()}`,
    });
    if (!target) return;
    const bytes = format === 'svg' ? new TextEncoder().encode(data) : Buffer.from(data, 'base64');
    await vscode.workspace.fs.writeFile(target, bytes);
    void vscode.window.showInformationMessage(
      `Terrace: saved the graph to ${vscode.workspace.asRelativePath(target)}.`,
    );
  }

  private updateTitle(): void {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const folder = folders.find((candidate) => sameFolder(candidate.uri.toString(), this.folderUri));
    this.panel.title = folders.length > 1 && folder ? `Terrace Graph: ${folder.name}` : 'Terrace Graph';
  }

  private _getHtmlForWebview(webview: vscode.Webview): string {
    const dist = vscode.Uri.joinPath(this.ctx.extensionUri, 'dist');
    const resource = (file: string) => webview.asWebviewUri(vscode.Uri.joinPath(dist, file)).toString();
    return graphPanelHtml({
      cspSource: webview.cspSource,
      nonce: makeNonce(),
      script: resource('webview.js'),
      worker: resource('layoutWorker.js'),
      style: resource('webview.css'),
      codicons: resource('codicon.css'),
    });
  }
}

/** Scripts on; resources only from the extension's `dist/`. */
function getWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist')] };
}

function sameFolder(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return vscode.Uri.parse(a).fsPath === vscode.Uri.parse(b).fsPath;
  } catch {
    return false;
  }
}
