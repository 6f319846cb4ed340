import path from 'node:path';
import { compareIds } from '../graph';
import { neutralFilters, safeGit } from '../workspace';

/** Git could not tell what changed (not a repository, an unknown ref, no git). */
export class ChangedFilesError extends Error {}

export interface ChangedFilesOptions {
  /** Also count uncommitted changes (staged or not) and untracked files: the editor's view. */
  includeUncommitted: boolean;
}

/**
 * The files of the repository (relative to `root`, `/`-separated, sorted; `../…` for files outside it, which
 * its modules may read too) that changed since the merge base of `baseRef` and HEAD. Renames count as a
 * deletion and an addition, so the old path counts too. Git runs nothing the repository configures
 * (`safeGit.ts`): the work tree is compared with its filter drivers emptied.
 */
export async function changedFiles(root: string, baseRef: string, options: ChangedFilesOptions): Promise<string[]> {
  const problem = baseRefProblem(baseRef);
  if (problem !== undefined) throw new ChangedFilesError(problem);
  const base = (await git(root, ['merge-base', '--end-of-options', baseRef, 'HEAD'], baseRef)).trim();
  if (!/^[0-9a-f]{40,64}$/.test(base))
    throw new ChangedFilesError(`git merge-base gave no commit for '${baseRef}' and HEAD: ${JSON.stringify(base)}`);
  // The repository's top, as a path from `root` (not git's real path: `root` may be reached through a link).
  const top = path.resolve(root, (await git(root, ['rev-parse', '--show-cdup'])).trim());
  // The revisions after --end-of-options, the paths (none) after `--`: no argument is read as anything else.
  const diff = [
    'diff',
    '--no-ext-diff',
    '--no-textconv',
    '--name-only',
    '--no-renames',
    '-z',
    '--end-of-options',
    base,
  ];
  const lists = options.includeUncommitted
    ? [
        await git(top, [...diff, '--'], undefined, await neutralFilters(root)),
        await git(top, ['ls-files', '--others', '--exclude-standard', '-z']),
      ]
    : [await git(top, [...diff, 'HEAD', '--'])];
  const files = new Set<string>();
  for (const list of lists)
    for (const file of list.split('\0'))
      if (file !== '') files.add(path.relative(root, path.join(top, file)).split(path.sep).join('/'));
  return [...files].sort(compareIds);
}

/**
 * Why `ref` cannot be a base ref, if it cannot. A ref that starts with `-` names no revision (Git refuses
 * such names), and an option there changes what git does: `--octopus`, `--independent` or `--fork-point`
 * make `merge-base` print other commits, or none, and the pipeline silently empty.
 */
export function baseRefProblem(ref: string): string | undefined {
  return ref.startsWith('-')
    ? `'${ref}' is not a revision: a base ref cannot start with '-' (git would read it as an option)`
    : undefined;
}

async function git(root: string, args: string[], ref?: string, config?: readonly string[]): Promise<string> {
  try {
    return await safeGit(root, args, { maxBuffer: 256 * 1024 * 1024, config });
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    if (failure.code === 'ENOENT') throw new ChangedFilesError('git is not installed (or not on PATH)');
    const stderr = failure.stderr?.trim() ?? '';
    if (/not a git repository/i.test(stderr)) throw new ChangedFilesError(`${root} is not in a git repository`);
    if (ref !== undefined)
      throw new ChangedFilesError(
        `cannot find the merge base of '${ref}' and HEAD (is '${ref}' fetched? e.g. git fetch origin main): ${stderr}`,
      );
    throw new ChangedFilesError(`git ${args.join(' ')} failed: ${stderr}`);
  }
}
