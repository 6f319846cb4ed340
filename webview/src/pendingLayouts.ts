import type { Layout } from './layoutGraph';

/** An answer to a layout request: the layout, or why there is none. */
export type LayoutAnswer = { id: number; layout: Layout } | { id: number; error: string };

/** Requests to another thread waiting for their answers, by id. */
export class PendingAnswers<T> {
  private readonly waiting = new Map<number, { resolve(value: T): void; reject(error: Error): void }>();
  private nextId = 1;

  /** A new request's id, and what it will be answered with. */
  add(): { id: number; answer: Promise<T> } {
    const id = this.nextId++;
    const answer = new Promise<T>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    return { id, answer };
  }

  /** The request `id` is answered: with a value, or why there is none. */
  settle(id: number, outcome: { value: T } | { error: string }): void {
    const waiting = this.waiting.get(id);
    if (!waiting) return;
    this.waiting.delete(id);
    if ('error' in outcome) waiting.reject(new Error(outcome.error));
    else waiting.resolve(outcome.value);
  }

  failAll(error: Error): void {
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
  }
}

/**
 * Layout requests waiting for their answers, by id: the webview's to its worker or to the extension
 * host, the host's to its layout thread.
 */
export class PendingLayouts extends PendingAnswers<Layout> {
  answered(response: LayoutAnswer): void {
    this.settle(response.id, 'error' in response ? response : { value: response.layout });
  }
}
