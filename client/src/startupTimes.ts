import type { StartupTimings } from '../../server/src/protocol';

/**
 * When the extension's start-up steps happened (epoch milliseconds, the machine's one clock): the extension host's
 * process started, Terrace was activated, its client's bundle loaded, its language client was running, the first
 * diagnostics reached the editor, the layout thread was ready; and the server's own steps (`StartupTimings`). What
 * a window's first diagnostics wait for, measured where the user waits (the extension's API, for the vscode tier).
 */
export class StartupTimes {
  readonly hostStartedAt = Math.round(performance.timeOrigin);
  /** The client's bundle loaded (`extension.ts`), after the extension's entry forked the server (`main.ts`). */
  readonly clientLoadedAt = Date.now();
  clientRunningAt: number | undefined;
  firstDiagnosticsAt: number | undefined;
  /** The graph panel's layout thread said it was ready (elkjs loaded; `layoutService.ts`). */
  layoutThreadReadyAt: number | undefined;
  server: StartupTimings | undefined;

  constructor(
    /** VS Code activated the extension: its entry was called. */
    readonly activatedAt: number,
  ) {}

  diagnosticsArrived(): void {
    this.firstDiagnosticsAt ??= Date.now();
  }
}
