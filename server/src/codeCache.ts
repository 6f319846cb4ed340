import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

/**
 * A CommonJS bundle loaded with V8's code cache, kept by an earlier process in a folder of the extension's own
 * (its global storage). Node's compile cache keeps only what is compiled as a file loads; this one is written
 * once the process has done its first work (the server's first analysis, the layout thread's first layout), so
 * the functions that work compiled load compiled too (see BENCHMARKS.md, "Compiled code kept for the next
 * window").
 */
export interface CachedBundle {
  /** The bundle's `module.exports`. */
  exports: unknown;
  /** Whether its code came from a cache an earlier process wrote. */
  fromCache: boolean;
  /** Writes the code cache if this process did not load from one, and says what it did (for the log). */
  save(): string;
}

/** What a bundle loaded here exports to hear of its cache: it saves it once its first work is done. */
export interface CodeCacheClient {
  codeCacheLoaded(bundle: CachedBundle): void;
}

/** Loads `file`, and tells it of its cache if it listens (`CodeCacheClient`). */
export function loadAndTell(file: string, cacheDir: string | undefined): void {
  const bundle = loadBundle(file, cacheDir);
  (bundle.exports as Partial<CodeCacheClient> | undefined)?.codeCacheLoaded?.(bundle);
}

/** The bytes of a cache file's checksum, before its data: V8 checks a cache's version and length, not its bytes. */
const CHECKSUM_BYTES = 32;

/** Loads `file` with the code cache kept in `cacheDir`; without a folder, with Node's compile cache where it has one. */
export function loadBundle(file: string, cacheDir: string | undefined): CachedBundle {
  if (cacheDir === undefined) return loadWithCompileCache(file);
  const source = readFileSync(file);
  const name = path.basename(file, '.js');
  const cacheFile = path.join(cacheDir, `${name}-${sourceKey(source)}.bin`);
  const cached = readCache(cacheFile);
  const script = new vm.Script(wrap(source.toString('utf8')), {
    filename: file,
    cachedData: cached,
    importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const used = cached !== undefined && !script.cachedDataRejected;
  const exports = run(script, file);
  let saved = false;
  return {
    exports,
    fromCache: used,
    save(): string {
      if (used) return `code cache of ${name} used`;
      if (saved) return `code cache of ${name} written already`;
      saved = true;
      try {
        writeCache(cacheFile, script.createCachedData());
        removeOthers(cacheDir, name, cacheFile);
        return `code cache of ${name} ${cached ? 'rejected by this Node, written again' : 'written'}`;
      } catch (error) {
        return `code cache of ${name} not written: ${error instanceof Error ? error.message : String(error)}`;
      }
    },
  };
}

function loadWithCompileCache(file: string): CachedBundle {
  (Module as typeof Module & { enableCompileCache?: () => unknown }).enableCompileCache?.();
  const exports: unknown = createRequire(file)(file);
  return {
    exports,
    fromCache: false,
    save: () => `code cache of ${path.basename(file, '.js')} not kept: no folder for it`,
  };
}

/** The bundle's text, this Node's version and its machine's architecture: a cache fits only these. */
function sourceKey(source: Buffer): string {
  return createHash('sha256').update(source).update(`\0${process.version}\0${process.arch}`).digest('hex').slice(0, 24);
}

/** As Node wraps a CommonJS file, on the same line so that the positions in its stack traces are the file's. */
function wrap(text: string): string {
  return `(function (exports, require, module, __filename, __dirname) { ${text}\n});`;
}

/** Runs the wrapped bundle as Node runs a module: its own `module`, a `require` relative to it, `this` its exports. */
function run(script: vm.Script, file: string): unknown {
  const bundle = new Module(file);
  bundle.filename = file;
  const wrapper = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: Module,
    filename: string,
    dirname: string,
  ) => void;
  wrapper.call(bundle.exports, bundle.exports, createRequire(file), bundle, file, path.dirname(file));
  bundle.loaded = true;
  return bundle.exports;
}

/** The cache's data, if its file is there and whole. */
function readCache(cacheFile: string): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  if (bytes.length <= CHECKSUM_BYTES) return undefined;
  const data = bytes.subarray(CHECKSUM_BYTES);
  return checksum(data).equals(bytes.subarray(0, CHECKSUM_BYTES)) ? data : undefined;
}

/**
 * A write's own file beside the cache's (`<cache>.<pid>.<random>.tmp`), and what finds one that a killed process left
 * among the caches of a bundle (`cache`: the pattern of their names, unanchored).
 */
const partialWrite = {
  file: (cacheFile: string): string => `${cacheFile}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`,
  pattern: (cache: string): RegExp => new RegExp(`^${cache}\\.\\d+\\.[0-9a-z]*\\.tmp$`),
};

/** Written whole or not at all: to a file of this process, then renamed over the cache's. */
function writeCache(cacheFile: string, data: Buffer): void {
  mkdirSync(path.dirname(cacheFile), { recursive: true });
  const partial = partialWrite.file(cacheFile);
  try {
    writeFileSync(partial, Buffer.concat([checksum(data), data]));
    renameSync(partial, cacheFile);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

/** How old a partial write must be to be called abandoned. */
const ABANDONED_MS = 60 * 60 * 1000;

/**
 * The same bundle's caches of other versions or other Nodes: an updated extension leaves none behind; and the
 * files of writes that a killed process left (not one still being written: an hour old).
 */
function removeOthers(cacheDir: string, name: string, kept: string): void {
  const names = `${name}-[0-9a-f]{24}\\.bin`;
  const cache = new RegExp(`^${names}$`);
  const partial = partialWrite.pattern(names);
  const abandoned = Date.now() - ABANDONED_MS;
  for (const entry of readdirSync(cacheDir)) {
    const full = path.join(cacheDir, entry);
    if (full !== kept && cache.test(entry)) rmSync(full, { force: true });
    else if (partial.test(entry) && modifiedBefore(full, abandoned)) rmSync(full, { force: true });
  }
}

function modifiedBefore(file: string, time: number): boolean {
  try {
    return statSync(file).mtimeMs < time;
  } catch {
    return false;
  }
}

function checksum(data: Buffer): Buffer {
  return createHash('sha256').update(data).digest();
}
