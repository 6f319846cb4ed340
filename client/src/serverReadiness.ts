import * as vscode from 'vscode';
import { type LanguageClient, State } from 'vscode-languageclient/node';

/** Where the language server is: answering, on its way (starting or restarting), or not running. */
export type ServerPhase = 'ready' | 'starting' | 'stopped';

/** What a command that needs the server returns when it could not run: why. */
export interface ServerUnavailable {
  serverUnavailable: Exclude<ServerPhase, 'ready'>;
}

/** How long a command waits for a starting server before it says so. */
const START_WAIT_MS = 20_000;

/**
 * Whether the language server can answer requests. Keeps the `terrace.serverReady` context key
 * current (for when clauses and users' keybindings), and lets a command wait for a starting server
 * or say why it cannot run.
 */
export class ServerReadiness implements vscode.Disposable {
  /** Between the stop and the start of a restart the client reads Stopped; it is starting really. */
  private restarting = false;
  private contextValue: boolean | undefined;
  private readonly changedEmitter = new vscode.EventEmitter<ServerPhase>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly client: LanguageClient) {
    this.subscription = client.onDidChangeState(() => this.update());
    this.update();
  }

  get phase(): ServerPhase {
    if (this.client.state === State.Running) return 'ready';
    return this.client.state === State.Starting || this.restarting ? 'starting' : 'stopped';
  }

  /** `Terrace: Restart Server`: also starts a stopped server; a starting one is let start first. */
  async restart(): Promise<void> {
    this.restarting = true;
    this.update();
    try {
      if (this.client.state === State.Starting) await this.client.start();
      await this.client.restart();
    } finally {
      this.restarting = false;
      this.update();
    }
  }

  /**
   * Resolves once the server can answer: at once when it runs; while it starts, after waiting with
   * a progress notification (at most 20 s). When it still cannot, says so with a way out and
   * resolves with why.
   */
  async ensureReady(): Promise<ServerUnavailable | undefined> {
    if (this.phase === 'starting') await this.waitWhileStarting();
    const phase = this.phase;
    if (phase === 'ready') return undefined;
    void this.explain(phase);
    return { serverUnavailable: phase };
  }

  dispose(): void {
    this.subscription.dispose();
    this.changedEmitter.dispose();
  }

  private waitWhileStarting(): Thenable<void> {
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Terrace: the language server is starting…' },
      () =>
        new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            listener.dispose();
            resolve();
          };
          const timer = setTimeout(done, START_WAIT_MS);
          const listener = this.changedEmitter.event((phase) => phase !== 'starting' && done());
        }),
    );
  }

  private async explain(phase: Exclude<ServerPhase, 'ready'>): Promise<void> {
    const action =
      phase === 'starting'
        ? await vscode.window.showWarningMessage('Terrace: the language server is still starting…', 'Show Output')
        : await vscode.window.showErrorMessage(
            'Terrace: the language server is not running.',
            'Restart Server',
            'Show Output',
          );
    if (action === 'Restart Server') await vscode.commands.executeCommand('terrace.restartServer');
    if (action === 'Show Output') await vscode.commands.executeCommand('terrace.showOutput');
  }

  private update(): void {
    const phase = this.phase;
    this.changedEmitter.fire(phase);
    const ready = phase === 'ready';
    if (ready === this.contextValue) return;
    this.contextValue = ready;
    void vscode.commands.executeCommand('setContext', 'terrace.serverReady', ready);
  }
}
