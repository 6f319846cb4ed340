import * as vscode from 'vscode';

/**
 * The workspace folder a command works on, as a URI string: the only folder, the active editor's
 * folder, or the one the user picks (asked with `placeHolder`). Undefined when there is no folder
 * or the user cancelled.
 */
export async function chooseFolder(placeHolder: string): Promise<string | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length <= 1) return folders[0]?.uri.toString();
  const active = vscode.window.activeTextEditor?.document.uri;
  const owner = active && vscode.workspace.getWorkspaceFolder(active);
  return (owner ?? (await vscode.window.showWorkspaceFolderPick({ placeHolder })))?.uri.toString();
}
