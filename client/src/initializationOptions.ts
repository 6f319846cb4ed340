import * as vscode from 'vscode';
import type { EarlyStart } from '../../server/src/earlyStart';
import type { TerraceInitializationOptions } from '../../server/src/protocol';

/**
 * What the client starts the server with (its initialization options), asked at each start: a server restarted after
 * the workspace was trusted may run git, or the settings changed.
 */
export function initializationOptions(): TerraceInitializationOptions {
  return {
    trusted: vscode.workspace.isTrusted,
    settings: Object.fromEntries(
      (vscode.workspace.workspaceFolders ?? []).map((folder) => [
        folder.uri.toString(),
        vscode.workspace.getConfiguration(undefined, folder.uri).get('terrace'),
      ]),
    ),
  };
}

/** The same, with the window's folders, for the server the entry forks before the client has loaded (`EarlyStart`). */
export function earlyStart(): EarlyStart {
  const { trusted, settings } = initializationOptions();
  return {
    folders: (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.toString()),
    trusted: trusted !== false,
    settings: settings ?? {},
  };
}
