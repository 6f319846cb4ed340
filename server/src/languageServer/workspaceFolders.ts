import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { type AnalysisResult, WorkspaceAnalysis } from '../engine/analysis';
import { type AnalysisOptions, defaultOptions, loadAnalysisOptions } from '../engine/config';
import { startTerraformSyntax, type TerraformSyntaxError, terraformSyntaxErrors } from '../engine/hcl';
import { folderContains } from '../engine/workspace';
import type { ReceivedSettings } from './editorSettings';

/** One workspace folder's analysis and the version of its graph. */
export interface FolderState {
  root: string;
  analysis: WorkspaceAnalysis;
  version: number;
  /** Settled once the first indexing is done. */
  ready: Promise<void>;
  /** Why the folder could not be analysed (e.g. an invalid .terrace.yaml). */
  error: string | undefined;
  /** False while the workspace is not trusted: no process is started for it (no git). */
  trusted: boolean;
  indexing: boolean;
}

/** A file (or, deleted, a folder) as the editor's watcher reports it. */
export interface DiskChange {
  file: string;
  deleted: boolean;
}

export interface FolderEvents {
  /** Indexing progress; `total` 0 before the files are counted. */
  progress(root: string, done: number, total: number): void;
  /** The folder's files changed: its version was bumped, its graph may differ. */
  changed(folder: FolderState): void;
  /**
   * An open document's text is what the folder had already (opened, or closed, unedited): the graph is as
   * it was, the diagnostics of the open documents are not (Terraform's syntax messages are theirs).
   */
  documentsChanged(folder: FolderState): void;
}

/** Files larger than this keep the engine's syntax messages: hcl2json parsed 5.7 MB in about 20 s. */
export const EXACT_SYNTAX_MAX_CHARS = 256 * 1024;

/**
 * The analyses of the workspace folders (one graph per folder), kept current: edits of open
 * documents (one after a quiet moment at once, typing after a short debounce), file changes on
 * disk, configuration changes. Also the cache of Terraform's exact syntax messages, by content.
 */
export class WorkspaceFolders {
  private readonly folders = new Map<string, FolderState>();
  /** Edits of open documents waiting for typing to pause: the timer, and the edit applied. */
  private readonly pending = new Map<string, { timer: NodeJS.Timeout; apply: () => Promise<void> }>();
  /** When each buffer last changed: a change after a quiet moment is not debounced. */
  private readonly lastEdit = new Map<string, number>();
  private readonly exactSyntax = new Map<string, { hash: string; errors: TerraformSyntaxError[] }>();
  /** The environment each folder is analysed in, by root; absent: all of them. */
  private readonly environments = new Map<string, string>();

  constructor(
    private readonly events: FolderEvents,
    /** The editor's settings of a folder: `discovery` shapes the analysis. */
    private readonly settingsFor: (root: string) => Promise<ReceivedSettings>,
    /** False in a workspace the user has not trusted: no process is started for it (see `trust`). */
    private trusted: boolean,
    /** Debounce for edits of open documents that follow another within it, in milliseconds. */
    private readonly debounce = 150,
  ) {}

  /** The user trusted the workspace: every folder is indexed again, asking git what it tracks. */
  trust(): void {
    if (this.trusted) return;
    this.trusted = true;
    this.reindexAll();
  }

  all(): FolderState[] {
    return [...this.folders.values()];
  }

  get(root: string): FolderState | undefined {
    return this.folders.get(root);
  }

  /** The folder a file belongs to: the deepest workspace folder that contains it. */
  forFile(file: string): FolderState | undefined {
    let best: FolderState | undefined;
    for (const folder of this.folders.values()) {
      if (folderContains(folder.root, file) && (!best || folder.root.length > best.root.length)) best = folder;
    }
    return best;
  }

  /** Adds (or re-indexes) a folder. */
  add(root: string): FolderState {
    const folder: FolderState = {
      root,
      analysis: new WorkspaceAnalysis(root, defaultOptions()),
      version: 0,
      ready: Promise.resolve(),
      error: undefined,
      trusted: this.trusted,
      indexing: true,
    };
    folder.ready = this.index(folder);
    this.folders.set(root, folder);
    return folder;
  }

  remove(root: string): void {
    this.folders.delete(root);
  }

  /** The environment a folder is analysed in; undefined: all of them. */
  environmentOf(root: string): string | undefined {
    return this.environments.get(root);
  }

  /** Analyses a folder in `environment` (undefined: all of them) from now on; resolves once it is indexed. */
  async selectEnvironment(root: string, environment: string | undefined): Promise<FolderState> {
    if (environment === undefined) this.environments.delete(root);
    else this.environments.set(root, environment);
    const folder = this.add(root);
    await folder.ready;
    return folder;
  }

  /** Indexes every folder again, e.g. after the discovery settings changed. */
  reindexAll(): void {
    for (const root of [...this.folders.keys()]) this.add(root);
  }

