import { ChangedFilesError, type ChangeReach, changedFiles, changeReach } from '../engine/analysis';
import { ConfigError, loadWorkspaceConfig } from '../engine/config';
import { reachExplanations } from '../engine/features';
import type { AffectedParams, AffectedResult } from '../protocol';
import type { FolderState } from './workspaceFolders';

/** Why changes since a base ref are not counted in Restricted Mode. */
const UNTRUSTED_CHANGES =
  'Restricted Mode: Terrace asks git what changed only in a trusted workspace (Manage Workspace Trust to trust it)';

/**
 * `terrace/affected`: the modules the changes since a base ref reach (committed since the merge base,
 * uncommitted and untracked: what the editor sees), each through the files its plan reads, and everything
 * downstream of them, each with why: what a changed-only pipeline or run would cover. Never throws: a
 * folder outside git, an unknown ref or a missing git comes back as a message.
 */
export async function affectedFor(folder: FolderState, params: AffectedParams): Promise<AffectedResult> {
  if (folder.error) return { kind: 'error', message: folder.error };
  const baseRef = params.baseRef.trim();
  if (!baseRef) return { kind: 'error', message: 'affected modules need a base ref, e.g. origin/main' };
  try {
    const config = await loadWorkspaceConfig(folder.root);
    const found = await affectedSince(folder, baseRef, config.pipeline.libraryModules);
    const why = reachExplanations(folder.analysis.result(), found);
    return {
      kind: 'affected',
      baseRef,
      changed: [...found.reached.keys()].sort(),
      affected: [...found.affected].sort(),
      why: Object.fromEntries(why),
    };
  } catch (error) {
    if (error instanceof ChangedFilesError || error instanceof ConfigError)
      return { kind: 'error', message: error.message };
    throw error;
  }
}

/**
 * What the changes the editor sees affect: committed since the merge base with `baseRef`, uncommitted
 * and untracked, in the folder's current analysis. The panel's affected view, changed-only pipelines
 * and changed-only runs all count them so. Throws `ChangedFilesError` outside git, for an unknown ref, or
 * in a workspace not trusted (where git is not started).
 */
export async function affectedSince(
  folder: FolderState,
  baseRef: string,
  libraryModules: readonly string[],
): Promise<ChangeReach> {
  if (!folder.trusted) throw new ChangedFilesError(UNTRUSTED_CHANGES);
  const files = await changedFiles(folder.root, baseRef, { includeUncommitted: true });
  return changeReach(folder.analysis.result(), files, {
    libraryModules,
    backendConfigFiles: folder.analysis.options.discovery.backendConfigFiles,
  });
}
