import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { type Layout, type LayoutInput, layoutKey } from '../../webview/src/layoutGraph';
import type { LayoutResponse } from '../../webview/src/layoutWorker';
import { PendingLayouts } from '../../webview/src/pendingLayouts';

/** How many layouts the host keeps: the views of a few panels, opened and reopened. */
const KEPT_LAYOUTS = 16;

/**
 * The graph panel's layouts, made in the extension host (`layoutThread.ts`): started when a panel is
 * about to open, so elkjs is warm before the webview has loaded, and kept for the next panel. A panel
 * reopened on the same view (same nodes, columns and edges) is drawn from the kept layout at once,
 * without elkjs. One per extension host.
 */
export class LayoutService {
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;
  private readonly pending = new PendingLayouts();
  private readonly kept = new Map<string, Layout>();

  constructor(private readonly script: string) {}

  static forExtension(extensionPath: string): LayoutService {
    return new LayoutService(path.join(extensionPath, 'dist', 'layoutThread.js'));
  }

  /** Starts the thread (once) and warms elkjs up; a layout asked for meanwhile waits for it. */
  warmUp(): Promise<void> {
    this.ready ??= new Promise<void>((resolve, reject) => {
      const worker = new Worker(this.script);
      // The extension host may end while the thread still runs: it must not keep it alive.
      worker.unref();
      worker.on('message', (message: LayoutResponse) => {
        if ('ready' in message) resolve();
        else this.pending.answered(message);
      });
      worker.on('error', (error) => {
        reject(error);
        this.pending.failAll(error);
      });
      worker.on('exit', () => {
        this.worker = undefined;
        this.ready = undefined;
        this.pending.failAll(new Error('the layout thread stopped'));
      });
      this.worker = worker;
    });
    return this.ready;
  }

  /** A layout: the one kept for the same view, else a new one from the thread (kept in turn). */
  async layout(input: LayoutInput): Promise<Layout> {
    const key = layoutKey(input);
    const kept = this.kept.get(key);
    if (kept) {
      // Most recently used last: the oldest goes first.
      this.kept.delete(key);
      this.kept.set(key, kept);
      return { ...kept, ms: 0 };
    }
    await this.warmUp();
    const { id, answer } = this.pending.add();
    this.worker!.postMessage({ id, input });
    const layout = await answer;
    this.kept.set(key, layout);
    if (this.kept.size > KEPT_LAYOUTS) this.kept.delete(this.kept.keys().next().value!);
    return layout;
  }

  dispose(): void {
    void this.worker?.terminate();
  }
}
