import type { Layout, LayoutInput } from './layoutGraph';
import type { LayoutRequest, LayoutResponse } from './layoutWorker';
import { PendingLayouts } from './pendingLayouts';

/** Where a layout was made: in the extension host, the webview's worker or the page. */
export type LayoutPlace = 'host' | 'worker' | 'page';

/** Lays a view out in the extension host; rejects when the host cannot. */
export type HostLayout = (input: LayoutInput) => Promise<Layout>;

/**
 * Runs layouts: in the extension host when the page offers it (VS Code's panel: elkjs is warm there
 * before the page has loaded, and recent layouts are kept across panels), else in the layout worker.
 * A webview cannot start a worker from its resource URL (another origin), so the worker's script is
 * fetched and started from a blob URL; where even that fails, the same script is loaded into the page
 * and lays out on the main thread. The worker starts only when first needed.
 */
export class LayoutClient {
  private worker: Worker | undefined;
  private inPage: ((input: LayoutInput) => Promise<Layout>) | undefined;
  private readonly pending = new PendingLayouts();
  private started: Promise<void> | undefined;
  private lastWhere: LayoutPlace = 'worker';

  constructor(
    private readonly scriptUrl: string,
    private readonly nonce: string,
    private readonly onProblem: (message: string) => void,
    private host: HostLayout | undefined,
  ) {
    if (!host) this.started = this.start();
  }

  /** Where the last layout ran. */
  get where(): LayoutPlace {
    return this.lastWhere;
  }

  async layout(input: LayoutInput): Promise<Layout> {
    if (this.host) {
      try {
        const layout = await this.host(input);
        this.lastWhere = 'host';
        return layout;
      } catch (error) {
        // The host could not: the webview lays out by itself from now on.
        this.onProblem(`the extension host could not lay the graph out (${String(error)}); laying out in the webview`);
        this.host = undefined;
      }
    }
    this.started ??= this.start();
    await this.started;
    if (this.inPage) {
      this.lastWhere = 'page';
      return this.inPage(input);
    }
    this.lastWhere = 'worker';
    const { id, answer } = this.pending.add();
    this.worker!.postMessage({ id, input } satisfies LayoutRequest);
    return answer;
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
        worker.onmessage = (answer: MessageEvent<LayoutResponse>) => {
          if (!('ready' in answer.data)) this.pending.answered(answer.data);
        };
        worker.onerror = (answer) => {
          answer.preventDefault();
          this.pending.failAll(new Error(`layout worker: ${answer.message}`));
        };
        resolve(worker);
      };
    });
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
