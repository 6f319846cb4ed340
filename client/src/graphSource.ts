import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { type GraphModel, type GraphModule, GraphRequest } from '../../server/src/protocol';
import { chooseFolder } from './folderPick';

/**
 * The graph of the folder the user is working in: the active editor's workspace folder, the only
 * folder, or the one they pick. Undefined when there is none (or they cancelled).
 */
export async function currentGraph(client: LanguageClient, folderUri?: string): Promise<GraphModel | undefined> {
  const folder = folderUri ?? (await chooseFolder('Which folder’s Terraform modules?'));
  if (!folder) return undefined;
  const graph = await client.sendRequest(GraphRequest.type, { folderUri: folder });
  return graph ?? undefined;
}

/** Opens a module where it declares its backend. */
export async function openModule(module: GraphModule): Promise<vscode.TextEditor> {
  const { uri, range } = module.location;
  const position = new vscode.Position(range.start.line, range.start.character);
  return vscode.window.showTextDocument(vscode.Uri.parse(uri), { selection: new vscode.Range(position, position) });
}
