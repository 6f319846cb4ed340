import { sharedFolders } from './folderTree';

/**
 * Labels that tell nodes apart, after VS Code's rule for editor tabs of files with the same name: a
 * node shows its name and, when other nodes have that name too, the shortest run of its folders that
 * none of them has (`common` · `sub-a/prod`). A name of its own shows the rest of its path. A folder
 * prefix that every path shares is never shown: it tells nothing apart.
 */
export interface PathLabel {
  /** The last part of the path: `common`, `component.dns`; `(root)` for the folder itself. */
  name: string;
  /** What tells it apart: the distinguishing folders of a shared name, or the rest of the path; `/`-joined. */
  context: string;
  /** True when other paths have the same name, so that `context` must never be cut. */
  shared: boolean;
}

/** `shared`: how many leading folders to leave out, by default those every path shares. */
export function pathLabels(paths: readonly string[], shared?: number): Map<string, PathLabel> {
  const split = paths.map((path) => (path === '.' ? [] : path.split('/')));
  const common = shared ?? sharedFolders(split);
  const byName = new Map<string, string[][]>();
  const folders = new Map<string, string[]>();
  paths.forEach((path, i) => {
    const parts = split[i]!;
    const name = parts.at(-1) ?? '(root)';
    const own = parts.slice(common, -1);
    folders.set(path, own);
    const list = byName.get(name);
    if (list) list.push(own);
    else byName.set(name, [own]);
  });
  const labels = new Map<string, PathLabel>();
  const runsByName = new Map<string, Map<string, number>>();
  paths.forEach((path, i) => {
    const name = split[i]!.at(-1) ?? '(root)';
    const own = folders.get(path)!;
    const namesakes = byName.get(name)!;
    const shared = namesakes.length > 1;
    const runs = shared ? getRuns(runsByName, name, namesakes) : undefined;
    const context = runs ? distinguishing(own, namesakes, runs) : own;
    labels.set(path, { name, context: context.join('/'), shared });
  });
  return labels;
}

/**
 * The shortest run of `own`'s folders that no namesake's folders contain, nearest the name first
 * (`prod` before `sub-a`). A namesake whose folders include all of `own`'s is told apart by its own
 * extra folders, so when every run is also one of those, only the others count.
 */
function distinguishing(own: string[], namesakes: string[][], runs: Map<string, number>): string[] {
  // A run only one namesake's folders hold is `own`'s alone: counted once for all the namesakes, not
  // compared with each (hundreds of units named `vpc` would make that quadratic).
  const alone = firstRun(own, (run) => runs.get(runKey(run)) === 1);
  if (alone) return alone;
  const others = namesakes.filter((folders) => folders !== own && !own.every((folder) => folders.includes(folder)));
  return firstRun(own, (run) => !others.some((folders) => contains(folders, run))) ?? own;
}

/** The first of `own`'s runs of folders, shortest first and nearest the name first, that `unique` accepts. */
function firstRun(own: string[], unique: (run: string[]) => boolean): string[] | undefined {
  for (let length = 1; length <= own.length; length++) {
    for (let start = own.length - length; start >= 0; start--) {
      const run = own.slice(start, start + length);
      if (unique(run)) return run;
    }
  }
  return undefined;
}

/** For the namesakes of `name`: each run of folders, with how many of them hold it. */
function getRuns(cache: Map<string, Map<string, number>>, name: string, namesakes: string[][]): Map<string, number> {
  const known = cache.get(name);
  if (known) return known;
  const counts = new Map<string, number>();
  for (const folders of namesakes) {
    const seen = new Set<string>();
    for (let start = 0; start < folders.length; start++) {
      for (let end = start + 1; end <= folders.length; end++) {
        const key = runKey(folders.slice(start, end));
        if (seen.has(key)) continue;
        seen.add(key);
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
  }
  cache.set(name, counts);
  return counts;
}

function runKey(run: string[]): string {
  return run.join('\0');
}

/** Whether `run` appears in `folders` as consecutive folders. */
function contains(folders: string[], run: string[]): boolean {
  for (let start = 0; start + run.length <= folders.length; start++) {
    if (run.every((folder, i) => folders[start + i] === folder)) return true;
  }
  return false;
}
