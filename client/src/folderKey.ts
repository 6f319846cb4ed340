import * as vscode from 'vscode';

/**
 * A workspace folder's URI as one key, however it is written: VS Code writes a `+` in a path as `%2B`, the
 * server (Node's `pathToFileURL`) as it is, and a folder's graph asked by one and said changed by the other
 * is the same folder's.
 */
export function folderKey(uri: string): string {
  try {
    return vscode.Uri.parse(uri).fsPath;
  } catch {
    return uri;
  }
}

/** Whether two URIs name the same folder (`folderKey`). */
export function sameFolder(a: string, b: string): boolean {
  return a === b || folderKey(a) === folderKey(b);
}
