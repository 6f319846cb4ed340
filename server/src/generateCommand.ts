import { affectedModules, ChangedFilesError, changedFiles, WorkspaceAnalysis } from './engine/analysis';
import { loadWorkspaceConfig } from './engine/config';
import { relativeFile } from './engine/features';
import { CI_SYSTEMS, type CiSystem, generatePipeline, PipelineCycleError } from './engine/pipeline';

export interface GenerateFlags {
  ci?: string;
  'changed-only'?: boolean;
  'base-ref'?: string;
  output?: string;
  /** The environment to analyse (`--env`). */
  env?: string;
}

export interface GenerateIo {
  usage(message: string): Error;
  /** Writes `text` to `file` (relative to the current folder); returns the absolute path. */
  write(file: string, text: string): string;
}

/**
 * `terrace generate [dir] --ci gitlab|github [--changed-only --base-ref <ref>] [--output <file>]`:
 * the pipeline on stdout, or written to `--output`. Exit 1 on cycles (with their paths) or when
 * git cannot tell what changed.
 */
export async function generateCommand(root: string, flags: GenerateFlags, io: GenerateIo): Promise<number> {
  if (flags.ci === undefined) throw io.usage(`generate needs --ci ${CI_SYSTEMS.join('|')}`);
  if (!(CI_SYSTEMS as readonly string[]).includes(flags.ci))
    throw io.usage(`--ci must be one of ${CI_SYSTEMS.join(', ')}`);
  const ci = flags.ci as CiSystem;
  if (flags['base-ref'] !== undefined && !flags['changed-only']) throw io.usage('--base-ref goes with --changed-only');
  if (flags['changed-only'] && !flags['base-ref'])
    throw io.usage('--changed-only needs --base-ref <ref>, e.g. --base-ref origin/main');

  const config = await loadWorkspaceConfig(root);
  for (const warning of config.warnings) process.stderr.write(`Warning: ${warning}\n`);
  const analysis = new WorkspaceAnalysis(root, { ...config.analysis, environment: flags.env });
  await analysis.load();
  const result = analysis.result();
  for (const error of result.syntaxErrors)
    process.stderr.write(
      `Error: ${relativeFile(root, error.file)}:${(error.range?.start.line ?? 0) + 1}: ${error.message}\n`,
    );

  let changed: { baseRef: string; modules: Set<string> } | undefined;
  if (flags['changed-only']) {
    const baseRef = flags['base-ref']!;
    let files: string[];
    try {
      files = await changedFiles(root, baseRef, { includeUncommitted: false });
    } catch (error) {
      if (!(error instanceof ChangedFilesError)) throw error;
      process.stderr.write(`Error: ${error.message}\n`);
      return 1;
    }
    const affected = affectedModules(result, analysis, files, config.pipeline.libraryModules);
    process.stderr.write(
      `${files.length} changed file(s) since ${baseRef}: ${affected.changed.length} module(s) changed, ` +
        `${affected.viaLibraries.length} through library modules, ${affected.affected.size} in the pipeline\n`,
    );
    changed = { baseRef, modules: affected.affected };
  }

  try {
    const pipeline = generatePipeline(result, { ci, options: config.pipeline, ...(changed ? { changed } : {}) });
    if (flags.output === undefined) process.stdout.write(pipeline.text);
    else {
      const written = io.write(flags.output, pipeline.text);
      process.stderr.write(`Wrote ${written}: ${pipeline.jobs.length} jobs for ${pipeline.modules} modules\n`);
    }
    return 0;
  } catch (error) {
    if (!(error instanceof PipelineCycleError)) throw error;
    process.stderr.write('Error: circular dependency detected; a pipeline needs an order, so none was generated\n');
    for (const cycle of error.cycles) process.stderr.write(`  ${cycle.join(' -> ')}\n`);
    return 1;
  }
}
