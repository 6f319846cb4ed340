import { modulesReading } from '../engine/analysis';
import { moduleLocation, reachedText } from '../engine/features';
import type { FileReader } from '../protocol';
import { toLocation } from './lspShapes';
import type { FolderState } from './workspaceFolders';

/**
 * `terrace/fileReaders`: the modules of `folders` whose plan reads `file` (absolute), each with how, from
 * the folders' current analyses: the question a change of the file asks (`changeReach`), for one file, without what is downstream.
 */
export function fileReadersOf(folders: readonly FolderState[], file: string): FileReader[] {
  const readers: FileReader[] = [];
  for (const folder of folders) {
    if (folder.error) continue;
    const result = folder.analysis.result();
    const reading = modulesReading(result, [file], {
      backendConfigFiles: folder.analysis.options.discovery.backendConfigFiles,
    });
    for (const module of result.modules) {
      const reached = reading.get(module.id);
      if (!reached) continue;
      const { file: opens, range } = moduleLocation(module);
      readers.push({
        id: module.id,
        own: reached.reasons.every((reason) => reason.read.how === 'its own files' && reason.link === undefined),
        why: reachedText(result.root, module.dir, reached),
        location: toLocation(opens, range),
      });
    }
  }
  return readers;
}
