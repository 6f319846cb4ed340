import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PackedPanelModel } from '../../server/src/protocol';
import {
  type AheadLayout,
  fitsWidth,
  type Layout,
  type LayoutInput,
  layoutKey,
  shapeKey,
} from '../../webview/src/layoutGraph';
import type { LayoutResponse } from '../../webview/src/layoutWorker';
import { PendingAnswers, PendingLayouts } from '../../webview/src/pendingLayouts';
import { LayoutQueue } from './layoutQueue';
import { LayoutStore } from './layoutStore';
import type { ChoiceAnswer, ChoiceRequest, WarmUpRequest } from './layoutThread';
import type { PanelPlacement, PanelSize } from './openingViews';

/** How many layouts the host keeps: the views of a few panels, opened and reopened. */
const KEPT_LAYOUTS = 16;

/**
 * The graph panel's layouts, made in the extension host (`layoutThread.ts`): started with the language
 * client (or, at the latest, when a panel is about to open), so elkjs is loaded before the first webview has
 * loaded (and warmed by the views laid out ahead of it), and kept for the next panel and, in
 * the workspace's storage (`layoutStore.ts`), for the next window. A panel opened on the same view
 * (same nodes, columns and edges) is drawn from the kept layout at once, without elkjs. One per
 * extension host.
 */
export class LayoutService {
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;
  private readonly pending = new PendingLayouts();
  private readonly queue = new LayoutQueue((input) => this.fromThread(input));
  private readonly kept = new Map<string, Layout>();
  /** Layouts made ahead of a page's request, by the shape they lay out (`shapeKey`): the last panel's guesses. */
  private readonly ahead = new Map<string, Promise<Layout | undefined>>();
  /** Those of them made already, by shape: a new page gets them with its graph (`madeAhead`). */
  private readonly aheadMade = new Map<string, Layout>();
  private readonly aheadKeys = new Set<string>();
  /** The views chosen in the thread for each graph (`layoutAheadOf`), by where its panel opens, and made ahead. */
  private readonly chosen = new WeakMap<PackedPanelModel, Map<string, Promise<void>>>();
  /** Choices the thread has not answered yet (`ChoiceRequest`). */
  private readonly choices = new PendingAnswers<LayoutInput[]>();
  private disposed = false;
  /** Whether the thread has said it is ready (elkjs loaded). */
  private threadReady = false;
  /** How many requests a layout made ahead answered: read by the extension's tests. */
  answeredAhead = 0;

  constructor(
    private readonly script: string,
    private readonly store?: LayoutStore,
    /** The folder of the thread's code cache (`codeCache.ts`), where the extension has one. */
    private readonly codeCacheFolder?: string,
    /** Where a thread that failed is told of (the extension's log). */
    private readonly warn?: (message: string) => void,
  ) {}

  /**
   * The extension's layout thread, its code cached in `codeCacheFolder`; its layouts kept in `storageFolder`
   * (the workspace's storage) too, if there is one.
   */
  static forExtension(
    extensionPath: string,
    storageFolder: string | undefined,
    codeCacheFolder: string,
    warn: (message: string) => void,
  ): LayoutService {
    const script = path.join(extensionPath, 'dist', 'layoutThread.js');
    const store = storageFolder ? new LayoutStore(path.join(storageFolder, 'graph-layouts.json'), script) : undefined;
    return new LayoutService(script, store, codeCacheFolder, warn);
  }

  /**
   * Starts the thread if it has not, for a caller that does not wait for it (the extension's activation, a panel
   * about to open): true once elkjs is loaded, false if the thread failed (told of where the service warns).
   */
  startSoon(): Promise<boolean> {
    return this.start().then(
      () => true,
      () => false,
    );
  }

  /** Starts the thread (once), elkjs loaded in it; a layout asked for meanwhile waits for it. */
  private start(): Promise<void> {
    if (this.disposed) return Promise.reject(new Error('the layout thread was stopped'));
    void this.store?.open();
    this.ready ??= new Promise<void>((resolve, reject) => {
      const worker = new Worker(threadEntry(this.script, this.codeCacheFolder), { eval: true });
      // The extension host may end while the thread still runs: it must not keep it alive.
      worker.unref();
      worker.on('message', (message: LayoutResponse | ChoiceAnswer) => {
        if ('ready' in message) {
          this.threadReady = true;
          resolve();
        } else if ('choice' in message)
          this.choices.settle(message.choice, 'error' in message ? message : { value: message.inputs });
        else this.pending.answered(message);
      });
      worker.on('error', (error) => {
        this.warn?.(`the graph panel's layout thread failed: ${error.message}`);
        reject(error);
        this.failAll(error);
      });
      worker.on('exit', () => {
        this.worker = undefined;
        this.ready = undefined;
        this.threadReady = false;
        this.failAll(new Error('the layout thread stopped'));
      });
      this.worker = worker;
    });
    return this.ready;
  }

  /**
   * A graph or a page is on its way: elkjs warms up in the thread meanwhile (`WarmUpRequest`; the thread does it
   * once), if the thread is ready now. One still loading elkjs would warm up only when the work it waits for is
   * there: in front of it.
   */
  warmUp(): void {
    if (!this.threadReady) return;
    this.worker?.postMessage({ warmUp: true } satisfies WarmUpRequest);
  }

