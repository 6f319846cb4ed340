import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { type Layout, type LayoutInput, layoutKey } from '../../webview/src/layoutGraph';
import type { LayoutResponse } from '../../webview/src/layoutWorker';
import { PendingLayouts } from '../../webview/src/pendingLayouts';
import { LayoutStore } from './layoutStore';

/** How many layouts the host keeps: the views of a few panels, opened and reopened. */
const KEPT_LAYOUTS = 16;

/**
 * The graph panel's layouts, made in the extension host (`layoutThread.ts`): started with the language
 * client (or, at the latest, when a panel is about to open), so elkjs is warm before the first webview has
 * loaded, and kept for the next panel and, in
 * the workspace's storage (`layoutStore.ts`), for the next window. A panel opened on the same view
 * (same nodes, columns and edges) is drawn from the kept layout at once, without elkjs. One per
 * extension host.
 */
export class LayoutService {
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;
  private readonly pending = new PendingLayouts();
  private readonly kept = new Map<string, Layout>();

  constructor(
    private readonly script: string,
    private readonly store?: LayoutStore,
  ) {}

  /** The extension's layout thread; its layouts kept in `storageFolder` (the workspace's storage) too, if there is one. */
  static forExtension(extensionPath: string, storageFolder: string | undefined): LayoutService {
    const script = path.join(extensionPath, 'dist', 'layoutThread.js');
    const store = storageFolder ? new LayoutStore(path.join(storageFolder, 'graph-layouts.json'), script) : undefined;
    return new LayoutService(script, store);
  }

  /** Starts the thread (once) and warms elkjs up; a layout asked for meanwhile waits for it. */
  warmUp(): Promise<void> {
    void this.store?.open();
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
    const stored = await this.store?.get(key);
    if (stored) {
      this.keep(key, stored);
      return { ...stored, ms: 0 };
    }
    await this.warmUp();
    const { id, answer } = this.pending.add();
    this.worker!.postMessage({ id, input });
    const layout = await answer;
    this.keep(key, layout);
    void this.store?.put(key, layout);
    return layout;
  }

  /** The layout kept for a view, if it is kept in this window. */
  keptLayout(key: string): Layout | undefined {
    const kept = this.kept.get(key);
    return kept && { ...kept, ms: 0 };
  }

  /** Writes the layouts kept for the next window now, rather than after the usual quiet moment. */
  async flush(): Promise<void> {
    await this.store?.flush();
  }

  private keep(key: string, layout: Layout): void {
    this.kept.set(key, layout);
    if (this.kept.size > KEPT_LAYOUTS) this.kept.delete(this.kept.keys().next().value!);
  }

  dispose(): void {
    void this.store?.flush();
    void this.worker?.terminate();
  }
}
