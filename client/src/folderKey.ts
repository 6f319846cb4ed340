import * as vscode from 'vscode';

/**
 * A workspace folder's URI as one key, however it is written (a `+` in a path as `%2B` or as it is, a drive
 * letter in either case): a folder's graph asked under one string and said changed under another is the
 * same folder's. The server writes URIs as VS Code does; a URI saved in a panel's state, or passed to a
 * command, may not be.
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
