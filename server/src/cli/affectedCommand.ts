import {
  type AnalysisResult,
  baseRefProblem,
  ChangedFilesError,
  type ChangeReach,
  changedFiles,
  changeReach,
  loadWorkspace,
  type WorkspaceAnalysis,
} from '../engine/analysis';
import { loadWorkspaceConfig, type WorkspaceConfig } from '../engine/config';
import { folderRelative } from '../engine/evaluation';
import { reachExplanations } from '../engine/features';

/** What the changes since a base ref reach: the changed files, the modules they reach and why. */
export interface ChangedReach {
  baseRef: string;
  files: string[];
  reach: ChangeReach;
  /** Why each affected module is in, by id. */
  why: Map<string, string>;
}

/**
 * The changes since the merge base of `baseRef` and HEAD, uncommitted ones too when asked, and what they
 * reach in `analysis`. Throws `ChangedFilesError` when git cannot tell.
 */
export async function changedReach(
  analysis: WorkspaceAnalysis,
  config: WorkspaceConfig,
  baseRef: string,
  includeUncommitted: boolean,
): Promise<ChangedReach> {
  const result = analysis.result();
  const files = await changedFiles(result.root, baseRef, { includeUncommitted });
  const reach = changeReach(result, files, {
    libraryModules: config.pipeline.libraryModules,
    backendConfigFiles: config.analysis.discovery.backendConfigFiles,
  });
  return { baseRef, files, reach, why: reachExplanations(result, reach) };
}

/** `3 changed file(s) since main: 2 module(s) read them, 5 <what> with their dependents`. */
export function reachSummary(changed: ChangedReach, what: string): string {
  const { files, reach } = changed;
  return `${files.length} changed file(s) since ${changed.baseRef}: ${reach.reached.size} module(s) read them, ${reach.affected.size} ${what} with their dependents\n`;
}

/** One line per module the change affects, in id order: `app/api: its own file main.tf`. */
export function explanationLines(result: AnalysisResult, changed: ChangedReach): string {
  return result.modules
    .filter((module) => changed.reach.affected.has(module.id))
    .map((module) => `  ${module.id}: ${changed.why.get(module.id)}\n`)
    .join('');
}

export interface AffectedFlags {
  'base-ref'?: string;
  format?: string;
  env?: string;
}

export interface AffectedIo {
  usage(message: string): Error;
  out(text: string): void;
  err(text: string): void;
}

/** A `--base-ref` that names no revision is a usage error, before anything is read (`baseRefProblem`). */
export function refuseBadBaseRef(ref: string | undefined, io: { usage(message: string): Error }): void {
  const problem = ref === undefined ? undefined : baseRefProblem(ref);
  if (problem !== undefined) throw io.usage(`--base-ref ${problem}`);
}

/**
 * `terrace affected [dir] --base-ref <ref> [--format text|json]`: the modules the changes since the merge
 * base of `<ref>` and HEAD (committed, uncommitted and untracked) can alter the plan of, each with why:
 * the files it reads that changed, or the module it depends on. Exit 1 when git cannot tell what changed.
 */
export async function affectedCommand(root: string, flags: AffectedFlags, io: AffectedIo): Promise<number> {
  const baseRef = flags['base-ref'];
  if (!baseRef) throw io.usage('affected needs --base-ref <ref>, e.g. --base-ref origin/main');
  refuseBadBaseRef(baseRef, io);
  const format = flags.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw io.usage('--format must be text or json for affected');
  const config = await loadWorkspaceConfig(root);
  for (const warning of config.warnings) io.err(`Warning: ${warning}\n`);
  const analysis = await loadWorkspace(root, { ...config.analysis, environment: flags.env });
  let changed: ChangedReach;
  try {
    changed = await changedReach(analysis, config, baseRef, true);
  } catch (error) {
    if (!(error instanceof ChangedFilesError)) throw error;
    io.err(`Error: ${error.message}\n`);
    return 1;
  }
  const result = analysis.result();
  io.err(reachSummary(changed, 'affected'));
  if (format === 'json') io.out(`${JSON.stringify(affectedJson(result, changed), null, 2)}\n`);
  else io.out(explanationLines(result, changed).replace(/^ {2}/gm, ''));
  return 0;
}

/** The JSON of `affected`: every affected module with why, and the reads that the changed files match. */
function affectedJson(result: AnalysisResult, changed: ChangedReach) {
  return {
    baseRef: changed.baseRef,
    files: changed.files,
    modules: result.modules
      .filter((module) => changed.reach.affected.has(module.id))
      .map((module) => {
        const reached = changed.reach.reached.get(module.id);
        return {
          id: module.id,
          reached: reached !== undefined,
          why: changed.why.get(module.id)!,
          ...(reached
            ? {
                changedFiles: reached.files,
                reads: reached.reasons.map(({ file, read }) => ({
                  file: folderRelative(result.root, file),
                  how: read.how,
                  ...(read.at ? { at: `${folderRelative(module.dir, read.at.file)}:${read.at.line}` } : {}),
                })),
              }
            : {}),
        };
      }),
  };
}
