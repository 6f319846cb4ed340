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
