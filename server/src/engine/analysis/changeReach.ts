import path from 'node:path';
import picomatch from 'picomatch';
import type { FileRead } from '../evaluation';
import { closure } from '../graph';
import { folderContains, readInFolder } from '../workspace';
import type { AnalysisResult, ModuleSummary } from './analysisResult';

/**
 * What a change reaches: the modules whose plan a set of changed files can alter, found through the files
 * each module's plan reads (`ModuleSummary.reads`: its own folder's, its child modules', what it includes,
 * what its file functions name), and everything downstream of them. Changed-only pipelines, changed-only runs
 * and the panel's affected view all ask this one question.
 */

/** A changed file and the read of a module it matches: why the module is reached. */
export interface ReachReason {
  /** The changed file, absolute. */
  file: string;
  read: FileRead;
  /** The link to it that the read names, where the module reads it through a symbolic link. */
  link?: string;
}

export interface ReachedModule {
  /** The first reasons, in the order of the changed files (at most `REASONS_KEPT`). */
  reasons: ReachReason[];
  /** How many changed files reach it. */
  files: number;
}

export interface ChangeReach {
  /** Each module a changed file reaches, by id, in the order of the analysis's modules. */
  reached: Map<string, ReachedModule>;
  /** The modules reached and every module downstream of them: what a changed-only pipeline runs. */
  affected: Set<string>;
}

export interface ReachOptions {
  /**
   * TerraCi's library folders (`library_modules.paths`), relative to the analysis root: a change anywhere in
   * one counts for every module that calls a module inside it, whether or not the module reads the file.
   */
  libraryModules?: readonly string[];
  /** `discovery.backendConfigFiles`: which names in a module's folder are its backend files. */
  backendConfigFiles?: readonly string[];
}

/** Reasons kept per module: a change of a thousand files that all reach it is told by its first few. */
export const REASONS_KEPT = 3;

/**
 * The modules `files` reach. `files` are absolute, or relative to the analysis root (`../` for files of the
 * repository outside it, which a module may read too). Each file is looked up by its path, its folder and
 * the folders above it, not compared with every module: a large change in a large monorepo is files times
 * modules otherwise.
 */
export function changeReach(result: AnalysisResult, files: readonly string[], options: ReachOptions = {}): ChangeReach {
  const reached = modulesReading(result, files, options);
  return { reached, affected: closure(result.graph, [...reached.keys()], 'downstream') };
}

/** The modules whose plan reads one of `files`, by id (`changeReach` without what is downstream of them). */
export function modulesReading(
  result: AnalysisResult,
  files: readonly string[],
  options: ReachOptions = {},
): Map<string, ReachedModule> {
  const index = readIndex(result);
  const matchers = (options.backendConfigFiles ?? []).map((glob) => picomatch(glob, { dot: true, basename: true }));
  const libraries = (options.libraryModules ?? []).map((folder) => path.resolve(result.root, folder));
  const found = new Map<number, ReachedModule>();
  for (const file of files) {
    const absolute = path.resolve(result.root, file);
    const reachedHere = new Set<number>();
    const reachVia = (link: string | undefined) => (module: number, read: FileRead) => {
      if (reachedHere.has(module)) return;
      reachedHere.add(module);
      const reason: ReachReason = link === undefined ? { file: absolute, read } : { file: absolute, read, link };
      const entry = found.get(module);
      if (!entry) found.set(module, { reasons: [reason], files: 1 });
      else {
        entry.files++;
        if (entry.reasons.length < REASONS_KEPT) entry.reasons.push(reason);
      }
    };
    const reach = reachVia(undefined);
    index.match(absolute, matchers, reach);
    // Git names a linked file by its target: each link to it changed too.
    for (const link of result.linksTo?.get(absolute) ?? []) index.match(link, matchers, reachVia(link));
    for (const library of libraries) {
      if (!folderContains(library, absolute)) continue;
      const read: FileRead = { target: { kind: 'folder', dir: library, files: 'code' }, how: 'library_modules' };
      for (const module of index.callingInto(library)) reach(module, read);
    }
  }
  const ordered = [...found.keys()].sort((a, b) => a - b);
  return new Map(ordered.map((n) => [result.modules[n]!.id, found.get(n)!]));
}

interface Entry {
  module: number;
  read: FileRead;
}

interface PatternEntry extends Entry {
  pattern: RegExp;
}

/** The index of one result's reads, made on the first question and kept while the result is. */
const indexes = new WeakMap<AnalysisResult, ReadIndex>();

function readIndex(result: AnalysisResult): ReadIndex {
  let index = indexes.get(result);
  if (!index) {
    index = new ReadIndex(result.modules);
    indexes.set(result, index);
  }
  return index;
}

/** Every module's reads by the path they read: a file, a folder, the folder a pattern is under. */
class ReadIndex {
  private readonly byFile = new Map<string, Entry[]>();
  private readonly byFolder = new Map<string, Entry[]>();
  private readonly byPatternFolder = new Map<string, PatternEntry[]>();
  private readonly callers = new Map<string, number[]>();

  constructor(private readonly modules: readonly ModuleSummary[]) {
    modules.forEach((summary, module) => {
      for (const read of summary.reads) {
        const target = read.target;
        if (target.kind === 'file') push(this.byFile, target.path, { module, read });
        else if (target.kind === 'folder') push(this.byFolder, withoutSeparator(target.dir), { module, read });
        else {
          const pattern = new RegExp(`^(?:${target.pattern})$`);
          push(this.byPatternFolder, withoutSeparator(target.dir), { module, read, pattern });
        }
      }
    });
  }

  /** Calls `reach` for each read of each module that the file at `file` (absolute) matches. */
  match(
    file: string,
    backendMatchers: readonly ((name: string) => boolean)[],
    reach: (module: number, read: FileRead) => void,
  ): void {
    // A module's own folder first: its own file is said so, whatever else names it.
    const dir = path.dirname(file);
    const name = path.basename(file);
    for (const entry of this.byFolder.get(dir) ?? []) {
      const target = entry.read.target;
      if (target.kind === 'folder' && readInFolder(target.files, name, backendMatchers))
        reach(entry.module, entry.read);
    }
    for (const entry of this.byFile.get(file) ?? []) reach(entry.module, entry.read);
    if (this.byPatternFolder.size === 0) return;
    for (let folder = dir; ; ) {
      const entries = this.byPatternFolder.get(folder);
      if (entries) {
        const below = file
          .slice(folder.length + (folder.endsWith(path.sep) ? 0 : 1))
          .split(path.sep)
          .join('/');
        for (const entry of entries) if (entry.pattern.test(below)) reach(entry.module, entry.read);
      }
      const parent = path.dirname(folder);
      if (parent === folder) break;
      folder = parent;
    }
  }

  /** The modules that call a module in `folder` (or `folder` itself): a read of a code folder inside it. */
  callingInto(folder: string): readonly number[] {
    let found = this.callers.get(folder);
    if (!found) {
      found = [];
      this.modules.forEach((summary, module) => {
        const calls = summary.reads.some(
          ({ target }) => target.kind === 'folder' && target.files === 'code' && folderContains(folder, target.dir),
        );
        if (calls) found!.push(module);
      });
      this.callers.set(folder, found);
    }
    return found;
  }
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** A folder as `path.dirname` gives it, so that a file's folder finds it. */
function withoutSeparator(dir: string): string {
  return dir.length > 1 && dir.endsWith(path.sep) ? dir.slice(0, -1) : dir;
}
