import type { GraphModel, PanelToWebview, WebviewToPanel } from '../../server/src/protocol';

/** The graph panel's script. It draws the model the host posts; it never computes the graph itself. */
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

function render(graph: GraphModel): void {
  const root = document.getElementById('graph');
  if (!root) return;
  root.replaceChildren();
  graph.levels.forEach((ids, level) => {
    const column = document.createElement('section');
    column.className = 'level';
    column.dataset.level = String(level);
    const heading = document.createElement('h2');
    heading.textContent = `Level ${level}`;
    column.append(heading);
    for (const id of ids) {
      const node = document.createElement('button');
      node.className = 'node';
      node.dataset.id = id;
      node.textContent = id;
      node.addEventListener('click', () => vscode.postMessage({ type: 'openModule', id }));
      column.append(node);
    }
    root.append(column);
  });
  vscode.postMessage({ type: 'rendered', nodes: graph.modules.length, levels: graph.levels.length });
}

window.addEventListener('message', (event: MessageEvent<PanelToWebview>) => {
  if (event.data?.type === 'graph') render(event.data.graph);
});
vscode.postMessage({ type: 'ready' });
