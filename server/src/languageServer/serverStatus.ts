import type { ServerStatusParams } from '../protocol';
import type { FolderState } from './workspaceFolders';

/** What the status item shows of the folders: indexing, the first folder's error, or their modules and cycles. */
export function serverStatus(all: readonly FolderState[]): ServerStatusParams {
  const failed = all.find((folder) => folder.error);
  const indexing = all.length === 0 || all.some((folder) => folder.indexing);
  let modules = 0;
  let cycles = 0;
  let tofu = 0;
  if (!indexing) {
    for (const folder of all) {
      if (folder.error) continue;
      const result = folder.analysis.result();
      modules += result.modules.length;
      cycles += result.cycles.length;
      if (result.engine === 'tofu') tofu++;
    }
  }
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return {
    health: failed ? 'error' : indexing ? 'indexing' : 'ready',
    message: failed
      ? (failed.error ?? '')
      : indexing
        ? 'indexing'
        : `${plural(modules, 'module')}, ${plural(cycles, 'cycle')}${engineNote(tofu, all.length)}`,
    modules,
    cycles,
  };
}

/** Which folders OpenTofu reads (Terraform reads the others, as by default): ` · read as OpenTofu`. */
function engineNote(tofu: number, folderCount: number): string {
  if (tofu === 0) return '';
  return tofu === folderCount ? ' · read as OpenTofu' : ` · ${tofu} of ${folderCount} folders read as OpenTofu`;
}
