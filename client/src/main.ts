import path from 'node:path';
import type * as vscode from 'vscode';
import type { TerraceApi } from './extension';
import { forkServer } from './serverProcess';

/** The rest of the client (`dist/client.js`: the language client, the commands, the panel), loaded at activation. */
type ClientBundle = typeof import('./extension');

/**
 * The extension's entry (`dist/main.js`): it forks the language server first, then loads the rest of the client,
 * half a megabyte with vscode-languageclient, while the server starts on another core. A window's first
 * problems wait for the server's start, its reading and its analysis, not for the client's load after it.
 */
export function activate(context: vscode.ExtensionContext): Promise<TerraceApi> {
  const activatedAt = Date.now();
  const server = forkServer(context);
  return clientBundle().activate(context, server, activatedAt);
}

export function deactivate(): Thenable<void> | undefined {
  return clientBundle().deactivate();
}

function clientBundle(): ClientBundle {
  return require(path.join(__dirname, 'client.js')) as ClientBundle;
}
