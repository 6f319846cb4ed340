import { safeGit } from '../../server/src/engine/workspace';

/**
 * The commit checked out at `dir` (`git rev-parse HEAD`), or undefined outside a git repository. Git runs
 * nothing the repository configures (the engine's `safeGit`).
 */
export async function gitHead(dir: string): Promise<string | undefined> {
  try {
    const stdout = await safeGit(dir, ['rev-parse', '--verify', '-q', 'HEAD'], { timeout: 10_000 });
    return stdout.trim() || undefined;
  } catch {
    return undefined;
  }
}
