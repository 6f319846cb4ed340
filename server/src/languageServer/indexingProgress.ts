import path from 'node:path';
import type { Connection, WorkDoneProgressServerReporter } from 'vscode-languageserver/node';

/**
 * The progress the editor shows while a folder is indexed ("Indexing Terraform modules: 1,200/5,000 files"). Made
 * by the editor at the server's request; what the server does never waits for the editor's answer, which a window
 * still starting gives 0.1-0.3 s late.
 */
export class IndexingProgress {
  private readonly reporters = new Map<string, Promise<WorkDoneProgressServerReporter>>();
  /**
   * Each folder's last report while the client cannot yet make a progress: before its `initialized`, it has no
   * handler for the request (VS Code's client registers them after sending it). Undefined once it can.
   */
  private early: Map<string, [done: number, total: number]> | undefined = new Map();

  constructor(private readonly connection: Connection) {}

  /** The client has said `initialized`: the folders' progress is made now, from their last reports. */
  clientReady(): void {
    const early = this.early;
    this.early = undefined;
    for (const [root, [done, total]] of early ?? []) this.report(root, done, total);
  }

  /** `done` of `total` files read in `root` (a total of 0: the reading starts). */
  report(root: string, done: number, total: number): void {
    if (this.early) {
      this.early.set(root, [done, total]);
      return;
    }
    let reporter = this.reporters.get(root);
    if (!reporter) {
      reporter = this.connection.window.createWorkDoneProgress().then((created) => {
        created.begin('Terrace', 0, `Indexing Terraform modules in ${path.basename(root)}`, false);
        return created;
      });
      this.reporters.set(root, reporter);
    }
    const message =
      total === 0
        ? 'Indexing Terraform modules: reading the files'
        : `Indexing Terraform modules: ${grouped(done)}/${grouped(total)} files`;
    const percentage = total === 0 ? 0 : Math.round((done / total) * 100);
    void reporter.then((created) => created.report(percentage, message)).catch(() => undefined);
  }

  /** The folder is indexed: its progress ends once the editor has made it. */
  end(root: string): void {
    // Indexed before the client could show it: no progress.
    this.early?.delete(root);
    const reporter = this.reporters.get(root);
    if (!reporter) return;
    this.reporters.delete(root);
    void reporter.then((created) => created.done()).catch(() => undefined);
  }
}

/**
 * A count with its thousands grouped by commas, as `toLocaleString('en-US')` writes it but without ICU, whose
 * number format takes 18-40 ms to load on its first use, in a fresh server's way to its first problems.
 */
export function grouped(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+$)/g, ',');
}
