import path from 'node:path';
import * as vscode from 'vscode';
import type { WebviewToPanel, WireLocation, WirePosition } from '../../server/src/protocol';

/** Opens a module of the graph where it declares its backend, in an editor group other than the panel's. */
export async function openModule(location: WireLocation, panel: vscode.ViewColumn | undefined): Promise<void> {
  await openAt(vscode.Uri.parse(location.uri), location.range.start, panel);
}

/** Opens a read that makes an edge, clicked in the panel: its reader's folder under `root`, then its file from there. */
export async function openRead(
  root: string,
  read: Extract<WebviewToPanel, { type: 'openRead' }>,
  panel: vscode.ViewColumn | undefined,
): Promise<void> {
  await openAt(vscode.Uri.file(path.join(root, read.from, ...read.file.split('/'))), read, panel);
}

async function openAt(uri: vscode.Uri, at: WirePosition, panel: vscode.ViewColumn | undefined): Promise<void> {
  const position = new vscode.Position(at.line, at.character);
  await vscode.window.showTextDocument(uri, {
    viewColumn: panel === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One,
    selection: new vscode.Range(position, position),
    preserveFocus: false,
  });
}
