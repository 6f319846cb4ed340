import path from 'node:path';
import type { AnalysisResult } from '../engine/analysis';
import { folderRelative } from '../engine/evaluation';
import type { PanelModel, RunStateView } from '../protocol';
import { edgeInCycle } from './graphModel';

/**
 * The graph as the panel's webview gets it (see `PanelModel`), made from the analysis: each module with its
 * run state and its unresolved and ambiguous references counted (their texts: `panelDetails`), each edge's
 * read by its file from its reader's folder; the outputs read along the edges follow (`EdgeOutputsRequest`).
 * Made from the analysis, not from the whole graph model, whose file URIs (two a module, one a file read) the
 * page does not use: at 11,024 units they were 60-100 ms of the answer.
 */
export function toPanelModel(
  result: AnalysisResult,
  version: number,
  states?: ReadonlyMap<string, RunStateView>,
): PanelModel {
  const unresolved = countByReader(result.unresolved);
  const ambiguous = countByReader(result.ambiguous);
  const waiting = new Set(result.waitingForCycles);
  const inCycle = edgeInCycle(result);
  // Each reader's folder once: its reads' files are under it (10,000 edges at 3,000 units).
  const folders = new Map<string, string>();
  const fileOf = (from: string, file: string): string => {
    let folder = folders.get(from);
    if (folder === undefined) {
      folder = path.join(result.root, from);
      folders.set(from, folder);
    }
    return folderRelative(folder, file);
  };
  return {
    root: result.root,
    version,
    levels: result.levels,
    cycles: result.cycles,
    cycleModules: result.cycleMembers,
    modules: result.modules.map((module) => ({
      id: module.id,
      kind: module.kind,
      level: module.level,
      segments: module.segments,
      backend: module.backend?.type ?? null,
      inCycle: module.inCycle,
      // Sent only when set: at 11,000 units a `false` on each would be a quarter of a megabyte.
      ...(waiting.has(module.id) ? { waitsForCycle: true } : {}),
      parses: module.syntaxErrors.length === 0,
      ...(states?.has(module.id) ? { runState: states.get(module.id) } : {}),
      ...(unresolved.has(module.id) ? { unresolved: unresolved.get(module.id) } : {}),
      ...(ambiguous.has(module.id) ? { ambiguous: ambiguous.get(module.id) } : {}),
    })),
    edges: result.edges.map((edge) => ({
      from: edge.from,
      to: edge.to,
      name: edge.reference.name,
      instance: edge.reference.instance,
      matchedBy: edge.matchedBy,
      match: edge.match,
      inCycle: inCycle(edge),
      outputs: [],
      file: fileOf(edge.from, edge.reference.file),
      line: edge.reference.headerRange.start.line,
      character: edge.reference.headerRange.start.character,
    })),
  };
}

function countByReader(problems: readonly { from: string }[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const problem of problems) counts.set(problem.from, (counts.get(problem.from) ?? 0) + 1);
  return counts;
}
