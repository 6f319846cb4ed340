import path from 'node:path';
import type { Connection, WorkDoneProgressServerReporter } from 'vscode-languageserver/node';

/**
 * The progress the editor shows while a folder is indexed ("Indexing Terraform modules: 1,200/5,000 files"). Made
 * by the editor at the server's request; what the server does never waits for the editor's answer, which a window
 * still starting gives 0.1-0.3 s late.
 */
export class IndexingProgress {
  private readonly reporters = new Map<string, Promise<WorkDoneProgressServerReporter>>();

  constructor(private readonly connection: Connection) {}

  /** `done` of `total` files read in `root` (a total of 0: the reading starts). */
  report(root: string, done: number, total: number): void {
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
