import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The commit checked out at `dir` (`git rev-parse HEAD`), or undefined outside a git repository. */
export async function gitHead(dir: string): Promise<string | undefined> {
  try {
    const { stdout } = await run('git', ['-C', dir, 'rev-parse', '--verify', '-q', 'HEAD'], { timeout: 10_000 });
    return stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}
