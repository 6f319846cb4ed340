import type { Layout, LayoutInput } from './layoutGraph';
import type { LayoutRequest, LayoutResponse } from './layoutWorker';

/**
 * Runs layouts in the layout worker. A webview cannot start a worker from its resource URL (another
 * origin), so the script is fetched and started from a blob URL. Where even that fails, the same
 * script is loaded into the page and lays out on the main thread.
 */
export class LayoutClient {
  private worker: Worker | undefined;
  private inPage: ((input: LayoutInput) => Promise<Layout>) | undefined;
  private readonly pending = new Map<number, { resolve(layout: Layout): void; reject(error: Error): void }>();
  private nextId = 1;
  private readonly started: Promise<void>;

  constructor(
    private readonly scriptUrl: string,
    private readonly nonce: string,
    private readonly onProblem: (message: string) => void,
  ) {
    this.started = this.start();
  }

  /** Whether layouts run in a worker (known once the first layout is done). */
  get inWorker(): boolean {
    return this.worker !== undefined;
  }

  async layout(input: LayoutInput): Promise<Layout> {
    await this.started;
    if (this.inPage) return this.inPage(input);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker!.postMessage({ id, input } satisfies LayoutRequest);
    });
  }

  private async start(): Promise<void> {
    try {
      const response = await fetch(this.scriptUrl);
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      const blob = new Blob([await response.text()], { type: 'text/javascript' });
      const worker = new Worker(URL.createObjectURL(blob));
      worker.onmessage = (event: MessageEvent<LayoutResponse>) => this.answered(event.data);
      worker.onerror = (event) => {
        event.preventDefault();
        this.failAll(new Error(`layout worker: ${event.message}`));
      };
      this.worker = worker;
    } catch (error) {
      this.onProblem(`the layout worker could not start (${String(error)}); laying out in the page`);
      this.inPage = await this.loadIntoPage();
    }
  }

  private answered(response: LayoutResponse): void {
    const waiting = this.pending.get(response.id);
    if (!waiting) return;
    this.pending.delete(response.id);
    if ('error' in response) waiting.reject(new Error(response.error));
    else waiting.resolve(response.layout);
  }

  private failAll(error: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }

  private loadIntoPage(): Promise<(input: LayoutInput) => Promise<Layout>> {
    return new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.nonce = this.nonce;
      script.src = this.scriptUrl;
      script.onload = () => {
        const layout = (globalThis as { terraceLayout?: (input: LayoutInput) => Promise<Layout> }).terraceLayout;
        if (layout) resolve(layout);
        else reject(new Error('the layout script did not load'));
      };
      script.onerror = () => reject(new Error(`could not load ${this.scriptUrl}`));
      document.head.append(script);
    });
  }
}
