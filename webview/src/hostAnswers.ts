/** How long a hover card waits for an answer before it keeps what it has. */
const ANSWER_WITHIN_MS = 5_000;

/**
 * What a hover card asks of the extension host, by id, and the answers as they come (the texts of
 * modules' unresolved references, a module's state address): the graph's message carries neither, only
 * what the drawing needs. `fallback` when the host does not answer in time.
 */
export class HostAnswers<T> {
  private readonly waiting = new Map<number, (answer: T) => void>();
  private nextId = 1;

  constructor(private readonly fallback: T) {}

  /** `ask` posts the question with its id. */
  request(ask: (id: number) => void): Promise<T> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve(this.fallback);
      }, ANSWER_WITHIN_MS);
      this.waiting.set(id, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      ask(id);
    });
  }

  answered(id: number, answer: T): void {
    const done = this.waiting.get(id);
    this.waiting.delete(id);
    done?.(answer);
  }
}
