import type { AnalysisResult } from '../engine/analysis';
import type { PanelDetails, PanelDetailsParams, PanelModuleDetails, PanelProblem } from '../protocol';
import { moduleWireLocation } from './graphModel';

/**
 * `terrace/panelDetails`: what the panel's hover cards and clicks need of a few modules, from the analysis as
 * it is now; the page has only what it draws.
 */
export function panelDetails(result: AnalysisResult, params: PanelDetailsParams): PanelDetails {
  const wanted = new Set(params.modules);
  const found = new Map<string, PanelModuleDetails>();
  for (const module of result.modules) {
    if (!wanted.has(module.id)) continue;
    found.set(module.id, {
      id: module.id,
      location: moduleWireLocation(module),
      address: module.backend ? (module.backend.address ?? '') : null,
    });
  }
  return {
    modules: params.modules.flatMap((id) => found.get(id) ?? []),
    problems: problemTexts(result, params.modules, params.problems),
  };
}

/**
 * The first `limit` unresolved and ambiguous references of `modules`, each module's unresolved then
 * ambiguous in turn, as the panel counted them (`toPanelModel`): what a hover card lists.
 */
function problemTexts(result: AnalysisResult, modules: readonly string[], limit: number): PanelProblem[] {
  if (limit <= 0) return [];
  const wanted = new Set(modules);
  const byReader = new Map<string, PanelProblem[]>();
  for (const [kind, list] of [
    ['unresolved', result.unresolved],
    ['ambiguous', result.ambiguous],
  ] as const) {
    for (const item of list) {
      if (!wanted.has(item.from)) continue;
      const found = byReader.get(item.from) ?? [];
      found.push({ from: item.from, name: item.reference.name, reason: item.reason, kind });
      byReader.set(item.from, found);
    }
  }
  return modules.flatMap((id) => byReader.get(id) ?? []).slice(0, limit);
}
