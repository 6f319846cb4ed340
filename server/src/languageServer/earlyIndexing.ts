import { EARLY_START_ENV, type EarlyStart } from '../earlyStart';
import { WorkspaceAnalysis } from '../engine/analysis';
import type { AnalysisOptions } from '../engine/config';
import { receivedSettings } from './editorSettings';
import { uriToPath } from './fileUris';
import { folderOptions } from './folderOptions';

/** A folder read from the server's start: its analysis, the options it was made with, its reading. */
interface EarlyFolder {
  /** When its reading started. */
  startedAt: number;
  options: string;
  analysis: WorkspaceAnalysis;
  loaded: Promise<void>;
  /** Where the reading's progress goes once a folder's indexing takes it. */
  progress: ((done: number, total: number) => void) | undefined;
}

/** What a folder's indexing takes of an early reading: its analysis, loaded (and analysed) by `loaded`. */
export interface EarlyAnalysis {
  analysis: WorkspaceAnalysis;
  loaded: Promise<void>;
}

/**
 * The folders the extension's entry said the window has (`EarlyStart`), read and analysed from the server's start,
 * while the client's bundle still loads and before its `initialize` (0.1-0.3 s of a fresh window in which the
 * server had nothing to do). A folder's indexing takes its analysis when it is made with the same options (the same
 * settings, trust and environment); one not taken by then is dropped.
 */
export class EarlyIndexing {
  private readonly folders = new Map<string, Promise<EarlyFolder | undefined>>();
  /** Whether a folder's indexing has asked: from then on no early analysis is worth finishing. */
  private asked = false;

  private constructor(
    start: EarlyStart,
    /** Told when a folder's indexing takes its early reading, started at `startedAt`. */
    private readonly taken: (startedAt: number) => void,
  ) {
    for (const uri of start.folders) {
      const root = uriToPath(uri);
      if (root) this.folders.set(root, this.read(root, start.settings[uri], start.trusted));
    }
  }

  /**
   * The early start the entry gave this process (`EARLY_START_ENV`), taken out of its environment so that the
   * processes it starts (git) do not inherit it; undefined without one, or with one it cannot read.
   */
  static fromEnvironment(taken: (startedAt: number) => void): EarlyIndexing | undefined {
    const text = process.env[EARLY_START_ENV];
    delete process.env[EARLY_START_ENV];
    if (!text) return undefined;
    try {
      const start = JSON.parse(text) as Partial<EarlyStart>;
      if (!Array.isArray(start.folders) || typeof start.trusted !== 'boolean') return undefined;
      return new EarlyIndexing(
        {
          folders: start.folders.filter((uri): uri is string => typeof uri === 'string'),
          trusted: start.trusted,
          settings: typeof start.settings === 'object' && start.settings !== null ? start.settings : {},
        },
        taken,
      );
    } catch {
      return undefined;
    }
  }

  /**
   * The early analysis of `root`, if it was made with `options` (once, by the folder's first indexing): its progress
   * from now on to `onProgress`.
   */
  async take(
    root: string,
    options: AnalysisOptions,
    onProgress: (done: number, total: number) => void,
  ): Promise<EarlyAnalysis | undefined> {
    this.asked = true;
    const pending = this.folders.get(root);
    this.folders.delete(root);
    const early = await pending;
    if (!early || early.options !== JSON.stringify(options)) return undefined;
    early.progress = onProgress;
    this.taken(early.startedAt);
    return { analysis: early.analysis, loaded: early.loaded };
  }

  /** The folders the client's `initialize` did not name (`roots`: those it did): dropped. */
  dropExcept(roots: readonly string[]): void {
    for (const root of [...this.folders.keys()]) if (!roots.includes(root)) this.folders.delete(root);
  }

  private async read(root: string, raw: unknown, trusted: boolean): Promise<EarlyFolder | undefined> {
    const startedAt = Date.now();
    try {
      const options = await folderOptions(root, receivedSettings(raw), trusted, undefined);
      const analysis = new WorkspaceAnalysis(root, options);
      const early: EarlyFolder = {
        startedAt,
        options: JSON.stringify(options),
        analysis,
        loaded: Promise.resolve(),
        progress: undefined,
      };
      early.loaded = analysis
        .load((done, total) => early.progress?.(done, total))
        // Read before `initialize` came: analysed too, the first diagnostics' other half, while the server waits.
        .then(() => {
          if (this.asked) return;
          try {
            analysis.result();
          } catch {
            // Said where the diagnostics ask for the result again.
          }
        });
      // Its failure is the indexing's to report, as a reading of its own would.
      early.loaded.catch(() => undefined);
      return early;
    } catch {
      // Options that cannot be read (a broken .terrace.yaml): the indexing reads them and says why.
      return undefined;
    }
  }
}
