import * as vscode from 'vscode';
import { summaryRowModule } from '../../runner/src';

/**
 * The integrated terminal of a run (`Terrace: plan`, `Terrace: apply`, `Terrace: drift`): a
 * Pseudoterminal that shows what the run prints. Closing it or pressing Ctrl+C in it stops the
 * run. Its summary rows link to each module's full log (see `PlanTerminalLinks`).
 */
export class PlanTerminal implements vscode.Pseudoterminal {
  private readonly writeEmitter = new vscode.EventEmitter<string>();
  readonly onDidWrite = this.writeEmitter.event;
  readonly terminal: vscode.Terminal;
  private opened = false;
  private pending = '';
  private written = '';
  private closed = false;
  /** The full log of each module of the run, for the links. */
  readonly logs = new Map<string, string>();

  constructor(
    readonly name: string,
    private readonly stop: () => void,
  ) {
    this.terminal = vscode.window.createTerminal({ name, pty: this, iconPath: new vscode.ThemeIcon('server-process') });
    terminals.set(this.terminal, this);
  }

  open(): void {
    this.opened = true;
    if (this.pending) this.writeEmitter.fire(this.pending);
    this.pending = '';
  }

  /** The user closed the terminal: stop the run. */
  close(): void {
    this.closed = true;
    terminals.delete(this.terminal);
    this.stop();
  }

  handleInput(data: string): void {
    if (data === '\x03') {
      this.write('^C\n');
      this.stop();
    }
  }

  /** Text with `\n` line ends (and ANSI colours). */
  write(text: string): void {
    if (this.closed) return;
    this.written += text;
    const out = text.replace(/\r?\n/g, '\r\n');
    if (this.opened) this.writeEmitter.fire(out);
    else this.pending += out;
  }

  /** Everything written so far, without colours (a test hook). */
  text(): string {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes
    return this.written.replace(/\x1b\[[0-9;]*m/g, '');
  }

  dispose(): void {
    terminals.delete(this.terminal);
    this.terminal.dispose();
  }
}

const terminals = new Map<vscode.Terminal, PlanTerminal>();

interface LogLink extends vscode.TerminalLink {
  file: string;
}

/** Clicking a module in a run's summary table opens its full log. */
export class PlanTerminalLinks implements vscode.TerminalLinkProvider<LogLink> {
  provideTerminalLinks(context: vscode.TerminalLinkContext): LogLink[] {
    const owner = terminals.get(context.terminal);
    if (!owner || owner.logs.size === 0) return [];
    const row = summaryRowModule(context.line, new Set(owner.logs.keys()));
    if (!row) return [];
    return [
      {
        startIndex: row.start,
        length: row.id.length,
        tooltip: `Open the full log of ${row.id}`,
        file: owner.logs.get(row.id)!,
      },
    ];
  }

  async handleTerminalLink(link: LogLink): Promise<void> {
    await vscode.window.showTextDocument(vscode.Uri.file(link.file), { preview: true });
  }
}
