import { gatedTargets, runTargets } from '../../../runner/src';
import { BrokenModulesError, brokenModules, ChangedFilesError } from '../engine/analysis';
import { ConfigError, executionFor, loadWorkspaceConfig } from '../engine/config';
import { upstreamReads } from '../engine/contracts';
import { cyclesLeftAloneWarning, selectionCycles } from '../engine/pipeline';
import { UnknownModuleError } from '../engine/run';
import type { RunTargetsParams, RunTargetsResult } from '../protocol';
import { affectedSince } from './affectedRequest';
import type { FolderState } from './workspaceFolders';

/**
 * `terrace/runTargets`: the modules a run covers, from the folder's current analysis, with the
 * `execution` section of its `.terrace.yaml`. Changed-only counts what the editor sees
 * (uncommitted and untracked files too) and adds the dependents. Refuses modules that do not parse, and
 * any run in a workspace not trusted. Never throws: a problem comes back as a message the client shows.
 */
export async function runTargetsFor(folder: FolderState, params: RunTargetsParams): Promise<RunTargetsResult> {
  if (folder.error) return { kind: 'error', message: folder.error };
  // The client refuses first; the `execution` section of an untrusted folder is never handed out.
  if (!folder.trusted)
    return { kind: 'error', message: 'Restricted Mode: Terrace runs terraform only in a trusted workspace' };
  try {
    const config = await loadWorkspaceConfig(folder.root);
    const result = folder.analysis.result();
    let modules = params.modules;
    let reached: ReadonlySet<string> | undefined = params.gateFrom ? new Set(params.gateFrom) : undefined;
    if (params.changedOnly) {
      const baseRef = params.baseRef?.trim();
      if (!baseRef) return { kind: 'error', message: 'changed modules only needs a base ref, e.g. origin/main' };
      const reach = await affectedSince(folder, baseRef, config.pipeline.libraryModules);
      modules = [...reach.affected];
      reached = new Set(reach.reached.keys());
    }
    const all = runTargets(result, {
      ...(modules ? { modules } : {}),
      withDependencies: params.withDependencies ?? false,
      withDependents: params.withDependents ?? false,
    });
    // A gated run plans each dependent only when what it reads changes, as `terrace plan --changed-only`.
    const targets = reached
      ? gatedTargets(all, reached, upstreamReads(folder.analysis.contracts(), result.edges))
      : all;
    // Terraform would stop on a module that does not parse: refused before anything runs, as the CLI does.
    const broken = brokenModules(result, new Set(targets.map((target) => target.id)));
    if (broken.length > 0)
      return {
        kind: 'broken',
        modules: broken.map((module) => module.id),
        message: new BrokenModulesError(broken).message,
      };
    const chosen = modules ? new Set(modules) : undefined;
    const components = result.modules.filter(
      (module) => module.kind === 'component' && (!chosen || chosen.has(module.id)),
    ).length;
    // Run with the workspace's engine (tofu for OpenTofu's) and the selected environment's tfvars files.
    const execution = executionFor(
      config.pipeline.execution,
      result.engine,
      folder.analysis.options.environment,
      folder.analysis.options.environments,
    );
    // A run orders its own modules only: the graph's cycles none of them closes are left alone, and said so.
    const { leftAlone } = selectionCycles(result, new Set(targets.map((target) => target.id)));
    const notes = leftAlone > 0 ? [cyclesLeftAloneWarning(leftAlone)] : [];
    return { kind: 'targets', root: folder.root, targets, execution, components, notes };
  } catch (error) {
    if (error instanceof ChangedFilesError || error instanceof ConfigError || error instanceof UnknownModuleError)
      return { kind: 'error', message: error.message };
    throw error;
  }
}
