import { readdirSync } from 'node:fs';
import path from 'node:path';
import { closure, compareIds } from '../graph';
import {
  type FileFacts,
  folderContains,
  isConfigurationFile,
  localSource,
  neutralFilters,
  safeGit,
} from '../workspace';
import type { AnalysisResult } from './analysisResult';

/** Git could not tell what changed (not a repository, an unknown ref, no git). */
export class ChangedFilesError extends Error {}

export interface ChangedFilesOptions {
  /** Also count uncommitted changes (staged or not) and untracked files: the editor's view. */
  includeUncommitted: boolean;
}

/**
 * The files (relative to `root`, `/`-separated, sorted) that changed since the merge base of
 * `baseRef` and HEAD, as git sees them from `root` (files outside `root` are left out). Renames
 * count as a deletion and an addition, so the old folder counts too. Git runs nothing the repository
 * configures (`safeGit.ts`): the work tree is compared with its filter drivers emptied.
 */
export async function changedFiles(root: string, baseRef: string, options: ChangedFilesOptions): Promise<string[]> {
  const base = (await git(root, ['merge-base', baseRef, 'HEAD'], baseRef)).trim();
  const diff = ['diff', '--no-ext-diff', '--no-textconv', '--name-only', '--no-renames', '--relative', '-z', base];
  const lists = options.includeUncommitted
    ? [
        await git(root, diff, undefined, await neutralFilters(root)),
        await git(root, ['ls-files', '--others', '--exclude-standard', '-z']),
      ]
    : [await git(root, [...diff, 'HEAD'])];
  const files = new Set(lists.flatMap((list) => list.split('\0').filter((file) => file !== '')));
  return [...files].sort(compareIds);
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
 * are found from the roots' `module` calls anyway). Each file is looked up through its own
 * folders, not compared with every module: a large change in a large monorepo is files times
 * modules otherwise.
 */
export function affectedModules(
  result: AnalysisResult,
  facts: FactsSource,
  files: readonly string[],
  libraryModules: readonly string[] = [],
): AffectedModules {
  const root = result.root;
  const listings = new Map<string, string[]>();
  const calls = new Map(result.modules.map((module) => [module.id, calledFolders(module.dir, facts, listings)]));
  const moduleAt = new Map(result.modules.map((module) => [withoutTrailingSeparator(module.dir), module.id]));
  const callers = callersByFolder(calls);
  const libraries = libraryModules.map((folder) => path.resolve(root, folder));
  const callersInside = new Map<string, Set<string>>();
  const position = new Map(result.modules.map((module, index) => [module.id, index]));

  const changed = new Set<string>();
  const viaLibraries = new Set<string>();
  for (const file of files) {
    const absolute = path.resolve(root, file);
    const owner = nearest(absolute, (dir) => moduleAt.get(dir));
    if (owner !== undefined) changed.add(owner);
    // The roots that call the deepest called folder holding the file, or into a declared
    // library folder holding it; added in module order, as `closure` walks from them in order.
    const roots = new Set(nearest(absolute, (dir) => callers.get(dir)));
    for (const folder of libraries) {
      if (!folderContains(folder, absolute)) continue;
      let inside = callersInside.get(folder);
      if (inside === undefined) {
        inside = callingInto(folder, calls);
        callersInside.set(folder, inside);
      }
      for (const id of inside) roots.add(id);
    }
    for (const id of [...roots].sort((a, b) => position.get(a)! - position.get(b)!)) viaLibraries.add(id);
  }
  const affected = closure(result.graph, [...changed, ...viaLibraries], 'downstream');
  return {
    changed: [...changed].sort(compareIds),
    viaLibraries: [...viaLibraries].filter((id) => !changed.has(id)).sort(compareIds),
    affected,
  };
}

/**
 * The folders of the local child modules a root calls, transitively (not the root's own).
 * `listings` keeps each called folder's Terraform files for the next call: many roots call the
 * same child modules.
 */
export function calledFolders(
  rootDir: string,
  facts: FactsSource,
  listings = new Map<string, string[]>(),
): Set<string> {
  const seen = new Set<string>([rootDir]);
  const queue = [rootDir];
  while (queue.length > 0) {
    const dir = queue.pop()!;
    // Only called folders are kept: a root's own is read once anyway.
    const files = dir === rootDir ? readTerraformFiles(dir) : terraformFiles(dir, listings);
    for (const file of files) {
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

function terraformFiles(dir: string, listings: Map<string, string[]>): string[] {
  let files = listings.get(dir);
  if (files === undefined) {
    files = readTerraformFiles(dir);
    listings.set(dir, files);
  }
  return files;
}

function readTerraformFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter(isConfigurationFile)
      .map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}

/** Each called folder with the roots that call it, in module order. */
function callersByFolder(calls: ReadonlyMap<string, ReadonlySet<string>>): Map<string, string[]> {
  const callers = new Map<string, string[]>();
  for (const [id, called] of calls) {
    for (const dir of called) {
      const ids = callers.get(dir);
      if (ids) ids.push(id);
      else callers.set(dir, [id]);
    }
  }
  return callers;
}

/** The roots that call a folder inside `folder` (or `folder` itself), in module order. */
function callingInto(folder: string, calls: ReadonlyMap<string, ReadonlySet<string>>): Set<string> {
  const ids = new Set<string>();
  for (const [id, called] of calls) {
    for (const dir of called) {
      if (folderContains(folder, dir)) {
        ids.add(id);
        break;
      }
    }
  }
  return ids;
}

/** The first value `find` gives for `file`, then its folder, and so on up to the filesystem root. */
function nearest<T>(file: string, find: (dir: string) => T | undefined): T | undefined {
  for (let dir = file; ; ) {
    const found = find(dir);
    if (found !== undefined) return found;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** A folder as `path.dirname` gives it, so that `nearest` finds it (`path.resolve` only when needed: it is slow). */
function withoutTrailingSeparator(dir: string): string {
  return dir.length > 1 && dir.endsWith(path.sep) ? path.resolve(dir) : dir;
}
