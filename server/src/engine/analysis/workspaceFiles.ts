import { readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import type { DiscoveryOptions } from '../config';
import {
  decideEngine,
  type Engine,
  emptyDir,
  engineFiles,
  type FileFacts,
  fileRole,
  folderContains,
  isTofuLockFile,
  nestedBackendOwner,
  type ScannedDir,
  type ScanProblem,
  scanWorkspace,
  varFileOrder,
} from '../workspace';
import type { FileProblem } from './analysisResult';
import { FactsReader, type NodesListener } from './factsReader';
import { MAX_TYPED_CHARS } from './sourceFile';

/** What the files tell the analysis that keeps them. */
export interface FilesListener extends NodesListener {
  /** A file came or went that may name an environment, or change whose files are whose in one. */
  environmentsChanged(): void;
  /** The workspace's engine changed (a `.tofu` file or a sign of OpenTofu came or went): every folder reads other files. */
  engineChanged(): void;
}

/** The source files' kinds that a folder lists, all of which are read. */
const FILE_LISTS = [
  'tfFiles',
  'varFiles',
  'backendFiles',
  'environmentVarFiles',
  'terragruntFiles',
  'stackFiles',
] as const satisfies readonly (keyof ScannedDir)[];

/** The configuration files a folder lists, of which the engine reads some (`tfFiles`). */
const CONFIGURATION_LISTS = ['terraformFiles', 'tofuFiles'] as const satisfies readonly (keyof ScannedDir)[];

/** The folders of a workspace and the facts of their files, read and cached by content (`FactsReader`). */
export class WorkspaceFiles {
  dirs = new Map<string, ScannedDir>();
  gitRoots: string[] = [];
  /** The files the scan saw that are none of the analysis's (see `ScanResult.otherFiles`). */
  otherFiles: ReadonlySet<string> = new Set();
  /** The links to files, by the file each names (see `ScanResult.linksTo`). */
  linksTo: ReadonlyMap<string, readonly string[]> = new Map();
  /** Folders the scan could not list, relative to the root. */
  unreadableDirs: string[] = [];
  private scanProblems: ScanProblem[] = [];
  private readonly facts: FactsReader;
  private readonly backendMatchers: ((name: string) => boolean)[];
  /** The engine that reads the workspace: configured, or decided from its files (see `decideEngine`). */
  engine: Engine;
  /** Files that say the workspace is OpenTofu's beside `.tofu` files: version pins, lock files from its registry. */
  private readonly tofuSigns = new Set<string>();
  /**
   * Folders outside the root that its modules call (`../../modules/x` from a root opened at `terraform/projects`),
   * with their configuration files: read when first asked for, as Terraform reads them; undefined where none.
   */
  private readonly outsideDirs = new Map<string, ScannedDir | undefined>();

  constructor(
    readonly root: string,
    private readonly options: DiscoveryOptions,
    private readonly listener: FilesListener,
    private readonly configuredEngine?: Engine,
  ) {
    this.engine = configuredEngine ?? 'terraform';
    this.backendMatchers = options.backendConfigFiles.map((glob) => picomatch(glob, { dot: true, basename: true }));
    this.facts = new FactsReader(this.backendMatchers, listener);
  }

  /** Scans the folder and reads every file it lists. `onProgress` is called as files are read. */
  async load(onProgress?: (done: number, total: number) => void): Promise<void> {
    const scan = await scanWorkspace(this.root, this.options);
    this.dirs = scan.dirs;
    this.outsideDirs.clear();
    this.scanProblems = scan.problems;
    this.gitRoots = scan.gitRoots;
    this.otherFiles = scan.otherFiles;
    this.linksTo = scan.linksTo;
    this.unreadableDirs = scan.unreadable.map((dir) => path.relative(this.root, dir).split(path.sep).join('/'));
    this.tofuSigns.clear();
    for (const file of scan.tofuSigns) this.tofuSigns.add(file);
    // The scan lists files before the engine is known: decided from what it found, then applied.
    this.engine = this.decidedEngine();
    for (const dir of this.dirs.values()) dir.tfFiles = engineFiles(dir.terraformFiles, dir.tofuFiles, this.engine);
    const all = [...this.dirs.values()].flatMap((dir) => FILE_LISTS.flatMap((list) => dir[list]));
    await this.facts.readAll(all, onProgress);
  }

  /**
   * A file changed: `text` is its new content (an editor buffer), or undefined to read it from disk
   * again. True when what the analysis knows of it changed, or it is new.
   */
  update(file: string, text: string | undefined): boolean {
    const listed = this.ensureListed(file);
    if (listed === 'ignored') return false;
    // A `.tf` file its `.tofu` namesake replaces, or a `.tofu` file Terraform does not read.
    if (listed === 'unread') return false;
    if (text !== undefined && text.length > MAX_TYPED_CHARS) return this.facts.typedPastLimit(file, text.length);
    // One file, typed or changed on disk: parsed whole, so that its syntax errors show at once.
    const changed = text === undefined ? this.facts.readAndCache(file, true) : this.facts.cacheTyped(file, text);
    if (listed === 'new') this.listener.nodesChanged();
    return changed || listed === 'new';
  }

  /** Parses the `.tf` files the fast path skimmed (see `FactsReader.checkSkimmed`). True when any had syntax errors. */
  checkSkimmed(changed: (file: string) => void): Promise<boolean> {
    return this.facts.checkSkimmed(changed);
  }

  /**
   * A file or a folder is gone (the editor says a folder's deletion once, for the folder): it is forgotten,
   * and every file under a folder. The folders whose files went, for the analysis to forget what read them.
   */
  remove(target: string): string[] {
    const role = fileRole(path.basename(target), this.backendMatchers);
    const isFile = (role !== undefined || this.facts.has(target)) && this.dirOf(target) === undefined;
    if (!isFile) return this.removeFolder(target);
    this.removeFile(target, role);
    return [path.dirname(target)];
  }

  private removeFile(file: string, role: ReturnType<typeof fileRole>): void {
    const dir = this.nestedBackendDir(file) ?? this.dirOf(path.dirname(file));
    if (dir) {
      for (const list of [...FILE_LISTS, ...CONFIGURATION_LISTS]) {
        const at = dir[list].indexOf(file);
        if (at >= 0) dir[list].splice(at, 1);
      }
      if (role === 'lock' && dir.hasLockFile) {
        dir.hasLockFile = false;
        this.listener.nodesChanged();
      }
    }
    this.facts.forget(file);
    this.facts.forgetProblem(file);
    // Only a `.tofu` file or a sign of OpenTofu decides the engine: the others need no look at every folder.
    const engineMayChange = this.tofuSigns.delete(file) || role === 'tofuFiles';
    if (!(engineMayChange && this.decideAgain()) && dir) this.relist(dir);
  }

  /** A folder is gone: every folder and file under it is forgotten at once. The folders that held files. */
  private removeFolder(folder: string): string[] {
    const inside = (file: string) => folderContains(folder, file);
    const lists = [...FILE_LISTS, ...CONFIGURATION_LISTS];
    const touched: string[] = [];
    for (const [id, dir] of this.dirs) {
      if (inside(dir.dir)) {
        for (const list of lists) for (const file of dir[list]) this.facts.forget(file);
        this.dirs.delete(id);
        touched.push(dir.dir);
      } else if (dir.backendFiles.some(inside)) {
        // A root's `backend/` or `config/<env>/` folder: its backend files.
        for (const file of dir.backendFiles.filter(inside)) this.facts.forget(file);
        dir.backendFiles = dir.backendFiles.filter((file) => !inside(file));
        touched.push(dir.dir);
      }
    }
    this.facts.forgetInside(inside);
    for (const file of [...this.tofuSigns]) if (inside(file)) this.tofuSigns.delete(file);
    this.scanProblems = this.scanProblems.filter((problem) => !inside(problem.path));
    this.otherFiles = new Set([...this.otherFiles].filter((file) => !inside(file)));
    this.unreadableDirs = this.unreadableDirs.filter((id) => !inside(path.join(this.root, id)));
    this.listener.nodesChanged();
    this.listener.environmentsChanged();
    this.decideAgain();
    return touched;
  }

  /** The facts of one file as last read or edited. */
  factsOf(file: string): FileFacts | undefined {
    return this.facts.factsOf(file);
  }

  /** A folder of the workspace with its files; outside the root, one its modules call (read when first asked for). */
  dirOf(folder: string): ScannedDir | undefined {
    const relative = path.relative(this.root, folder);
    if (relative.startsWith('..') || path.isAbsolute(relative)) return this.outsideDir(folder, relative);
    return this.dirs.get(relative === '' ? '.' : relative.split(path.sep).join('/'));
  }

  /**
   * A folder outside the root with its configuration files read, for a module that calls it. It is no folder
   * of the workspace: nothing in it is a node, and the editor's changes to its files are not followed.
   */
  private outsideDir(folder: string, relative: string): ScannedDir | undefined {
    if (this.outsideDirs.has(folder)) return this.outsideDirs.get(folder);
    let dir: ScannedDir | undefined;
    try {
      const dirent = readdirSync(folder, { withFileTypes: true });
      const named = (role: string) =>
        dirent
          .filter((entry) => entry.isFile() && fileRole(entry.name, this.backendMatchers) === role)
          .map((entry) => path.join(folder, entry.name))
          .sort();
      const terraformFiles = named('terraformFiles');
      const tofuFiles = named('tofuFiles');
      if (terraformFiles.length > 0 || tofuFiles.length > 0) {
        dir = { ...emptyDir(folder, relative.split(path.sep).join('/')), terraformFiles, tofuFiles };
        dir.tfFiles = engineFiles(terraformFiles, tofuFiles, this.engine);
        for (const file of dir.tfFiles) this.facts.readAndCache(file, false, false);
      }
    } catch {
      // Not there, or not listable: the call is reported as having no Terraform files.
    }
    this.outsideDirs.set(folder, dir);
    return dir;
  }

  /** The syntax errors of every file, or of the files in `dirs`, sorted by file and line. */
  syntaxErrors(dirs?: ReadonlySet<string>): FileProblem[] {
    return this.facts.syntaxErrors(dirs);
  }

  /** What the scan found wrong, then the files that could not be read. */
  problems(): FileProblem[] {
    return [
      ...this.scanProblems.map((problem) => ({ file: problem.path, range: undefined, message: problem.message })),
      ...this.facts.problems(),
    ];
  }

  /** OpenTofu when configured so or when the files say so (see `decideEngine`). */
  private decidedEngine(): Engine {
    const hasTofuFiles = [...this.dirs.values()].some((dir) => dir.tofuFiles.length > 0);
    return decideEngine(this.configuredEngine, hasTofuFiles, this.tofuSigns.size);
  }

  /**
   * Decides the engine again; when it changed, every folder's files are listed again for it (`changing`:
   * the file being updated, not read here). True when it changed.
   */
  private decideAgain(changing?: string): boolean {
    const engine = this.decidedEngine();
    if (engine === this.engine) return false;
    this.engine = engine;
    for (const dir of this.dirs.values()) this.relist(dir, changing);
    this.listener.engineChanged();
    return true;
  }

  /**
   * The files the engine reads in `dir`, listed again after one came or went: a file it no longer
   * reads is forgotten (its errors too), one it reads now is read, but for `changing`, the file being
   * updated (an editor's buffer may be all there is of it). True when they changed.
   */
  private relist(dir: ScannedDir, changing?: string): boolean {
    const before = new Set(dir.tfFiles);
    dir.tfFiles = engineFiles(dir.terraformFiles, dir.tofuFiles, this.engine);
    const after = new Set(dir.tfFiles);
    for (const file of before) if (!after.has(file)) this.facts.forget(file);
    for (const file of after)
      if (!before.has(file) && file !== changing && !this.facts.has(file)) this.facts.readAndCache(file, true);
    const changed = before.size !== after.size || [...after].some((file) => !before.has(file));
    if (changed) this.listener.nodesChanged();
    return changed;
  }

  /**
   * Lists a file the scan did not (created since): `new`; `listed` when known; `ignored` when the
   * analysis does not read it; `unread` for a configuration file listed that the engine does not read.
   */
  private ensureListed(file: string): 'listed' | 'new' | 'ignored' | 'unread' {
    const folder = path.dirname(file);
    const relative = path.relative(this.root, folder);
    if (relative.startsWith('..') || path.isAbsolute(relative)) return 'ignored';
    const nested = this.nestedBackendDir(file);
    if (nested) {
      if (nested.backendFiles.includes(file)) return 'listed';
      nested.backendFiles.push(file);
      nested.backendFiles.sort();
      this.listener.environmentsChanged();
      return 'new';
    }
    const role = fileRole(path.basename(file), this.backendMatchers);
    if (role === undefined) return 'ignored';
    if (role === 'tofuSign') {
      this.tofuSigns.add(file);
      this.decideAgain(file);
      return 'ignored';
    }
    if (role === 'lock') {
      const sign = isTofuLockFile(file);
      if (sign !== this.tofuSigns.has(file)) {
        if (sign) this.tofuSigns.add(file);
        else this.tofuSigns.delete(file);
        this.decideAgain();
      }
    }
    let dir = this.dirOf(folder);
    if (role === 'lock') {
      // A lock file can make its folder a root module; it has no facts of its own.
      if (!dir || dir.hasLockFile) return 'ignored';
      dir.hasLockFile = true;
      return 'new';
    }
    let status: 'listed' | 'new' = 'listed';
    if (!dir) {
      const holdsModules =
        role === 'terraformFiles' || role === 'tofuFiles' || role === 'terragruntFiles' || role === 'stackFiles';
      if (!holdsModules || this.isAliasFolder(folder)) return 'ignored';
      const id = relative === '' ? '.' : relative.split(path.sep).join('/');
      dir = emptyDir(folder, id);
      this.dirs.set(id, dir);
    }
    const list = dir[role];
    if (!list.includes(file)) {
      list.push(file);
      list.sort(role === 'varFiles' ? varFileOrder : undefined);
      status = 'new';
      // A new file may name a new environment, which changes whose backend files are whose.
      this.listener.environmentsChanged();
    }
    if (role === 'terraformFiles' || role === 'tofuFiles') {
      if (status === 'new' && !this.decideAgain(file)) this.relist(dir, file);
      if (!dir.tfFiles.includes(file)) return 'unread';
    }
    return status;
  }

  /**
   * A folder reached through a symbolic link to another folder of the workspace: its files are
   * read at their real path only, as the scan does (see `scanWorkspace`).
   */
  private isAliasFolder(folder: string): boolean {
    try {
      const real = realpathSync(folder);
      const root = realpathSync(this.root);
      // Not behind a link: its real path is the root's, followed by the same names.
      if (real === path.join(root, path.relative(this.root, folder))) return false;
      return folderContains(root, real);
    } catch {
      return false;
    }
  }

  /** The root folder whose `backend/` or `config/<env>/` holds `file`, when it is one of its backend files. */
  private nestedBackendDir(file: string): ScannedDir | undefined {
    const owner = nestedBackendOwner(file);
    return owner === undefined ? undefined : this.dirOf(owner);
  }
}
