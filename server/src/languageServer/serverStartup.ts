import type { Connection } from 'vscode-languageserver/node';
import type { CachedBundle } from '../codeCache';
import { StartupTimingsNotification } from '../protocol';

/** A quiet moment after the first diagnostics, when the bundle's code cache is written. */
const CODE_CACHE_AFTER_MS = 3000;

/**
 * The server's start-up: when its steps happened, sent once the first folder's diagnostics are out
 * (`StartupTimings`, what the editor measures from opening a window), and then its bundle's code cache
 * written (`codeCache.ts`): the functions the first analysis compiled, for the next window's server.
 */
export class ServerStartup {
  private readonly processStartedAt = Math.round(performance.timeOrigin);
  private initializedAt = 0;
  private settingsAt = 0;
  private readingAt = 0;
  private indexedAt = 0;
  /** Whether the first diagnostics are out (and the times sent). */
  done = false;
  /** This bundle as the entry loaded it (`main.ts`). */
  private bundle: CachedBundle | undefined;

  loadedAs(bundle: CachedBundle): void {
    this.bundle = bundle;
  }

  initialized(): void {
    this.initializedAt = Date.now();
  }

  /** The first folder's settings are in, and its reading starts. */
  reading(): void {
    this.settingsAt ||= Date.now();
    this.readingAt ||= Date.now();
  }

  indexed(): void {
    this.indexedAt ||= Date.now();
  }

  /** The first diagnostics are out: the times are sent, and the code cache written a quiet moment later. */
  firstDiagnosticsOut(connection: Connection): void {
    this.done = true;
    const { processStartedAt, initializedAt, settingsAt, readingAt, indexedAt } = this;
    void connection.sendNotification(StartupTimingsNotification.type, {
      processStartedAt,
      initializedAt,
      settingsAt,
      readingAt,
      indexedAt,
      publishedAt: Date.now(),
      fromCodeCache: this.bundle?.fromCache ?? false,
    });
    if (this.bundle) setTimeout(() => this.saveCodeCache(connection), CODE_CACHE_AFTER_MS).unref();
  }

  /**
   * The editor asks the server to shut down: a window closed within the quiet moment writes its code cache now.
   * Not before the first diagnostics: a cache is never written again once used, and one written before the
   * first analysis would lack the functions that analysis compiles.
   */
  shuttingDown(connection: Connection): void {
    if (this.done) this.saveCodeCache(connection);
  }

  private saveCodeCache(connection: Connection): void {
    const bundle = this.bundle;
    if (!bundle) return;
    this.bundle = undefined;
    const started = performance.now();
    const result = bundle.save();
    connection.console.log(`${result} (${Math.round(performance.now() - started)} ms)`);
  }
}
