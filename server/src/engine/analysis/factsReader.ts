import { FILE_START } from '../hcl';
import { EMPTY_FACTS, type FileFacts, factsOfText, syntaxOnlyFacts } from '../workspace';
import type { FileProblem } from './analysisResult';
import { contentHash, FactsCache } from './factsCache';
import { ReadAhead } from './readAhead';
import { EncodingError, MAX_TYPED_CHARS, readSourceFile } from './sourceFile';

/** What reading the files tells the analysis of the nodes they decide. */
export interface NodesListener {
  /** What a file's facts say that decides which nodes there are: when it changes, they are decided again. */
  nodesKey(facts: FileFacts): string;
  /** Which nodes there are must be decided again. */
  nodesChanged(): void;
}

/**
 * The facts of the workspace's files, read from disk (`readSourceFile`) or taken from an editor's buffer and
 * cached by content (`FactsCache`), with what could not be read of them.
 */
export class FactsReader {
  private readonly readProblems = new Map<string, string>();
  private readonly facts = new FactsCache();

  constructor(
    private readonly backendMatchers: readonly ((name: string) => boolean)[],
    private readonly listener: NodesListener,
  ) {}

  /** Reads every file of `all`, files of the workspace's folders. `onProgress` is called as files are read. */
  async readAll(all: readonly string[], onProgress?: (done: number, total: number) => void): Promise<void> {
    // Synchronous reads of small files are several times faster than fs.promises (one
    // thread-pool round trip per open/stat/read/close), and a second thread reads ahead of them
    // in a large workspace; batches keep the event loop answering.
    const ahead = ReadAhead.start(all);
    try {
      for (let start = 0; start < all.length; start += LOAD_BATCH) {
        const end = Math.min(start + LOAD_BATCH, all.length);
        for (let n = start; n < end; n++) this.readAndCache(all[n]!, false, true, ahead?.take(n));
        onProgress?.(end, all.length);
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      ahead?.stop();
    }
  }

  /** An editor's buffer of `file`, parsed whole: true when what the analysis knows of the file changed. */
  cacheTyped(file: string, text: string): boolean {
    // The buffer is what the analysis reads now: what was said of reading the file is no longer true.
    const cleared = this.readProblems.delete(file);
    return this.cache(file, text, undefined, true) || cleared;
  }

  /**
   * A buffer too large to analyse as it is typed: its file keeps what was read of it on disk, and a warning
   * says so (a save is read, see `MAX_TYPED_CHARS`). True when the warning is new.
   */
  typedPastLimit(file: string, chars: number): boolean {
    if (this.readProblems.get(file)?.startsWith(TYPED_PAST_LIMIT)) return false;
    const size = (chars / 1024 / 1024).toFixed(1);
    this.readProblems.set(
      file,
      `${TYPED_PAST_LIMIT}: its ${size} MB of text are more than the ${MAX_TYPED_CHARS / 1024 / 1024} MB Terrace analyses as you type`,
    );
    return true;
  }

  /**
   * Parses the `.tf` files the fast path skimmed, so that their syntax errors are reported as
   * Terraform would report them; `changed` is told of each file that has some. True when any had.
   */
  async checkSkimmed(changed: (file: string) => void): Promise<boolean> {
    let found = false;
    let parsed = 0;
    for (const [hash, files] of this.facts.takeSkimmed()) {
      let text: string;
      try {
        text = readSourceFile(files[0]!);
      } catch {
        continue; // Changed since it was read: its next read reports it.
      }
      if (contentHash(text) !== hash) continue;
      const facts = syntaxOnlyFacts(text);
      if (facts.syntaxErrors.length > 0) {
        this.facts.markBroken(hash, files, facts);
        for (const file of files) changed(file);
        found = true;
      }
      if (++parsed % LOAD_BATCH === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    return found;
  }

  /** Whether the facts of `file` are cached. */
  has(file: string): boolean {
    return this.facts.has(file);
  }

  /** The facts of one file as last read or edited. */
  factsOf(file: string): FileFacts | undefined {
    return this.facts.factsOf(file);
  }

  /** The syntax errors of every file, or of the files in `dirs`, sorted by file and line. */
  syntaxErrors(dirs?: ReadonlySet<string>): FileProblem[] {
    return this.facts.syntaxErrors(dirs);
  }

  /** The files that could not be read, and those read as saved rather than as typed. */
  problems(): FileProblem[] {
    return [...this.readProblems].map(([file, message]) => ({ file, range: undefined, message }));
  }

  /**
   * Reads a file and caches its facts; true when what the analysis knows of it changed. `whole`:
   * parse even a file the fast path would skim (see `factsOfText`); `listed`: a file of the workspace's
   * folders, whose facts may decide which nodes there are (not one of a folder outside it); `text`: the file's
   * text as `readSourceFile` gives it, read already.
   */
  readAndCache(file: string, whole = false, listed = true, text?: string): boolean {
    try {
      const changed = this.cache(file, text ?? readSourceFile(file), undefined, whole, listed);
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
    const put = this.facts.put(file, text, () => known ?? factsOfText(file, text, this.backendMatchers, whole));
    if (!put) return false;
    const { previous, facts } = put;
    if (listed && (!previous || this.listener.nodesKey(previous) !== this.listener.nodesKey(facts)))
      this.listener.nodesChanged();
    return true;
  }

  /** Forgets the facts of `file`; what could not be read of it is kept (see `forgetProblem`). */
  forget(file: string): void {
    this.facts.forget(file);
  }

  /** Forgets what could not be read of `file`. */
  forgetProblem(file: string): void {
    this.readProblems.delete(file);
  }

  /** A folder is gone: the facts of the files `inside` it are forgotten, and what could not be read of them. */
  forgetInside(inside: (file: string) => boolean): void {
    for (const file of [...this.facts.cachedFiles()]) if (inside(file)) this.forget(file);
    for (const file of [...this.readProblems.keys()]) if (inside(file)) this.readProblems.delete(file);
  }
}

/** What a buffer too large to analyse as typed says (see `MAX_TYPED_CHARS`). */
const TYPED_PAST_LIMIT = 'this file is read as saved on disk, not as typed';

/** Files read between two turns of the event loop while loading. */
const LOAD_BATCH = 200;
