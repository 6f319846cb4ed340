import type * as vscode from 'vscode';

/** How long the diagnostics of one file wait for other files' to go to VS Code with them. */
const BATCH_MS = 10;

/** What has been handed to VS Code: how many times, and how many files' diagnostics in all. */
export interface DiagnosticsHandedOver {
  batches: number;
  files: number;
}

/**
 * The files' diagnostics handed to VS Code together, a few milliseconds' worth at a time, not a file at a time.
 * Each `set` of one file is a message to the workbench and a change that its views take in; at 11,000 units
 * the server publishes the problems of 4,000 files at once, and a panel opened meanwhile waited seconds for
 * the workbench to start its page.
 */
export class DiagnosticsBatch {
  private readonly pending = new Map<string, [vscode.Uri, vscode.Diagnostic[]]>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly handedOver: DiagnosticsHandedOver = { batches: 0, files: 0 };

  constructor(
    /** The client's collection; undefined while it is stopped (what was pending is dropped). */
    private readonly collection: () => vscode.DiagnosticCollection | undefined,
    /** Told after each batch is handed over. */
    private readonly onHandedOver: () => void,
  ) {}

  /** A file's diagnostics now: a later set for the same file before the batch goes replaces this one. */
  set(uri: vscode.Uri, diagnostics: vscode.Diagnostic[]): void {
    const key = uri.toString();
    // Deleted first, so that the files go in the order of their latest diagnostics.
    this.pending.delete(key);
    this.pending.set(key, [uri, diagnostics]);
    this.timer ??= setTimeout(() => this.flush(), BATCH_MS);
  }

  counts(): DiagnosticsHandedOver {
    return { ...this.handedOver };
  }

  private flush(): void {
    this.timer = undefined;
    const entries = [...this.pending.values()];
    this.pending.clear();
    const collection = this.collection();
    if (!collection || entries.length === 0) return;
    // One entry per file: VS Code merges the entries of a file given twice.
    collection.set(entries);
    this.handedOver.batches++;
    this.handedOver.files += entries.length;
    this.onHandedOver();
  }
}
