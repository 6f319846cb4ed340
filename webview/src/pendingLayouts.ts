import type { Layout } from './layoutGraph';

/** An answer to a layout request: the layout, or why there is none. */
export type LayoutAnswer = { id: number; layout: Layout } | { id: number; error: string };

/**
 * Layout requests waiting for their answers, by id: the webview's to its worker or to the extension
 * host, the host's to its layout thread.
 */
export class PendingLayouts {
  private readonly waiting = new Map<number, { resolve(layout: Layout): void; reject(error: Error): void }>();
  private nextId = 1;

  /** A new request's id, and the layout it will be answered with. */
  add(): { id: number; answer: Promise<Layout> } {
    const id = this.nextId++;
    const answer = new Promise<Layout>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    return { id, answer };
  }

  answered(response: LayoutAnswer): void {
    const waiting = this.waiting.get(response.id);
    if (!waiting) return;
    this.waiting.delete(response.id);
    if ('error' in response) waiting.reject(new Error(response.error));
    else waiting.resolve(response.layout);
  }

  failAll(error: Error): void {
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
  }
}
