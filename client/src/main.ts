import path from 'node:path';
import type * as vscode from 'vscode';
import { loadBundle } from '../../server/src/codeCache';
import type { TerraceApi } from './extension';
import { codeCacheFolder, forkServer, startedInDebugMode } from './serverProcess';

/** The rest of the client (`dist/client.js`: the language client, the commands, the panel), loaded at activation. */
type ClientBundle = typeof import('./extension');

let client: ClientBundle | undefined;

/**
 * The extension's entry (`dist/main.js`): it forks the language server first, then loads the rest of the client,
 * half a megabyte with vscode-languageclient, while the server starts on another core. A window's first
 * problems wait for the server's start, its reading and its analysis, not for the client's load after it. The
 * client's bundle loads with the code cache an earlier window wrote (`codeCache.ts`), as the server's does; not
 * when the extension host is debugged, whose flags a cache would not fit.
 */
export function activate(context: vscode.ExtensionContext): Promise<TerraceApi> {
  const activatedAt = Date.now();
  const server = forkServer(context);
  const file = path.join(__dirname, 'client.js');
  const bundle = startedInDebugMode() ? undefined : loadBundle(file, codeCacheFolder(context));
  client = (bundle ? bundle.exports : require(file)) as ClientBundle;
  return client.activate(context, { server, activatedAt, bundle });
}

export function deactivate(): Thenable<void> | undefined {
  return client?.deactivate();
}
