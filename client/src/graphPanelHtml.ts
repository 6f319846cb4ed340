/**
 * The graph panel's HTML, and nothing else: no `vscode` import, so the webview tests serve the very
 * same page. Scripts run only with the nonce; styles, fonts and the layout worker's script come from
 * the extension's `dist/` (`cspSource`); the worker itself starts from a blob URL, and exported PNGs
 * are drawn from data URLs.
 */
export interface GraphPanelResources {
  /** `webview.cspSource`. */
  cspSource: string;
  nonce: string;
  /** Webview URIs of `dist/webview.js`, `dist/layoutWorker.js`, `dist/webview.css`, `dist/codicon.css`. */
  script: string;
  worker: string;
  style: string;
  codicons: string;
  /** The extension host lays the graph out on request (`layout` messages); else the webview's worker does. */
  hostLayouts?: boolean;
}

export function graphPanelHtml(resources: GraphPanelResources): string {
  const { cspSource, nonce } = resources;
  const csp = [
    `default-src 'none'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
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
<link href="${attribute(resources.codicons)}" rel="stylesheet">
<link href="${attribute(resources.style)}" rel="stylesheet">
<title>Terrace Graph</title>
</head>
<body>
<div id="app" role="application" aria-label="Terraform module dependency graph"></div>
<script nonce="${nonce}" src="${attribute(resources.script)}" data-worker="${attribute(resources.worker)}"${resources.hostLayouts ? ' data-layout="host"' : ''}></script>
</body>
</html>`;
}

/** A random nonce for the page's one script. */
export function makeNonce(): string {
  const bytes = new Uint8Array(18);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
