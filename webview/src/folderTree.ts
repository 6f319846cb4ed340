/**
 * The folders of a graph's modules as a tree, for folding: any folder can be drawn as one node that
 * stands for every module in it (a module whose id is the folder, and those below it). Depths count
 * from below the folders every module shares: depth 1 is the first folder that tells modules apart.
 */
export class FolderTree {
  /** How many leading folders every module id shares. */
  readonly sharedDepth: number;
  /** Folder path → how many modules it holds (itself included, when a module is the folder). */
  private readonly counts = new Map<string, number>();
  /** The deepest depth at which a folder holds more than one module. */
  readonly maxDepth: number;

  constructor(private readonly ids: readonly string[]) {
    this.sharedDepth = sharedFolders(ids.map(pathParts));
    let maxDepth = 0;
    for (const id of ids) {
      if (id === '.') continue;
      let length = this.sharedDepth;
      for (const path of prefixesFrom(id, this.sharedDepth)) {
        length++;
        const count = (this.counts.get(path) ?? 0) + 1;
        this.counts.set(path, count);
        if (count > 1) maxDepth = Math.max(maxDepth, length - this.sharedDepth);
      }
    }
    this.maxDepth = maxDepth;
  }

  /** How many modules `folder` holds. */
  size(folder: string): number {
    return this.counts.get(folder) ?? 0;
  }

  /** The outermost of `folded` that holds module `id`, if any. */
  foldOf(id: string, folded: ReadonlySet<string>): string | null {
    if (folded.size === 0) return null;
    for (const path of prefixesFrom(id, this.sharedDepth)) if (folded.has(path)) return path;
    return null;
  }

  /** How many nodes the graph draws folded at `folded`: one a fold that holds a module, one a module outside them. */
  foldedNodes(folded: ReadonlySet<string>): number {
    const nodes = new Set<string>();
    for (const id of this.ids) nodes.add(this.foldOf(id, folded) ?? id);
    return nodes.size;
  }

  /**
   * The folder at `depth` that holds module `id` (the module itself when it is not that deep). Asked of every
   * module each time a view is built: cut at the right `/`, not split and joined again (at 11,024 units that was
   * a fifth of the page's time to draw a graph).
   */
  folderAt(id: string, depth: number): string {
    const parts = this.sharedDepth + depth;
    if (parts <= 0) return '';
    let end = -1;
    for (let part = 0; part < parts; part++) {
      end = id.indexOf('/', end + 1);
      if (end === -1) return id;
    }
    return id.slice(0, end);
  }

  /** The folders one level below `folder` that hold more than one module: what unfolding it folds. */
  childFolds(folder: string): string[] {
    const depth = folder.split('/').length - this.sharedDepth + 1;
    const inside = this.ids.filter((id) => id.startsWith(`${folder}/`));
    return [...new Set(inside.map((id) => this.folderAt(id, depth)))].filter((path) => this.size(path) > 1).sort();
  }

  /** Every folder at `depth` that holds more than one module: the graph folded at that depth. */
  foldsAt(depth: number): string[] {
    return [...new Set(this.ids.map((id) => this.folderAt(id, depth)))].filter((path) => this.size(path) > 1).sort();
  }
}

/** The paths of `id`'s folders and of itself, outermost first, from the one below its first `skip` parts. */
function* prefixesFrom(id: string, skip: number): Generator<string> {
  let end = -1;
  for (let parts = 0; ; parts++) {
    end = id.indexOf('/', end + 1);
    if (parts >= skip) yield end === -1 ? id : id.slice(0, end);
    if (end === -1) return;
  }
}

/** A module id's folders and name; none for the workspace folder itself (`.`). */
export function pathParts(path: string): string[] {
  return path === '.' ? [] : path.split('/');
}

/** How many leading folders every path shares (a path's own last part is never one of them). */
export function sharedFolders(paths: readonly string[][]): number {
  if (paths.length < 2) return 0;
  const first = paths[0]!;
  let count = Math.min(...paths.map((parts) => parts.length - 1));
  for (const parts of paths) {
    let shared = 0;
    while (shared < count && parts[shared] === first[shared]) shared++;
    count = shared;
  }
  return Math.max(0, count);
}
