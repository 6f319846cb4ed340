import path from 'node:path';
import type { FileRead } from '../evaluation';
import { type ChildModules, EMPTY_FACTS, type FileInput, withOverrides } from '../workspace';
import type { KindWorkspace } from './nodeKind';

/** Files as an evaluation reads them: Terraform's files with their override files merged over them. */
export function fileInputs(workspace: KindWorkspace, files: readonly string[]): readonly FileInput[] {
  return withOverrides(files.map((file) => ({ file, facts: workspace.factsOf(file) ?? EMPTY_FACTS })));
}

/** The files of the local child modules a module calls; each folder asked for is added to `read`. */
export function childModules(workspace: KindWorkspace, read: Set<string>): ChildModules {
  return (childDir) => {
    read.add(childDir);
    const child = workspace.dirOf(childDir);
    return child ? fileInputs(workspace, child.tfFiles) : undefined;
  };
}

/**
 * What a node reads in the folder Terraform runs in: its configuration, variable, backend and lock files
 * there (`working`), and `backendFiles` kept in its sub-folders (`backend/prod.conf`).
 */
export function workingReads(dir: string, backendFiles: readonly string[] = []): FileRead[] {
  const reads: FileRead[] = [{ target: { kind: 'folder', dir, files: 'working' }, how: 'its own files' }];
  for (const file of backendFiles)
    if (path.dirname(file) !== dir) reads.push({ target: { kind: 'file', path: file }, how: 'a backend file' });
  return reads;
}
