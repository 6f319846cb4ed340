import * as vscode from 'vscode';
import type { WebviewToPanel } from '../../server/src/protocol';

export type RenderedReport = Extract<WebviewToPanel, { type: 'rendered' }>;
export type OutputsReport = Extract<WebviewToPanel, { type: 'outputsShown' }>;

/** How many reports of each kind are kept, newest last. */
const KEPT = 50;

/**
 * What a graph panel's webview reports it has shown: its drawings, and the edges' outputs that came after
 * a graph. The panel's timings and the extension's tests read them.
 */
export class PanelReports implements vscode.Disposable {
  /** The drawings the webview reported, newest last. */
  readonly renders: RenderedReport[] = [];
  /** The outputs it put on its edges when they came after the graph, newest last. */
  readonly outputs: OutputsReport[] = [];
  private readonly emitter = new vscode.EventEmitter<void>();

  received(report: RenderedReport | OutputsReport): void {
    const list: (RenderedReport | OutputsReport)[] = report.type === 'rendered' ? this.renders : this.outputs;
    list.push(report);
    if (list.length > KEPT) list.splice(0, list.length - KEPT);
    this.emitter.fire();
  }

  /** The next drawing the webview reports for which `accept` holds (or one already reported). */
  waitForRender(accept: (report: RenderedReport) => boolean = () => true, timeoutMs = 30_000): Promise<RenderedReport> {
    return this.waitFor(() => this.renders.find(accept), 'a drawing', timeoutMs);
  }

  /** The next report of outputs shown for which `accept` holds (or one already reported). */
  waitForOutputs(accept: (report: OutputsReport) => boolean = () => true, timeoutMs = 30_000): Promise<OutputsReport> {
    return this.waitFor(() => this.outputs.find(accept), 'the edges’ outputs shown', timeoutMs);
  }

  dispose(): void {
    this.emitter.dispose();
  }

  private waitFor<T>(find: () => T | undefined, what: string, timeoutMs: number): Promise<T> {
    const found = find();
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        listener.dispose();
        reject(new Error(`the graph panel did not report ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      const listener = this.emitter.event(() => {
        const report = find();
        if (!report) return;
        clearTimeout(timer);
        listener.dispose();
        resolve(report);
      });
    });
  }
}
