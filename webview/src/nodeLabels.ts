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
  paths.forEach((path, i) => {
    const name = split[i]!.at(-1) ?? '(root)';
    const own = folders.get(path)!;
    const namesakes = byName.get(name)!;
    const shared = namesakes.length > 1;
    const context = shared ? distinguishing(own, namesakes) : own;
    labels.set(path, { name, context: context.join('/'), shared });
  });
  return labels;
}

/**
 * The shortest run of `own`'s folders that no namesake's folders contain, nearest the name first
 * (`prod` before `sub-a`). A namesake whose folders include all of `own`'s is told apart by its own
 * extra folders, so when every run is also one of those, only the others count.
 */
function distinguishing(own: string[], namesakes: string[][]): string[] {
  const others = namesakes.filter((folders) => folders !== own);
  return (
    shortestUnique(own, others) ??
    shortestUnique(
      own,
      others.filter((folders) => !own.every((folder) => folders.includes(folder))),
    ) ??
    own
  );
}

function shortestUnique(own: string[], others: string[][]): string[] | undefined {
  for (let length = 1; length <= own.length; length++) {
    for (let start = own.length - length; start >= 0; start--) {
      const run = own.slice(start, start + length);
      if (!others.some((folders) => contains(folders, run))) return run;
    }
  }
  return undefined;
}

/** Whether `run` appears in `folders` as consecutive folders. */
function contains(folders: string[], run: string[]): boolean {
  for (let start = 0; start + run.length <= folders.length; start++) {
    if (run.every((folder, i) => folders[start + i] === folder)) return true;
  }
  return false;
}
