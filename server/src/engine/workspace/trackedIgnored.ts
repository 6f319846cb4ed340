import path from 'node:path';
import { safeGitSync } from './safeGit';

/**
 * The files under `root` that Git tracks although a `.gitignore` matches them (added with `git add -f`:
 * a committed `.terraform.lock.hcl` in a repository that ignores lock files), and their folders up to
 * `root`. Git ignores no tracked file, and neither does the scan. Empty outside a Git work tree, or
 * without git: the ignore rules alone decide then. Git runs nothing the repository configures (`safeGit.ts`).
 */
export function trackedIgnored(root: string): ReadonlySet<string> {
  let stdout: string;
  try {
    stdout = safeGitSync(root, ['ls-files', '-z', '--cached', '--ignored', '--exclude-standard']);
  } catch {
    return new Set();
  }
  const tracked = new Set<string>();
  // As the scan names its files: the root as given, without a trailing separator.
  const top = path.normalize(root).replace(/(.)[\\/]+$/, '$1');
  for (const relative of stdout.split('\0')) {
    if (relative === '') continue;
    // Paths come relative to `root`, with `/`; the file and each folder above it, up to `root`.
    for (let file = path.join(top, relative); file !== top && !tracked.has(file); file = path.dirname(file))
      tracked.add(file);
  }
  return tracked;
}
