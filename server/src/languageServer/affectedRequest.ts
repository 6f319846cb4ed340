import { type AffectedModules, affectedModules, ChangedFilesError, changedFiles } from '../engine/analysis';
import { ConfigError, loadWorkspaceConfig } from '../engine/config';
import type { AffectedParams, AffectedResult } from '../protocol';
import type { FolderState } from './workspaceFolders';

/** Why changes since a base ref are not counted in Restricted Mode. */
const UNTRUSTED_CHANGES =
  'Restricted Mode: Terrace asks git what changed only in a trusted workspace (Manage Workspace Trust to trust it)';

/**
 * `terrace/affected`: the modules the changes since a base ref touch (committed since the merge base,
 * uncommitted and untracked: what the editor sees), those that call a changed library module, and
 * everything downstream of them: what a changed-only pipeline or run would cover. Never throws: a
 * folder outside git, an unknown ref or a missing git comes back as a message.
 */
export async function affectedFor(folder: FolderState, params: AffectedParams): Promise<AffectedResult> {
  if (folder.error) return { kind: 'error', message: folder.error };
  const baseRef = params.baseRef.trim();
  if (!baseRef) return { kind: 'error', message: 'affected modules need a base ref, e.g. origin/main' };
  try {
    const config = await loadWorkspaceConfig(folder.root);
    const found = await affectedSince(folder, baseRef, config.pipeline.libraryModules);
    return {
      kind: 'affected',
      baseRef,
      changed: [...new Set([...found.changed, ...found.viaLibraries])].sort(),
      affected: [...found.affected].sort(),
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
): Promise<AffectedModules> {
  if (!folder.trusted) throw new ChangedFilesError(UNTRUSTED_CHANGES);
  const files = await changedFiles(folder.root, baseRef, { includeUncommitted: true });
  return affectedModules(folder.analysis.result(), folder.analysis, files, libraryModules);
}
