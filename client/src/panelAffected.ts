import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { AffectedRequest, type AffectedResult, type PanelToWebview } from '../../server/src/protocol';

/**
 * What the changes since a base ref affect, as the graph panel shows it: asked for (the last ref offered
 * again), asked again after each graph (an edit changes what is uncommitted), forgotten for another folder.
 * The server answers with the engine's changed-only modules and their dependents.
 */
export class PanelAffected {
  /** The base ref whose changes the panel shows the effect of, while it does. */
  private base: string | undefined;
  private lastBaseRef = 'origin/main';

  constructor(
    private readonly client: LanguageClient,
    private readonly output: vscode.LogOutputChannel,
    private readonly folderUri: () => string,
    private readonly post: (message: PanelToWebview) => Thenable<boolean>,
  ) {}

  /** Shows what the changes since a base ref affect (asked for when not given), or stops. */
  async toggle(on: boolean, baseRef?: string): Promise<void> {
    if (!on) {
      this.base = undefined;
      await this.post({ type: 'affected', affected: null });
      return;
    }
    const base =
      baseRef ??
      (await vscode.window.showInputBox({
        title: 'Terrace: what do the changes since which ref affect?',
        prompt: 'Modules changed since the merge base with this ref (and uncommitted changes), and their dependents',
        value: this.lastBaseRef,
        validateInput: (value) => (value.trim() ? undefined : 'a branch, tag or commit, e.g. origin/main'),
      }));
    if (!base) {
      await this.post({ type: 'affected', affected: null });
      return;
    }
    this.lastBaseRef = base.trim();
    this.base = this.lastBaseRef;
    await this.send(this.lastBaseRef);
  }

  /** A new graph was sent: what it affects is asked again, if shown. */
  async graphSent(): Promise<void> {
    if (this.base) await this.send(this.base);
  }

  /** Another folder, another repository: its changes are not asked for unasked. */
  forget(): void {
    if (!this.base) return;
    this.base = undefined;
    void this.post({ type: 'affected', affected: null });
  }

  private async send(baseRef: string): Promise<void> {
    let result: AffectedResult;
    try {
      result = await this.client.sendRequest(AffectedRequest.type, { folderUri: this.folderUri(), baseRef });
    } catch (error) {
      result = { kind: 'error', message: String(error) };
    }
    if (result.kind === 'error') {
      this.base = undefined;
      this.output.warn(`graph panel: affected modules: ${result.message}`);
      await this.post({ type: 'affected', affected: null, error: result.message });
      void vscode.window.showWarningMessage(`Terrace: cannot show what the changes affect: ${result.message}`);
      return;
    }
    await this.post({ type: 'affected', affected: result });
  }
}
