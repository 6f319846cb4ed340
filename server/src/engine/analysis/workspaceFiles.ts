import { createHash } from 'node:crypto';
import { readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import type { DiscoveryOptions } from '../config';
import { FILE_START } from '../hcl';
import {
  decideEngine,
  EMPTY_FACTS,
  type Engine,
  emptyDir,
  engineFiles,
  type FileFacts,
  factsOfText,
  fileRole,
  folderContains,
  isTofuLockFile,
  nestedBackendOwner,
  type ScannedDir,
  type ScanProblem,
  scanWorkspace,
  syntaxOnlyFacts,
  varFileOrder,
} from '../workspace';
import type { FileProblem } from './analysisResult';
import { EncodingError, readSourceFile } from './sourceFile';

interface CachedFile {
  hash: string;
  /**
   * What the analysis uses: the text's facts, or, while the text does not parse, the facts of its
   * last version that did, with the text's syntax errors (an edge does not blink out while its
   * block is being typed).
   */
  facts: FileFacts;
  /** The facts of the last version of the file that parsed, if any. */
  good: FileFacts | undefined;
}

/** What the files tell the analysis that keeps them. */
export interface FilesListener {
  /** What a file's facts say that decides which nodes there are: when it changes, they are decided again. */
  nodesKey(facts: FileFacts): string;
  /** Which nodes there are must be decided again. */
  nodesChanged(): void;
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

/**
 * The folders of a workspace and the facts of their files, cached by content hash: many files are
 * identical, and facts are dropped when no file has that content any more, so a long editing session
 * does not keep every version it typed.
 */
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
  private readonly readProblems = new Map<string, string>();
  private readonly files = new Map<string, CachedFile>();
  private readonly factsByHash = new Map<string, { facts: FileFacts; uses: number }>();
  /** Files whose facts have syntax errors: a few among thousands, listed without a scan. */
  private readonly brokenFiles = new Set<string>();
  /** `.tf` files the fast path skimmed, their syntax not yet checked (see `checkSkimmed`). */
  private readonly skimmed = new Set<string>();
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
    // Synchronous reads of small files are several times faster than fs.promises (one
    // thread-pool round trip per open/stat/read/close); batches keep the event loop answering.
    for (let start = 0; start < all.length; start += LOAD_BATCH) {
      for (const file of all.slice(start, start + LOAD_BATCH)) this.readAndCache(file);
      onProgress?.(Math.min(start + LOAD_BATCH, all.length), all.length);
      await new Promise((resolve) => setImmediate(resolve));
    }
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
    // One file, typed or changed on disk: parsed whole, so that its syntax errors show at once.
    const changed = text === undefined ? this.readAndCache(file, true) : this.cache(file, text, undefined, true);
    if (listed === 'new') this.listener.nodesChanged();
    return changed || listed === 'new';
  }

  /**
   * Parses the `.tf` files the fast path skimmed, so that their syntax errors are reported as
   * Terraform would report them; `changed` is told of each file that has some. True when any had.
   */
  async checkSkimmed(changed: (file: string) => void): Promise<boolean> {
    const byHash = new Map<string, string[]>();
    for (const file of this.skimmed) {
      const hash = this.files.get(file)?.hash;
      if (hash !== undefined) (byHash.get(hash) ?? byHash.set(hash, []).get(hash)!).push(file);
    }
    this.skimmed.clear();
    let found = false;
    let parsed = 0;
    for (const [hash, files] of byHash) {
      const shared = this.factsByHash.get(hash);
      if (shared?.facts !== EMPTY_FACTS) continue;
      let text: string;
      try {
        text = readSourceFile(files[0]!);
      } catch {
        continue; // Changed since it was read: its next read reports it.
      }
      if (contentHash(text) !== hash) continue;
      const facts = syntaxOnlyFacts(text);
      if (facts.syntaxErrors.length > 0) {
        shared.facts = facts;
        for (const file of files) {
          this.files.set(file, { ...this.files.get(file)!, facts: shared.facts });
          this.brokenFiles.add(file);
          changed(file);
        }
        found = true;
      }
      if (++parsed % LOAD_BATCH === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    return found;
  }

  /** The file is gone: forget it. */
  remove(file: string): void {
    const dir = this.nestedBackendDir(file) ?? this.dirOf(path.dirname(file));
    if (dir) {
      for (const list of [...FILE_LISTS, ...CONFIGURATION_LISTS]) {
        const at = dir[list].indexOf(file);
        if (at >= 0) dir[list].splice(at, 1);
      }
    }
    this.forget(file);
    this.readProblems.delete(file);
    this.tofuSigns.delete(file);
    if (!this.decideAgain() && dir) this.relist(dir);
  }

  /** The facts of one file as last read or edited. */
  factsOf(file: string): FileFacts | undefined {
    return this.files.get(file)?.facts;
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
        for (const file of dir.tfFiles) this.readAndCache(file, false, false);
      }
    } catch {
      // Not there, or not listable: the call is reported as having no Terraform files.
    }
    this.outsideDirs.set(folder, dir);
    return dir;
  }

  /** The syntax errors of every file, or of the files in `dirs`, sorted by file and line. */
  syntaxErrors(dirs?: ReadonlySet<string>): FileProblem[] {
    const errors: FileProblem[] = [];
    for (const file of this.brokenFiles) {
      if (dirs && !dirs.has(path.dirname(file))) continue;
      for (const error of this.files.get(file)?.facts.syntaxErrors ?? [])
        errors.push({ file, range: error.range, message: error.message });
    }
    return errors.sort((a, b) =>
      a.file < b.file ? -1 : a.file > b.file ? 1 : a.range!.start.line - b.range!.start.line,
    );
  }

  /** What the scan found wrong, then the files that could not be read. */
  problems(): FileProblem[] {
    return [
      ...this.scanProblems.map((problem) => ({ file: problem.path, range: undefined, message: problem.message })),
      ...[...this.readProblems].map(([file, message]) => ({ file, range: undefined, message })),
    ];
  }

  /**
   * Reads a file and caches its facts; true when what the analysis knows of it changed. `whole`:
   * parse even a file the fast path would skim (see `factsOfText`); `listed`: a file of the workspace's
   * folders, whose facts may decide which nodes there are (not one of a folder outside it).
   */
  private readAndCache(file: string, whole = false, listed = true): boolean {
    try {
      const changed = this.cache(file, readSourceFile(file), undefined, whole, listed);
      return this.readProblems.delete(file) || changed;
    } catch (error) {
      if (error instanceof EncodingError) {
        // Terraform fails on the file: an error on it, as a syntax error is, and the module marked.
        const facts: FileFacts = { ...EMPTY_FACTS, syntaxErrors: [{ range: FILE_START, message: error.message }] };
        const changed = this.cache(file, `\0${error.message}`, facts);
        return this.readProblems.delete(file) || changed;
      }
      this.forget(file);
      this.listener.nodesChanged();
      this.readProblems.set(file, `cannot read: ${error instanceof Error ? error.message : String(error)}`);
      return true;
    }
  }

  /** Caches the facts of `text` for `file`; true when the content changed. */
  private cache(file: string, text: string, known?: FileFacts, whole = false, listed = true): boolean {
    const hash = contentHash(text);
    if (this.files.get(file)?.hash === hash) return false;
    let shared = this.factsByHash.get(hash);
    if (!shared) {
      shared = { facts: known ?? factsOfText(file, text, this.backendMatchers, whole), uses: 0 };
      this.factsByHash.set(hash, shared);
    }
    const previous = this.files.get(file);
    const own = shared.facts;
    const good = own.syntaxErrors.length === 0 ? own : previous?.good;
    const facts = good && good !== own ? { ...good, syntaxErrors: own.syntaxErrors } : own;
    if (listed && (!previous || this.listener.nodesKey(previous.facts) !== this.listener.nodesKey(facts)))
      this.listener.nodesChanged();
    this.forget(file);
    shared.uses++;
    this.files.set(file, { hash, facts, good });
    if (own.syntaxErrors.length > 0) this.brokenFiles.add(file);
    if (own === EMPTY_FACTS) this.skimmed.add(file);
    return true;
  }

  private forget(file: string): void {
    const previous = this.files.get(file);
    if (!previous) return;
    this.files.delete(file);
    this.brokenFiles.delete(file);
    this.skimmed.delete(file);
    const shared = this.factsByHash.get(previous.hash);
    if (shared && --shared.uses === 0) this.factsByHash.delete(previous.hash);
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
    for (const file of before) if (!after.has(file)) this.forget(file);
    for (const file of after)
      if (!before.has(file) && file !== changing && !this.files.has(file)) this.readAndCache(file, true);
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

/** Files read between two turns of the event loop while loading. */
const LOAD_BATCH = 200;

function contentHash(text: string): string {
  return createHash('sha1').update(text).digest('base64');
}
