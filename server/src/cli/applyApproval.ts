import { createInterface, type Interface } from 'node:readline';

/**
 * `terrace apply` without `--auto-approve`: asks before it applies each module's plan, as `terraform apply`
 * does, one question at a time however many modules plan at once. While a question waits, what the run
 * prints is held and then written in order, so that the question stays the terminal's last line.
 */
export interface ApplyApproval {
  /** Where the run prints. */
  out(text: string): void;
  /** Whether to apply `id`'s plan (`plan`: what it does, `1 to add, …`): only `yes` approves. */
  ask(id: string, plan: string): Promise<boolean>;
  /** Lets go of the input, and writes what is held. */
  close(): void;
}

export function applyApproval(
  out: (text: string) => void,
  prompt: (text: string) => void,
  input: NodeJS.ReadableStream = process.stdin,
): ApplyApproval {
  let held: string[] | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  // Lines typed before their question is asked are its answers, in order.
  const typed: string[] = [];
  let waiting: ((line: string | undefined) => void) | undefined;
  let lines: Interface | undefined;
  let closed = false;
  const nextLine = (): Promise<string | undefined> => {
    if (typed.length > 0) return Promise.resolve(typed.shift());
    if (closed) return Promise.resolve(undefined);
    lines ??= createInterface({ input, terminal: false })
      .on('line', (line) => {
        if (waiting) waiting(line);
        else typed.push(line);
      })
      .on('close', () => {
        closed = true;
        waiting?.(undefined);
      });
    return new Promise((resolve) => {
      waiting = (line) => {
        waiting = undefined;
        resolve(line);
      };
    });
  };
  const release = () => {
    const text = held?.join('') ?? '';
    held = undefined;
    if (text) out(text);
  };
  const question = async (id: string, plan: string): Promise<boolean> => {
    held = [];
    prompt(
      `\nApply the plan of ${id} (${plan}; its lines are marked ${id} above)?\n  Only 'yes' will be accepted to approve.\n  Enter a value: `,
    );
    // The input ended, or the run was interrupted: not approved, and nothing more is applied.
    const answer = await nextLine();
    if (answer === undefined) prompt('\n');
    release();
    return answer?.trim() === 'yes';
  };
  return {
    out: (text) => {
      if (held) held.push(text);
      else out(text);
    },
    ask: (id, plan) => {
      const answer = queue.then(() => question(id, plan));
      queue = answer;
      return answer;
    },
    close: () => {
      closed = true;
      lines?.close();
      waiting?.(undefined);
      release();
    },
  };
}
