import { type AnalysisResult, calledFolders, type FactsSource } from '../../server/src/engine/analysis';
import { type RunSelection, selectModules } from '../../server/src/engine/run';
import type { RunTarget } from './runModules';

/**
 * The run targets of a selection: each selected module with its kind and folder, the folders of the
 * local child modules it calls (they are part of its fingerprint) and its direct dependencies. A
 * Terraform Stack's components are never targets: only HCP Terraform plans them.
 */
export function runTargets(result: AnalysisResult, facts: FactsSource, selection: RunSelection = {}): RunTarget[] {
  const byId = new Map(result.modules.map((module) => [module.id, module]));
  return selectModules(result.graph, selection).flatMap((id) => {
    const module = byId.get(id)!;
    if (module.kind === 'component') return [];
    // A unit's code elsewhere (its `terraform.source`), what that code calls and its included files count like child modules.
    const code = (module.sourceDirs ?? []).flatMap((dir) => [dir, ...calledFolders(dir, facts)]);
    return {
      id,
      kind: module.kind satisfies RunTarget['kind'],
      ...(module.stackDir !== undefined ? { stackDir: module.stackDir } : {}),
      dir: module.dir,
      sourceDirs: [...new Set([...calledFolders(module.dir, facts), ...code])].sort(),
      dependencies: [...result.graph.dependencies(id)].sort(),
    };
  });
}
