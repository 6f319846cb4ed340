import * as vscode from 'vscode';
import type { ServerStatusParams } from '../../server/src/protocol';

/**
 * The status bar item: the server's health in one place, and Restricted Mode when the workspace is not
 * trusted; a click shows the execution levels.
 */
export class StatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('terrace.status', vscode.StatusBarAlignment.Left, 10);
  private status: ServerStatusParams = { health: 'starting', message: 'starting', modules: 0, cycles: 0 };

  constructor() {
    this.item.name = 'Terrace';
    this.item.command = 'terrace.showLevels';
    this.show(this.status);
    this.item.show();
  }

  show(status: ServerStatusParams): void {
    this.status = status;
    this.item.backgroundColor = undefined;
    switch (status.health) {
      case 'starting':
      case 'indexing':
        this.item.text = `$(sync~spin) Terrace`;
        break;
      case 'ready':
        this.item.text = status.cycles > 0 ? `$(error) Terrace` : `$(type-hierarchy) Terrace`;
        if (status.cycles > 0) this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
        break;
      case 'error':
        this.item.text = `$(error) Terrace`;
        this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
        break;
    }
    const restricted = !vscode.workspace.isTrusted;
    if (restricted) this.item.text += ' $(shield)';
    // The message can quote a file (an invalid .terrace.yaml): text (icons escaped too), in a tooltip whose
    // links run commands.
    const tooltip = new vscode.MarkdownString('**Terrace**: ', true).appendText(status.message);
    if (restricted)
      tooltip.appendMarkdown(
        "\n\n$(shield) **Restricted Mode**: Terrace reads the files only. No process is started (git, terraform, terragrunt): Run Plans, Apply Saved Plans, Check Drift and what changed since a base ref wait until the workspace is trusted, and `.terrace.yaml`'s `execution` section is ignored. [Manage Workspace Trust](command:workbench.trust.manage)",
      );
    tooltip.appendMarkdown(
      '\n\n[Show levels](command:terrace.showLevels) · [Show output](command:terrace.showOutput) · [Restart server](command:terrace.restartServer)',
    );
    tooltip.isTrusted = {
      enabledCommands: ['terrace.showLevels', 'terrace.showOutput', 'terrace.restartServer', 'workbench.trust.manage'],
    };
    this.item.tooltip = tooltip;
  }

  /** The workspace was trusted: Restricted Mode is over. */
  trusted(): void {
    this.show(this.status);
  }

  /** What it shows: its text and its tooltip's Markdown (the extension's API, for tests). */
  get shown(): { text: string; tooltip: string } {
    const tooltip = this.item.tooltip;
    return { text: this.item.text, tooltip: typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? '') };
  }

  dispose(): void {
    this.item.dispose();
  }
}
