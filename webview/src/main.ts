import type {
  PackedPanelModel,
  PanelCommand,
  PanelProblem,
  PanelToWebview,
  WebviewToPanel,
} from '../../server/src/protocol';
import { GraphPanelView } from './graphPanelView';
import { HostAnswers } from './hostAnswers';
import { HostLayouts } from './hostLayouts';
import { LayoutClient } from './layoutClient';
import { unpackGraph, unpackOutputs } from './packedGraph';
import type { PanelState } from './panelState';

/**
 * The graph panel's script: draws the graph model the host posts, and posts back what the user asks
 * for (open a module, save an export). It never computes the graph itself.
 */
interface VsCodeApi {
  postMessage(message: WebviewToPanel): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode: VsCodeApi =
  typeof acquireVsCodeApi === 'function'
    ? acquireVsCodeApi()
    : { postMessage: () => undefined, getState: () => undefined, setState: () => undefined };

const script = document.currentScript as HTMLScriptElement | null;
const workerUrl = script?.dataset.worker ?? new URL('layoutWorker.js', script?.src || location.href).href;
const post = (message: WebviewToPanel) => vscode.postMessage(message);
// VS Code's panel offers the extension host's layouts (`data-layout="host"`); a page on its own lays out itself.
const hostLayouts = script?.dataset.layout === 'host' ? new HostLayouts(post) : undefined;
const layouts = new LayoutClient(
  workerUrl,
  script?.nonce ?? '',
  (message) => post({ type: 'problem', message }),
  hostLayouts && ((input) => hostLayouts.request(input)),
);

const problems = new HostAnswers<PanelProblem[]>([]);
const addresses = new HostAnswers<string | null>(null);
const app = document.getElementById('app') ?? document.body;
const view = new GraphPanelView(app, layouts, {
  post,
  problems: (modules, limit) => problems.request((id) => post({ type: 'problems', id, modules, limit })),
  address: (module) => addresses.request((id) => post({ type: 'address', id, module })),
  saveState: (state: PanelState) => vscode.setState(state),
  savedState: vscode.getState() as PanelState | undefined,
});

window.addEventListener('message', (event: MessageEvent<PanelToWebview | null>) => receive(event.data));
// A graph the host had already comes in the page: drawn as the script runs, not after a message. A page
// loaded again (hidden, then shown) has the same HTML and its saved state: its graph comes again in a message.
const inPage = document.getElementById('graph')?.textContent;
const graphInPage = !!inPage && !vscode.getState();
if (graphInPage) receive(JSON.parse(inPage) as PanelToWebview);
post({
  type: 'ready',
  pageMs: Math.round(performance.now()),
  pageAt: Math.round(performance.timeOrigin),
  graphInPage,
  area: view.drawingArea(),
});

function receive(message: PanelToWebview | null): void {
  if (!message || typeof message !== 'object') return;
  switch (message.type) {
    case 'graph': {
      // Timed from here: unpacking an 11,000-module graph and indexing it are part of what a drawing takes.
      const arrived = performance.now();
      if (isGraph(message.graph)) view.showGraph(unpackGraph(message.graph), message.folderUri, message, arrived);
      break;
    }
    case 'outputs':
      if (Array.isArray(message.outputs?.lists) && Array.isArray(message.outputs.strings))
        view.showOutputs(message.version, unpackOutputs(message.outputs));
      break;
    case 'focus':
      view.focusModule(message.id);
      break;
    case 'command':
      view.runCommand(message.command as PanelCommand);
      break;
    case 'affected':
      view.showAffected(message);
      break;
    case 'layout':
      hostLayouts?.answered(message);
      break;
    case 'problems':
      problems.answered(message.id, message.problems);
      break;
    case 'address':
      addresses.answered(message.id, message.address);
      break;
  }
}

function isGraph(graph: PackedPanelModel | undefined): graph is PackedPanelModel {
  const rows = (packed: PackedPanelModel['modules'] | undefined) =>
    !!packed && typeof packed.count === 'number' && !!packed.columns;
  return (
    !!graph &&
    rows(graph.modules) &&
    rows(graph.edges) &&
    Array.isArray(graph.levels) &&
    Array.isArray(graph.strings?.suffixes)
  );
}
