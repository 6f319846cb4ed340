import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { GraphMessage } from '../../server/src/protocol';
import { graphPanelHtml, makeNonce } from './graphPanelHtml';

/** Scripts on; resources only from the extension's `dist/`. */
export function getWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist')] };
}

/**
 * The graph panel's page for a webview: its HTML (`graphPanelHtml.ts`) with the built script, styles and
 * resources, and the graph it starts with when the host has it already.
 */
export function graphPanelPage(webview: vscode.Webview, extensionUri: vscode.Uri, graph?: GraphMessage): string {
  const dist = vscode.Uri.joinPath(extensionUri, 'dist');
  const resource = (file: string) => webview.asWebviewUri(vscode.Uri.joinPath(dist, file)).toString();
  return graphPanelHtml({
    cspSource: webview.cspSource,
    nonce: makeNonce(),
    script: distText(dist, 'webview.js'),
    style: distText(dist, 'webview.css'),
    worker: resource('layoutWorker.js'),
    hostLayouts: true,
    graph,
  });
}

/** The page's own script and styles, read once per extension host: every panel's page carries them. */
const pageFiles = new Map<string, string>();

function distText(dist: vscode.Uri, file: string): string {
  const full = path.join(dist.fsPath, file);
  let text = pageFiles.get(full);
  if (text === undefined) {
    text = readFileSync(full, 'utf8');
    pageFiles.set(full, text);
  }
  return text;
}
