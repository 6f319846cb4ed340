import * as vscode from 'vscode';
import { type LanguageClient, State } from 'vscode-languageclient/node';
import { type FileReader, FileReadersRequest } from '../../server/src/protocol';
import { onGraphChanged } from './graphChanges';

/**
 * A code lens at the top of a file that modules read from elsewhere (a root `terragrunt.hcl`, a
 * `global.yaml`, a policy template, a child module's file): how many modules read it, each with how in
 * its tooltip; a click lists them in the references view. A module's own file shows none. Asked again
 * as the graph changes.
 */
export class ReadersLens implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly graphChanges: vscode.Disposable;

  constructor(private readonly client: LanguageClient) {
    this.graphChanges = onGraphChanged(client)(() => this.changed.fire());
  }

  async provideCodeLenses(document: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.CodeLens[]> {
    if (this.client.state !== State.Running || document.uri.scheme !== 'file') return [];
    let readers: FileReader[];
    try {
      readers = await this.client.sendRequest(FileReadersRequest.type, { uri: document.uri.toString() }, token);
    } catch {
      return [];
    }
    if (!readers.some((reader) => !reader.own)) return [];
    const title = readers.length === 1 ? `Read by ${readers[0]!.id}` : `Read by ${readers.length} modules`;
    const top = new vscode.Range(0, 0, 0, 0);
    return [
      new vscode.CodeLens(top, {
        title,
        tooltip: readers.map((reader) => `${reader.id}: ${reader.why}`).join('\n'),
        command: 'terrace.showReferences',
        arguments: [document.uri.toString(), top.start, readers.map((reader) => reader.location)],
      }),
    ];
  }

  dispose(): void {
    this.graphChanges.dispose();
    this.changed.dispose();
  }
}
