import crypto from 'node:crypto';
import path from 'node:path';
import { EMPTY_FACTS, type FileFacts } from '../workspace';
import type { FileProblem } from './analysisResult';

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

/**
 * The facts of files, cached by content hash: many files are identical, and facts are dropped when no
 * file has that content any more, so a long editing session does not keep every version it typed.
 */
export class FactsCache {
  private readonly files = new Map<string, CachedFile>();
  private readonly byHash = new Map<string, { facts: FileFacts; uses: number }>();
  /** Files whose facts have syntax errors: a few among thousands, listed without a scan. */
  private readonly broken = new Set<string>();
  /** `.tf` files the fast path skimmed, their syntax not yet checked (see `takeSkimmed`). */
  private readonly skimmed = new Set<string>();

  has(file: string): boolean {
    return this.files.has(file);
  }

  factsOf(file: string): FileFacts | undefined {
    return this.files.get(file)?.facts;
  }

  /** The files cached, for a folder's deletion to find those under it. */
  cachedFiles(): IterableIterator<string> {
    return this.files.keys();
  }

  /**
   * Caches the facts of `text` for `file` (`make` gives them for a content not seen yet). Undefined when
   * the content is the one cached; else the facts the file had before (undefined: none) and has now.
   */
  put(
    file: string,
    text: string,
    make: () => FileFacts,
  ): { previous: FileFacts | undefined; facts: FileFacts } | undefined {
    const hash = contentHash(text);
    const previous = this.files.get(file);
    if (previous?.hash === hash) return undefined;
    let shared = this.byHash.get(hash);
    if (!shared) {
      shared = { facts: make(), uses: 0 };
      this.byHash.set(hash, shared);
    }
    const own = shared.facts;
    const good = own.syntaxErrors.length === 0 ? own : previous?.good;
    const facts = good && good !== own ? { ...good, syntaxErrors: own.syntaxErrors } : own;
    this.forget(file);
    shared.uses++;
    this.files.set(file, { hash, facts, good });
    if (own.syntaxErrors.length > 0) this.broken.add(file);
    if (own === EMPTY_FACTS) this.skimmed.add(file);
    return { previous: previous?.facts, facts };
  }

  forget(file: string): void {
    const previous = this.files.get(file);
    if (!previous) return;
    this.files.delete(file);
    this.broken.delete(file);
    this.skimmed.delete(file);
    const shared = this.byHash.get(previous.hash);
    if (shared && --shared.uses === 0) this.byHash.delete(previous.hash);
  }

  /** The files skimmed since the last call, by content hash, each content's facts still those of a skim. */
  takeSkimmed(): Map<string, string[]> {
    const byHash = new Map<string, string[]>();
    for (const file of this.skimmed) {
      const hash = this.files.get(file)?.hash;
      if (hash === undefined || this.byHash.get(hash)?.facts !== EMPTY_FACTS) continue;
      const files = byHash.get(hash);
      if (files) files.push(file);
      else byHash.set(hash, [file]);
    }
    this.skimmed.clear();
    return byHash;
  }

  /** A skimmed content's syntax errors, found since: the facts of every file with it. */
  markBroken(hash: string, files: readonly string[], facts: FileFacts): void {
    const shared = this.byHash.get(hash);
    if (!shared) return;
    shared.facts = facts;
    for (const file of files) {
      const cached = this.files.get(file);
      if (cached?.hash !== hash) continue;
      this.files.set(file, { ...cached, facts });
      this.broken.add(file);
    }
  }

  /** The syntax errors of every file, or of the files in `dirs`, sorted by file and line. */
  syntaxErrors(dirs?: ReadonlySet<string>): FileProblem[] {
    const errors: FileProblem[] = [];
    for (const file of this.broken) {
      if (dirs && !dirs.has(path.dirname(file))) continue;
      for (const error of this.files.get(file)?.facts.syntaxErrors ?? [])
        errors.push({ file, range: error.range, message: error.message });
    }
    return errors.sort((a, b) =>
      a.file < b.file ? -1 : a.file > b.file ? 1 : a.range!.start.line - b.range!.start.line,
    );
  }
}

/** Node's one-shot hash (20.12 and later): several times faster than a `Hash` object on small files. */
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: 'base64') => string }).hash;

export function contentHash(text: string): string {
  return oneShotHash ? oneShotHash('sha1', text, 'base64') : crypto.createHash('sha1').update(text).digest('base64');
}
