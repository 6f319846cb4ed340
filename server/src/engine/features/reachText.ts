import type { AnalysisResult, ChangeReach, ReachedModule, ReachReason } from '../analysis';
import { folderRelative, type ReadTarget } from '../evaluation';

/**
 * Why each module a change reaches is in it, as a person reads it: the changed files it reads and how
 * (`reads terragrunt.hcl (include "root")`, `reads ../policies/x.tpl (file(), main.tf:42)`), or the module
 * it depends on (`depends on network/vpc`). Paths are relative to the analysis root; where a read is
 * written, relative to the module's folder.
 */
export function reachExplanations(result: AnalysisResult, reach: ChangeReach): Map<string, string> {
  const dirs = new Map(result.modules.map((module) => [module.id, module.dir]));
  const why = new Map<string, string>();
  for (const [id, reached] of reach.reached) why.set(id, reachedText(result.root, dirs.get(id)!, reached));
  // Breadth first from the modules reached: each dependent names its nearest upstream in the change.
  const queue = [...reach.reached.keys()];
  for (let n = 0; n < queue.length; n++) {
    const id = queue[n]!;
    for (const dependent of result.graph.dependents(id)) {
      if (why.has(dependent) || !reach.affected.has(dependent)) continue;
      why.set(dependent, `depends on ${id}`);
      queue.push(dependent);
    }
  }
  return why;
}

/** Why a module is reached: its first reasons, and how many more changed files reach it. */
export function reachedText(root: string, dir: string, reached: ReachedModule): string {
  const texts = reached.reasons.map((reason) => reasonText(root, dir, reason));
  const more = reached.files - reached.reasons.length;
  return more > 0 ? `${texts.join('; ')} and ${more} more file${more === 1 ? '' : 's'}` : texts.join('; ');
}

function reasonText(root: string, dir: string, { file, read, link }: ReachReason): string {
  const changed = folderRelative(root, file);
  if (link !== undefined) {
    const through = read.how === 'its own files' ? '' : `, ${read.how}`;
    return `reads ${changed} (through the link ${folderRelative(dir, link)}${through})`;
  }
  if (read.how === 'its own files') return `its own file ${folderRelative(dir, file)}`;
  const details = [read.how];
  if (read.at) details.push(`${folderRelative(dir, read.at.file)}:${read.at.line}`);
  const known = inPart(root, read.target);
  if (known) details.push(`a path known in part: ${known}`);
  return `reads ${changed} (${details.join(', ')})`;
}

/** A read's path as written, where only part of it is known. */
function inPart(root: string, target: ReadTarget): string | undefined {
  if (target.kind !== 'pattern') return undefined;
  return folderRelative(root, target.shown);
}
