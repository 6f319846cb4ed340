import { type Layout, type LayoutInput, shapeKey } from '../../webview/src/layoutGraph';

interface Job {
  input: LayoutInput;
  shape: string;
  /** A page waits for it (not a layout made ahead). */
  urgent: boolean;
  resolve(layout: Layout): void;
  reject(error: unknown): void;
}

/**
 * The layouts waiting for the layout thread, made one at a time: elkjs in one thread started on
 * several at once finishes them all together, and a page's request waits for the last. A page's
 * request goes before the layouts made ahead of one (`LayoutService.layoutAhead`), and one of those
 * a page now asks for goes with it (`hurry`).
 */
export class LayoutQueue {
  private readonly jobs: Job[] = [];
  private running = false;

  constructor(private readonly make: (input: LayoutInput) => Promise<Layout>) {}

  add(input: LayoutInput, urgent: boolean): Promise<Layout> {
    return new Promise<Layout>((resolve, reject) => {
      this.insert({ input, shape: shapeKey(input), urgent, resolve, reject });
      void this.next();
    });
  }

  /** A page asks for a view laid out ahead: if still waiting, it is made next. */
  hurry(shape: string): void {
    const at = this.jobs.findIndex((job) => job.shape === shape && !job.urgent);
    if (at < 0) return;
    const [job] = this.jobs.splice(at, 1);
    this.insert({ ...job!, urgent: true });
  }

  /** After the urgent jobs already waiting, before the others. */
  private insert(job: Job): void {
    const firstLater = job.urgent ? this.jobs.findIndex((waiting) => !waiting.urgent) : -1;
    if (firstLater < 0) this.jobs.push(job);
    else this.jobs.splice(firstLater, 0, job);
  }

  private async next(): Promise<void> {
    if (this.running) return;
    const job = this.jobs.shift();
    if (!job) return;
    this.running = true;
    try {
      job.resolve(await this.make(job.input));
    } catch (error) {
      job.reject(error);
    } finally {
      this.running = false;
      void this.next();
    }
  }
}
