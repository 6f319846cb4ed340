import type { PanelProblem, PanelToWebview, WebviewToPanel } from '../../server/src/protocol';

/** How long a hover card waits for the texts before it keeps its counts alone. */
const ANSWER_WITHIN_MS = 5_000;

/**
 * The texts of modules' unresolved and ambiguous references, asked of the extension host (`problems`
 * messages) when a hover card lists them: the graph's message carries only their counts.
 */
export class HostProblems {
  private readonly waiting = new Map<number, (problems: PanelProblem[]) => void>();
  private nextId = 1;

  constructor(private readonly post: (message: WebviewToPanel) => void) {}

  /** The first `limit` of `modules`' problems, each module's in turn; none when the host does not answer. */
  request(modules: string[], limit: number): Promise<PanelProblem[]> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve([]);
      }, ANSWER_WITHIN_MS);
      this.waiting.set(id, (problems) => {
        clearTimeout(timer);
        resolve(problems);
      });
      this.post({ type: 'problems', id, modules, limit });
    });
  }

  answered(message: Extract<PanelToWebview, { type: 'problems' }>): void {
    const done = this.waiting.get(message.id);
    this.waiting.delete(message.id);
    done?.(message.problems);
  }
}
