import path from 'node:path';
import { BrokenModulesError, ChangedFilesError } from '../engine/analysis';
import { ConfigError, loadWorkspaceConfig } from '../engine/config';
import {
  existingPipelineFile,
  generatePipeline,
  PipelineCycleError,
  type PipelineRequest,
  PipelineTooBigError,
  pipelineGate,
} from '../engine/pipeline';
import type { PipelineParams, PipelineResult } from '../protocol';
import { TERRACE_VERSION } from '../terraceVersion';
import { affectedSince } from './affectedRequest';
import { pathToUri } from './fileUris';
import type { FolderState } from './workspaceFolders';

/**
 * `terrace/pipeline`: the folder's current analysis and its `.terrace.yaml` (or `.terraci.yaml`)
 * through the engine's generator; changed-only counts what the editor sees too (uncommitted and
 * untracked files), and each dependent's jobs decide from the outputs it reads, as `terrace generate
 * --changed-only` writes them. Never throws: a cycle, a module that does not parse, or a problem comes back as a result the client shows.
 */
export async function pipelineFor(folder: FolderState, params: PipelineParams): Promise<PipelineResult> {
  if (folder.error) return { kind: 'error', message: folder.error };
  try {
    const config = await loadWorkspaceConfig(folder.root);
    const result = folder.analysis.result();
    let changed: PipelineRequest['changed'];
    if (params.changedOnly) {
      const baseRef = params.baseRef?.trim();
      if (!baseRef) return { kind: 'error', message: 'changed modules only needs a base ref, e.g. origin/main' };
      const affected = await affectedSince(folder, baseRef, config.pipeline.libraryModules);
      const gate = pipelineGate(TERRACE_VERSION, affected.reached.keys(), folder.analysis.contracts(), result.edges);
      changed = { baseRef, modules: affected.affected, gate };
    }
    const pipeline = generatePipeline(result, {
      ci: params.ci,
      options: config.pipeline,
      ...(changed ? { changed } : {}),
    });
    const file = path.join(folder.root, ...pipeline.path.split('/'));
    const companions = await Promise.all(
      pipeline.companions.map(async (companion) => {
        const at = path.join(folder.root, ...companion.path.split('/'));
        return { ...companion, uri: pathToUri(at), existing: await existingPipelineFile(at) };
      }),
    );
    return {
      kind: 'pipeline',
      text: pipeline.text,
      path: pipeline.path,
      uri: pathToUri(file),
      jobs: pipeline.jobs,
      modules: pipeline.modules,
      existing: await existingPipelineFile(file),
      companions,
      warnings: pipeline.warnings,
    };
  } catch (error) {
    if (error instanceof PipelineCycleError) return { kind: 'cycle', cycles: error.cycles, message: error.message };
    if (error instanceof BrokenModulesError)
      return { kind: 'broken', modules: error.modules.map((module) => module.id), message: error.message };
    if (error instanceof ChangedFilesError || error instanceof ConfigError || error instanceof PipelineTooBigError)
      return { kind: 'error', message: error.message };
    throw error;
  }
}
