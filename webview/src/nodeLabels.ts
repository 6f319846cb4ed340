import { pathParts, sharedFolders } from './folderTree';

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
  const common = shared ?? sharedFolders(paths.map(pathParts));
  const labels = new PathLabels(paths, common);
  return new Map(paths.map((path) => [path, labels.get(path)!]));
}

/**
 * The labels of many paths, those of one name worked out when one of them is first asked for: a graph of
 * 11,000 modules folded shows a few of its modules, and an index that labelled all of them took a quarter
 * of the page's time to draw it.
 */
export class PathLabels {
  private readonly paths: ReadonlySet<string>;
  /** Each name's paths. */
  private readonly byName = new Map<string, string[]>();
  private readonly labels = new Map<string, PathLabel>();

  /** `common`: how many leading folders to leave out. */
  constructor(
    paths: readonly string[],
    private readonly common: number,
  ) {
    this.paths = new Set(paths);
    for (const path of this.paths) {
      const name = nameOf(path);
      const list = this.byName.get(name);
      if (list) list.push(path);
      else this.byName.set(name, [path]);
    }
  }

  /** Whether `path` is one of the paths labelled. */
  has(path: string): boolean {
    return this.paths.has(path);
  }

  get(path: string): PathLabel | undefined {
    const known = this.labels.get(path);
    if (known || !this.paths.has(path)) return known;
    const name = nameOf(path);
    this.labelNamesakes(name, this.byName.get(name)!);
    return this.labels.get(path);
  }

  private labelNamesakes(name: string, paths: readonly string[]): void {
    const namesakes = paths.map((path) => pathParts(path).slice(this.common, -1));
    const shared = namesakes.length > 1;
    const runs = shared ? runsOf(namesakes) : undefined;
    paths.forEach((path, n) => {
      const own = namesakes[n]!;
      const context = runs ? distinguishing(own, namesakes, runs) : own;
      this.labels.set(path, { name, context: context.join('/'), shared });
    });
  }
}

/** A path's last part; `(root)` for the folder itself. */
function nameOf(path: string): string {
  return path === '.' ? '(root)' : path.slice(path.lastIndexOf('/') + 1);
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

/** Each run of folders the namesakes' folders hold, with how many of them hold it. */
function runsOf(namesakes: readonly string[][]): Map<string, number> {
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