  /**
   * A file's content changed: `text` is an editor buffer, undefined means read the disk. A buffer's
   * change after a quiet moment applies at once (one edit: a paste, an undo, a code action); the
   * changes that follow within the debounce are applied together once typing pauses.
   */
  fileChanged(file: string, text?: string): void {
    const folder = this.forFile(file);
    if (!folder) return;
    const waiting = this.pending.get(file);
    clearTimeout(waiting?.timer);
    const apply = async () => {
      this.pending.delete(file);
      await folder.ready;
      if (this.folders.get(folder.root) !== folder) return;
      // Opening a file is no edit: at 11,000 units it made the graph panel fetch and draw 1.7 MB again.
      if (await folder.analysis.updateFile(file, text)) this.bump(folder);
      else if (this.folders.get(folder.root) === folder) this.events.documentsChanged(folder);
    };
    const now = Date.now();
    const quiet = waiting === undefined && now - (this.lastEdit.get(file) ?? 0) >= this.debounce;
    if (text !== undefined) this.lastEdit.set(file, now);
    else this.lastEdit.delete(file);
    if (text === undefined || quiet) void apply();
    else this.pending.set(file, { timer: setTimeout(() => void apply(), this.debounce), apply });
  }

  /**
   * The folder's edits still waiting for typing to pause, applied now: a request answers from the latest
   * text of every open document (an output renamed in one buffer, read in another's completion).
   */
  async flushEdits(folder: FolderState): Promise<void> {
    for (const [file, { timer, apply }] of [...this.pending]) {
      if (this.forFile(file) !== folder) continue;
      clearTimeout(timer);
      await apply();
    }
  }

  /**
   * Files created, changed or deleted on disk, as one notification lists them (a folder's deletion is one
   * path, the folder's): each folder's applied together and its graph made once (made after each one,
   * 2,000 deletions froze the server 31 s). What the disk says of a file replaces an edit still waiting.
   */
  filesOnDisk(changes: readonly DiskChange[]): void {
    const byFolder = new Map<FolderState, DiskChange[]>();
    for (const change of changes) {
      const folder = this.forFile(change.file);
      if (!folder) continue;
      if (!change.deleted) {
        clearTimeout(this.pending.get(change.file)?.timer);
        this.pending.delete(change.file);
        this.lastEdit.delete(change.file);
      }
      const list = byFolder.get(folder);
      if (list) list.push(change);
      else byFolder.set(folder, [change]);
    }
    for (const [folder, list] of byFolder)
      void folder.ready.then(async () => {
        if (this.folders.get(folder.root) !== folder) return;
        let changed = false;
        for (const { file, deleted } of list) {
          if (deleted) {
            folder.analysis.removePath(file);
            changed = true;
          }
          // A save of what the editor had sent already changes nothing.
          else if (await folder.analysis.updateFile(file)) changed = true;
        }
        if (changed) this.bump(folder);
      });
  }

  /**
   * Terraform's exact syntax errors for a file (hcl2json), cached by content. `text` is the
   * open buffer, or undefined to read the file. Undefined for a file past `EXACT_SYNTAX_MAX_CHARS`:
   * hcl2json takes seconds a megabyte, on every keystroke; the engine's own messages stand.
   */
  async exactSyntaxErrors(file: string, text?: string): Promise<TerraformSyntaxError[] | undefined> {
    const content = text ?? (await readFile(file, 'utf8').catch(() => undefined));
    if (content === undefined) return [];
    if (content.length > EXACT_SYNTAX_MAX_CHARS) return undefined;
    const hash = createHash('sha1').update(content).digest('base64');
    const cached = this.exactSyntax.get(file);
    if (cached?.hash === hash) return cached.errors;
    const errors = await terraformSyntaxErrors(file, content);
    this.exactSyntax.set(file, { hash, errors });
    return errors;
  }

  /** Starts hcl2json ahead of the first `exactSyntaxErrors`: its start takes a few hundred milliseconds. */
  startExactSyntax(): void {
    startTerraformSyntax();
  }

  private async index(folder: FolderState): Promise<void> {
    try {
      const options = await this.options(folder.root);
      folder.analysis = new WorkspaceAnalysis(folder.root, options);
      folder.error = undefined;
      // Asked for before the first file is read (one big generated file can hold the reading up for seconds),
      // not waited for: its creation is a round trip to an editor still starting (70-200 ms of a fresh window's
      // first problems), and the status bar item spins from the extension's start until the server is ready.
      this.events.progress(folder.root, 0, 0);
      await folder.analysis.load((done, total) => this.events.progress(folder.root, done, total));
    } catch (error) {
      folder.error = error instanceof Error ? error.message : String(error);
    }
    folder.indexing = false;
    this.bump(folder);
    if (!folder.error) void this.checkSkimmed(folder);
  }

  /**
   * After the first diagnostics: the syntax errors of the files the fast path skimmed (parsing
   * them all first would hold those diagnostics up several times over).
   */
  private async checkSkimmed(folder: FolderState): Promise<void> {
    const analysis = folder.analysis;
    await new Promise((resolve) => setTimeout(resolve, 0));
    if ((await analysis.checkSkimmedFiles()) && folder.analysis === analysis) this.bump(folder);
  }

  /** Defaults, then the editor's settings, then the folder's .terrace.yaml (shared with CI), then the environment chosen. */
  private async options(root: string): Promise<AnalysisOptions> {
    const editor = (await this.settingsFor(root)).discovery ?? {};
    const base = defaultOptions();
    if (editor.mode) base.discovery.mode = editor.mode;
    if (editor.pattern) base.discovery.pattern = editor.pattern;
    if (editor.exclude) base.discovery.exclude = editor.exclude;
    const options = await loadAnalysisOptions(root, base);
    options.discovery.askGit = this.trusted;
    return { ...options, environment: this.environments.get(root) };
  }

  private bump(folder: FolderState): void {
    if (this.folders.get(folder.root) !== folder) return;
    folder.version++;
    this.events.changed(folder);
  }
}

export type { AnalysisResult };
