import type { AnalysisResult, ModuleSummary } from '../../server/src/engine/analysis';
import { type RunSelection, selectModules } from '../../server/src/engine/run';
import type { RunTarget } from './runRequest';

/**
 * The run targets of a selection: each selected module with its kind and folder, the folders of the
 * local child modules it calls (they are part of its fingerprint) and its direct dependencies. A
 * Terraform Stack's components are never targets: only HCP Terraform plans them.
 */
export function runTargets(result: AnalysisResult, selection: RunSelection = {}): RunTarget[] {
  const byId = new Map(result.modules.map((module) => [module.id, module]));
  return selectModules(result.graph, selection).flatMap((id) => {
    const module = byId.get(id)!;
    if (module.kind === 'component') return [];
    return {
      id,
      kind: module.kind satisfies RunTarget['kind'],
      ...(module.stackDir !== undefined ? { stackDir: module.stackDir } : {}),
      dir: module.dir,
      sourceDirs: sourceDirs(module),
      dependencies: [...result.graph.dependencies(id)].sort(),
    };
  });
}

/**
 * The folders beside its own whose files are part of a module's fingerprint: the local child modules it calls
 * (transitively), and a unit's code elsewhere (its `terraform.source`) and its included files' folders.
 */
function sourceDirs(module: ModuleSummary): string[] {
  const dirs = new Set(module.sourceDirs);
  for (const { target } of module.reads) if (target.kind === 'folder' && target.files === 'code') dirs.add(target.dir);
  dirs.delete(module.dir);
  return [...dirs].sort();
}
