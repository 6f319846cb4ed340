import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { closure } from './closure';
import { compareIds } from './cycles';
import { localSource } from './discovery';
import type { FileFacts } from './fileFacts';
import type { AnalysisResult } from './workspaceAnalysis';

const run = promisify(execFile);

/** Git could not tell what changed (not a repository, an unknown ref, no git). */
export class ChangedFilesError extends Error {}

export interface ChangedFilesOptions {
  /** Also count uncommitted changes (staged or not) and untracked files: the editor's view. */
  includeUncommitted: boolean;
}

/**
 * The files (relative to `root`, `/`-separated, sorted) that changed since the merge base of
 * `baseRef` and HEAD, as git sees them from `root` (files outside `root` are left out). Renames
 * count as a deletion and an addition, so the old folder counts too.
 */
export async function changedFiles(root: string, baseRef: string, options: ChangedFilesOptions): Promise<string[]> {
  const base = (await git(root, ['merge-base', baseRef, 'HEAD'], baseRef)).trim();
  const diff = ['diff', '--name-only', '--no-renames', '--relative', '-z', base];
  const lists = [await git(root, options.includeUncommitted ? diff : [...diff, 'HEAD'])];
  if (options.includeUncommitted) lists.push(await git(root, ['ls-files', '--others', '--exclude-standard', '-z']));
  const files = new Set(lists.flatMap((list) => list.split('\0').filter((file) => file !== '')));
  return [...files].sort(compareIds);
}

async function git(root: string, args: string[], ref?: string): Promise<string> {
  try {
    const { stdout } = await run('git', ['-C', root, ...args], { maxBuffer: 256 * 1024 * 1024 });
    return stdout;
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

/** The facts of a file as the analysis read them (a `WorkspaceAnalysis`). */
export interface FactsSource {
  factsOf(file: string): FileFacts | undefined;
}

export interface AffectedModules {
  /** Modules with a changed file in their folder (the deepest module folder holding the file). */
  changed: string[];
  /** Roots that call (directly or through other local modules) a changed library module. */
  viaLibraries: string[];
  /** The modules the pipeline runs: the two above plus everything that depends on them, transitively. */
  affected: Set<string>;
}

/**
 * Which modules a change touches. `files` are relative to the analysis root; `libraryModules`
 * are folders whose every change counts for all roots calling into them (local child modules
 * are found from the roots' `module` calls anyway).
 */
export function affectedModules(
  result: AnalysisResult,
  facts: FactsSource,
  files: readonly string[],
  libraryModules: readonly string[] = [],
): AffectedModules {
  const root = result.root;
  const dirs = result.modules.map((module) => ({ id: module.id, dir: module.dir }));
  const calls = new Map(result.modules.map((module) => [module.id, calledFolders(module.dir, facts)]));
  const allCalled = new Set([...calls.values()].flatMap((set) => [...set]));
  const libraries = libraryModules.map((folder) => path.resolve(root, folder));

  const changed = new Set<string>();
  const viaLibraries = new Set<string>();
  for (const file of files) {
    const absolute = path.resolve(root, file);
    const owner = deepest(
      dirs.filter((module) => contains(module.dir, absolute)),
      (module) => module.dir,
    );
    if (owner) changed.add(owner.id);
    const library = deepest(
      [...allCalled].filter((dir) => contains(dir, absolute)),
      (dir) => dir,
    );
    const declared = libraries.filter((folder) => contains(folder, absolute));
    for (const [id, called] of calls) {
      if (library !== undefined && called.has(library)) viaLibraries.add(id);
      else if (declared.some((folder) => [...called].some((dir) => contains(folder, dir)))) viaLibraries.add(id);
    }
  }
  const affected = closure(result.graph, [...changed, ...viaLibraries], 'downstream');
  return {
    changed: [...changed].sort(compareIds),
    viaLibraries: [...viaLibraries].filter((id) => !changed.has(id)).sort(compareIds),
    affected,
  };
}

/** The folders of the local child modules a root calls, transitively (not the root's own). */
export function calledFolders(rootDir: string, facts: FactsSource): Set<string> {
  const seen = new Set<string>([rootDir]);
  const queue = [rootDir];
  while (queue.length > 0) {
    const dir = queue.pop()!;
    for (const file of terraformFiles(dir)) {
      for (const call of facts.factsOf(file)?.moduleCalls ?? []) {
        const source = localSource(call.source);
        if (source === undefined) continue;
        const child = path.resolve(dir, source);
        if (!seen.has(child)) {
          seen.add(child);
          queue.push(child);
        }
      }
    }
  }
  seen.delete(rootDir);
  return seen;
}

function terraformFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith('.tf') || name.endsWith('.tf.json'))
      .map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}

/** Whether `file` is inside `dir` (or is `dir`). */
function contains(dir: string, file: string): boolean {
  return file === dir || file.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);
}

function deepest<T>(items: T[], dirOf: (item: T) => string): T | undefined {
  let best: T | undefined;
  for (const item of items) if (!best || dirOf(item).length > dirOf(best).length) best = item;
  return best;
}
