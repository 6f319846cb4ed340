import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { EnvironmentsRequest, type EnvironmentsResult, SelectEnvironmentRequest } from '../../server/src/protocol';
import { chooseFolder } from './folderPick';

/**
 * The environment each workspace folder is analysed in (its variables, tfvars, backend files and
 * workspace; see `.terrace.yaml`'s `environments`): a status bar item that shows it for the active
 * editor's folder, and `Terrace: Select Environment`. The choice is remembered per folder and given
 * to the server again when it starts.
 */
export class EnvironmentPicker implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('terrace.environment', vscode.StatusBarAlignment.Left, 99);
  private readonly subscriptions: vscode.Disposable[] = [this.item];

  constructor(
    private readonly client: LanguageClient,
    private readonly memory: vscode.Memento,
  ) {
    this.item.name = 'Terrace Environment';
    this.item.command = 'terrace.selectEnvironment';
    this.subscriptions.push(vscode.window.onDidChangeActiveTextEditor(() => void this.refresh()));
  }

  /** Gives the server the remembered choices, then shows the active folder's. Once the client runs. */
  async restore(): Promise<void> {
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const remembered = this.memory.get<string>(memoryKey(folder.uri.toString()));
      if (remembered === undefined) continue;
      await this.client
        .sendRequest(SelectEnvironmentRequest.type, { folderUri: folder.uri.toString(), environment: remembered })
        // An environment whose files are gone is forgotten: the folder stays on all environments.
        .catch(() => this.memory.update(memoryKey(folder.uri.toString()), undefined));
    }
    await this.refresh();
  }

  /**
   * Analyses a folder in `environment` (null: all of them), asking for both when not given. Resolves
   * with the folder's environments and the one selected, or undefined when cancelled.
   */
  async select(environment?: string | null, folderUri?: string): Promise<EnvironmentsResult | undefined> {
    const folder = folderUri ?? (await chooseFolder('Select the environment of which folder?'));
    if (!folder) return undefined;
    const chosen = environment !== undefined ? environment : await this.ask(folder);
    if (chosen === undefined) return undefined;
    try {
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: 'Terrace: analysing the environment' },
        () => this.client.sendRequest(SelectEnvironmentRequest.type, { folderUri: folder, environment: chosen }),
      );
      await this.memory.update(memoryKey(folder), result.selected ?? undefined);
      this.show(result);
      return result;
    } catch (error) {
      void vscode.window.showErrorMessage(`Terrace: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  /** The pick: every environment of the folder, and all of them; undefined when dismissed. */
  private async ask(folder: string): Promise<string | null | undefined> {
    const { environments, selected } = await this.client.sendRequest(EnvironmentsRequest.type, { folderUri: folder });
    if (environments.length === 0) {
      void vscode.window.showInformationMessage(
        'Terrace: this folder has no environments. Name them in .terrace.yaml (environments:), or by files such as prod.tfvars and prod.tfbackend beside the roots.',
      );
      return undefined;
    }
    const items: (vscode.QuickPickItem & { environment: string | null })[] = [
      { label: '$(layers) All environments', description: 'every backend file counts', environment: null },
      ...environments.map((name) => ({ label: `$(server-environment) ${name}`, environment: name })),
    ];
    for (const item of items) if (item.environment === selected) item.description = 'current';
    const picked = await vscode.window.showQuickPick(items, {
      placeHolder: 'Analyse the monorepo in which environment?',
    });
    return picked === undefined ? undefined : picked.environment;
  }

  /** Shows the active editor's folder (or the first) in the status bar, when it has environments. */
  private async refresh(): Promise<void> {
    const active = vscode.window.activeTextEditor?.document.uri;
    const folder =
      (active && vscode.workspace.getWorkspaceFolder(active)) ?? vscode.workspace.workspaceFolders?.[0] ?? undefined;
    if (!folder) return;
    const result = await this.client
      .sendRequest(EnvironmentsRequest.type, { folderUri: folder.uri.toString() })
      .catch(() => undefined);
    if (result) this.show(result);
  }

  private show(result: EnvironmentsResult): void {
    if (result.environments.length === 0 && result.selected === null) {
      this.item.hide();
      return;
    }
    this.item.text = `$(server-environment) ${result.selected ?? 'all environments'}`;
    this.item.tooltip = result.selected
      ? `Terrace analyses the ${result.selected} environment: its variables, tfvars and backend files. Click to change.`
      : `Terrace analyses every environment (${result.environments.join(', ')}) at once. Click to pick one.`;
    this.item.show();
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}

function memoryKey(folderUri: string): string {
  return `terrace.environment:${folderUri}`;
}
