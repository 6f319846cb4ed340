import * as vscode from 'vscode';
import { Config } from './config';
import type { RunPlans } from './runPlans';
import type { ServerReadiness } from './serverReadiness';

/**
 * `terrace.driftCheckInterval` (minutes, 0 = off): checks every workspace folder for drift on a
 * schedule, without a terminal; drifted modules are announced and marked in their run states. A
 * tick is skipped while another run is going on, or while the language server is not running.
 */
export class DriftSchedule implements vscode.Disposable {
  private timer: NodeJS.Timeout | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly runs: RunPlans,
    private readonly server: ServerReadiness,
  ) {
    this.configure();
    this.subscription = vscode.workspace.onDidChangeConfiguration((event) => {
      if (Config.affects(event, 'driftCheckInterval')) this.configure();
    });
  }

  private configure(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    const interval = Config.of().driftCheckIntervalMs;
    if (interval > 0) this.timer = setInterval(() => void this.tick(), interval);
  }

  private async tick(): Promise<void> {
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      // The server says which modules; without it a tick has nothing to do (the next one will).
      if (this.runs.running || this.server.phase !== 'ready') return;
      await this.runs.checkDrift({ folderUri: folder.uri.toString(), scope: 'all' }, true);
    }
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.subscription.dispose();
  }
}
