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
      this.worker = await this.startWorker(URL.createObjectURL(blob));
    } catch (error) {
      this.onProblem(`the layout worker could not start (${String(error)}); laying out in the page`);
      this.inPage = await this.loadIntoPage();
    }
  }

  /** A worker that said it runs; a Content-Security-Policy that forbids it shows as a violation or an error, not as an exception. */
  private startWorker(url: string): Promise<Worker> {
    return new Promise((resolve, reject) => {
      const worker = new Worker(url);
      const fail = (why: string) => {
        clearTimeout(timer);
        document.removeEventListener('securitypolicyviolation', violation);
        worker.terminate();
        reject(new Error(why));
      };
      const violation = (event: SecurityPolicyViolationEvent) => {
        if (event.effectiveDirective === 'worker-src' || event.effectiveDirective === 'script-src')
          fail(`blocked by ${event.effectiveDirective}`);
      };
      document.addEventListener('securitypolicyviolation', violation);
      const timer = setTimeout(() => fail('no answer within 15 s'), 15_000);
      worker.onerror = (event) => {
        event.preventDefault();
        fail(event.message || 'error');
      };
      worker.onmessage = (event: MessageEvent<LayoutResponse>) => {
        if (!('ready' in event.data)) return;
        clearTimeout(timer);
        document.removeEventListener('securitypolicyviolation', violation);
        worker.onmessage = (answer: MessageEvent<LayoutResponse>) => this.answered(answer.data);
        worker.onerror = (answer) => {
          answer.preventDefault();
          this.failAll(new Error(`layout worker: ${answer.message}`));
        };
        resolve(worker);
      };
    });
  }

  private answered(response: LayoutResponse): void {
    if ('ready' in response) return;
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
