import * as vscode from 'vscode';
import type { ServerStatusParams } from '../../server/src/protocol';

/** The status bar item: the server's health in one place; a click shows the execution levels. */
export class StatusItem implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('terrace.status', vscode.StatusBarAlignment.Left, 10);

  constructor() {
    this.item.name = 'Terrace';
    this.item.command = 'terrace.showLevels';
    this.show({ health: 'starting', message: 'starting', modules: 0, cycles: 0 });
    this.item.show();
  }

  show(status: ServerStatusParams): void {
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
    const tooltip = new vscode.MarkdownString(
      `**Terrace**: ${status.message}\n\n[Show levels](command:terrace.showLevels) · [Show output](command:terrace.showOutput) · [Restart server](command:terrace.restartServer)`,
    );
    tooltip.isTrusted = { enabledCommands: ['terrace.showLevels', 'terrace.showOutput', 'terrace.restartServer'] };
    this.item.tooltip = tooltip;
  }

  dispose(): void {
    this.item.dispose();
  }
}