  /**
   * Starts laying out views a page is about to ask for (`openingViews.ts`), in turn, while it loads. A
   * request of the same shape is answered with one (`layout`) if its nodes are as wide as the page
   * measured them, or a little wider: the page draws the layout's width.
   */
  layoutAhead(inputs: readonly LayoutInput[]): void {
    for (const input of inputs) {
      const shape = shapeKey(input);
      const key = layoutKey(input, shape);
      // Made or being made already (the folder's first graph was laid out ahead of any panel).
      if (this.ahead.has(shape) && this.aheadKeys.has(key)) continue;
      const kept = this.kept.get(key);
      const made = kept ? Promise.resolve(kept) : this.make(input, key, false).catch(() => undefined);
      this.ahead.set(shape, made);
      this.aheadMade.delete(shape);
      void made.then((layout) => {
        if (layout && this.ahead.get(shape) === made) this.aheadMade.set(shape, layout);
      });
      this.aheadKeys.add(key);
    }
    while (this.ahead.size > KEPT_LAYOUTS) {
      const oldest = this.ahead.keys().next().value!;
      this.ahead.delete(oldest);
      this.aheadMade.delete(oldest);
    }
    while (this.aheadKeys.size > KEPT_LAYOUTS) this.aheadKeys.delete(this.aheadKeys.keys().next().value!);
  }

  /**
   * Chooses in the thread the views a new page of `graph` may open with where its panel opens (`openingViews.ts`),
   * then lays them out ahead (`layoutAhead`). Once per graph and place: the extension host's thread only posts it.
   * Rejects, the first time, if the thread could not choose: the page then asks for its view as without.
   */
  layoutAheadOf(graph: PackedPanelModel, placement: PanelPlacement, known?: PanelSize): Promise<void> {
    let byPlace = this.chosen.get(graph);
    if (!byPlace) {
      byPlace = new Map();
      this.chosen.set(graph, byPlace);
    }
    const place = known ? `${placement} ${known.width}x${known.height}` : placement;
    const made = byPlace.get(place);
    if (made) return made;
    const chosen = this.choose({ graph, placement, ...(known ? { known } : {}) }).then((inputs) =>
      this.layoutAhead(inputs),
    );
    // Kept settled either way: a new page waits for it (`aheadDone`), not for its failure.
    byPlace.set(
      place,
      chosen.catch(() => undefined),
    );
    return chosen;
  }

  /** Whether views were chosen for `graph` (`layoutAheadOf`): its page may take layouts made ahead. */
  choseFor(graph: PackedPanelModel): boolean {
    return this.chosen.has(graph);
  }

  /**
   * The layouts made ahead that are made by now, for a new page to take with its graph: the page would
   * otherwise ask for one, and wait for the answer until VS Code has loaded it.
   */
  madeAhead(): AheadLayout[] {
    return [...this.aheadMade].map(([shape, layout]) => ({ shape, layout }));
  }

  /** Resolves when the views being chosen are, and the layouts being made ahead are made (or could not be). */
  async aheadDone(graph?: PackedPanelModel): Promise<void> {
    const choices = graph ? this.chosen.get(graph)?.values() : undefined;
    await Promise.all(choices ?? []);
    await Promise.all(this.ahead.values());
  }

  /** A layout: the one kept for the same view or made ahead for its shape, else a new one (kept in turn). */
  async layout(input: LayoutInput): Promise<Layout> {
    const shape = shapeKey(input);
    const key = layoutKey(input, shape);
    const kept = this.kept.get(key);
    if (kept) {
      // Most recently used last: the oldest goes first.
      this.kept.delete(key);
      this.kept.set(key, kept);
      if (this.aheadKeys.has(key)) this.answeredAhead++;
      return { ...kept, ms: 0 };
    }
    this.queue.hurry(shape);
    const ahead = await this.ahead.get(shape);
    if (ahead && fitsWidth(ahead, input)) {
      this.answeredAhead++;
      this.keep(key, ahead);
      return ahead;
    }
    return this.make(input, key, true);
  }

  /** A layout from the workspace's storage, else from the thread (`urgent`: a page waits for it); kept in turn. */
  private async make(input: LayoutInput, key: string, urgent: boolean): Promise<Layout> {
    const stored = await this.store?.get(key);
    if (stored) {
      this.keep(key, stored);
      return { ...stored, ms: 0 };
    }
    const layout = await this.queue.add(input, urgent);
    this.keep(key, layout);
    void this.store?.put(key, layout);
    return layout;
  }

  private async choose(request: Omit<ChoiceRequest, 'choice'>): Promise<LayoutInput[]> {
    await this.start();
    const { id, answer } = this.choices.add();
    this.worker!.postMessage({ choice: id, ...request } satisfies ChoiceRequest);
    return answer;
  }

  private failAll(error: Error): void {
    this.pending.failAll(error);
    this.choices.failAll(error);
  }

  private async fromThread(input: LayoutInput): Promise<Layout> {
    await this.start();
    const { id, answer } = this.pending.add();
    this.worker!.postMessage({ id, input });
    return answer;
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
    // Layouts still waiting (made ahead for a panel never opened) must not start the thread again.
    this.disposed = true;
    void this.store?.flush();
    void this.worker?.terminate();
  }
}

/**
 * The thread's code: its script, loaded by `dist/codeCache.js` beside it with its code cache, written after its
 * first layouts: elkjs loads in half the time or less, and lays out its first view faster, its functions compiled
 * already. Without a folder (a service of no extension, the tests'), with Node's compile cache where the
 * extension host's Node has one.
 */
function threadEntry(script: string, codeCacheFolder: string | undefined): string {
  const loader = path.join(path.dirname(script), 'codeCache.js');
  return `require(${JSON.stringify(loader)}).loadAndTell(${JSON.stringify(script)}, ${JSON.stringify(codeCacheFolder)});`;
}
