import type { GraphMessage } from '../../server/src/protocol';

/**
 * The graph panel's HTML, and nothing else: no `vscode` import, so the webview tests serve the very
 * same page. Its script and styles are in the page, run and applied only with the nonce: loaded
 * through the webview's resource loader they took 0.2 s of a window still starting (25 ms later on).
 * Its icons are SVG in its script (`codicons.ts`): a stylesheet or a font to load would hold up its first
 * messages, which VS Code passes a page once everything it loads has loaded (0.05-0.1 s). The layout
 * worker's script comes from the extension's `dist/` (`cspSource`); the worker itself starts from a blob
 * URL, and exported PNGs are drawn from data URLs.
 */
export interface GraphPanelResources {
  /** `webview.cspSource`. */
  cspSource: string;
  nonce: string;
  /** The text of `dist/webview.js` and of `dist/webview.css`. */
  script: string;
  style: string;
  /** The webview URI of `dist/layoutWorker.js`. */
  worker: string;
  /** The extension host lays the graph out on request (`layout` messages); else the webview's worker does. */
  hostLayouts?: boolean;
  /** The graph the page draws as it starts, as the host would post it. */
  graph?: GraphMessage;
}

export function graphPanelHtml(resources: GraphPanelResources): string {
  const { cspSource, nonce } = resources;
  const csp = [
    `default-src 'none'`,
    `style-src 'nonce-${nonce}'`,
    `img-src ${cspSource} data: blob:`,
    `script-src 'nonce-${nonce}'`,
    `connect-src ${cspSource}`,
    `worker-src blob:`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${nonce}">${inPage(resources.style)}</style>
<title>Terrace Graph</title>
</head>
<body>
<div id="app" role="application" aria-label="Terraform module dependency graph"></div>
${resources.graph ? `<script type="application/json" id="graph">${inJson(resources.graph)}</script>\n` : ''}<script nonce="${nonce}" data-worker="${attribute(resources.worker)}"${resources.hostLayouts ? ' data-layout="host"' : ''}>${inPage(resources.script)}</script>
</body>
</html>`;
}

/** A random nonce for the page's one script. */
export function makeNonce(): string {
  const bytes = new Uint8Array(18);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Script or style text as an element's content: nothing in it may close the element early. */
function inPage(text: string): string {
  return text.replace(/<\/(script|style)/gi, '<\\/$1');
}

/** Data as a JSON script's content: `<` escaped, so that no text in it (a folder's name) ends the element or starts markup. */
function inJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
