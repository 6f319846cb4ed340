import * as vscode from 'vscode';

/** Saves the panel's export (SVG text, or PNG as base64) where the user says, offered in `folder`. */
export async function saveExport(folder: vscode.Uri, format: 'svg' | 'png', data: string): Promise<void> {
  const target = await vscode.window.showSaveDialog({
    defaultUri: vscode.Uri.joinPath(folder, `terrace-graph.${format}`),
    filters: format === 'svg' ? { 'SVG image': ['svg'] } : { 'PNG image': ['png'] },
    saveLabel: 'Export',
    title: `Export the graph as ${format.toUpperCase()}`,
  });
  if (!target) return;
  const bytes = format === 'svg' ? new TextEncoder().encode(data) : Buffer.from(data, 'base64');
  await vscode.workspace.fs.writeFile(target, bytes);
  void vscode.window.showInformationMessage(`Terrace: saved the graph to ${vscode.workspace.asRelativePath(target)}.`);
}
