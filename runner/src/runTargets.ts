import { type AnalysisResult, calledFolders, type FactsSource } from '../../server/src/engine/analysis';
import { type RunSelection, selectModules } from '../../server/src/engine/run';
import type { RunTarget } from './runModules';

/**
 * The run targets of a selection: each selected module with its folder, the folders of the local
 * child modules it calls (they are part of its fingerprint) and its direct dependencies.
 */
export function runTargets(result: AnalysisResult, facts: FactsSource, selection: RunSelection = {}): RunTarget[] {
  const byId = new Map(result.modules.map((module) => [module.id, module]));
  return selectModules(result.graph, selection).map((id) => {
    const module = byId.get(id)!;
    return {
      id,
      dir: module.dir,
      sourceDirs: [...calledFolders(module.dir, facts)].sort(),
      dependencies: [...result.graph.dependencies(id)].sort(),
    };
  });
}
