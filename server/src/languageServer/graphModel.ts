import type { AnalysisResult, ModuleSummary } from '../engine/analysis';
import type { OutputContracts } from '../engine/contracts';
import { moduleLocation } from '../engine/features';
import { assumedValues } from '../engine/state';
import type { GraphModel, GraphModule, WireLocation } from '../protocol';
import { pathToUri } from './fileUris';

/**
 * The analysis as the protocol's graph model: what the client and the graph panel receive. The outputs read
 * along its edges come apart (`EdgeOutputsRequest`): the graph does not wait for the contracts between states.
 */
export function toGraphModel(result: AnalysisResult, version: number): GraphModel {
  const inCycle = edgeInCycle(result);
  // A file's URI made once: a module's reads name its few files, thousands of times at 3,000 units.
  const uris = new Map<string, string>();
  const uri = (file: string): string => {
    let made = uris.get(file);
    if (made === undefined) {
      made = pathToUri(file);
      uris.set(file, made);
    }
    return made;
  };
  const problem = (item: AnalysisResult['unresolved'][number]) => ({
    from: item.from,
    location: { uri: uri(item.reference.file), range: item.reference.headerRange },
    name: item.reference.name,
    reason: item.reason,
  });
  const waiting = new Set(result.waitingForCycles);
  return {
    root: result.root,
    version,
    modules: result.modules.map((module) => toGraphModule(module, waiting.has(module.id))),
    edges: result.edges.map((edge) => ({
      from: edge.from,
      to: edge.to,
      location: { uri: uri(edge.reference.file), range: edge.reference.headerRange },
      name: edge.reference.name,
      instance: edge.reference.instance,
      address: edge.address,
      matchedBy: edge.matchedBy,
      match: edge.match,
      assumed: assumedValues(edge.assumed),
      inCycle: inCycle(edge),
    })),
    levels: result.levels,
    cycles: result.cycles,
    cycleModules: result.cycleMembers,
    unresolved: result.unresolved.map(problem),
    ambiguous: result.ambiguous.map(problem),
  };
}

/** The outputs read along each of the graph's edges, in its `edges`' order (`EdgeOutputsRequest`). */
export function toEdgeOutputs(result: AnalysisResult, contracts: OutputContracts): string[][] {
  return result.edges.map((edge) => [...contracts.outputsAlong(edge)]);
}

/** Whether an edge is in a cycle: its two modules in the same one (a strongly connected component). */
export function edgeInCycle(result: AnalysisResult): (edge: { from: string; to: string }) => boolean {
  const cycleOf = new Map<string, number>();
  result.cycleMembers.forEach((members, index) => {
    for (const id of members) cycleOf.set(id, index);
  });
  return (edge) => cycleOf.has(edge.from) && cycleOf.get(edge.from) === cycleOf.get(edge.to);
}

/** Where a module is opened (`moduleLocation`), as the protocol carries it. */
export function moduleWireLocation(module: ModuleSummary): WireLocation {
  const location = moduleLocation(module);
  return { uri: pathToUri(location.file), range: location.range };
}

/** `waitsForCycle`: the module depends on a cycle's (the analysis's `waitingForCycles`). */
export function toGraphModule(module: ModuleSummary, waitsForCycle: boolean): GraphModule {
  return {
    id: module.id,
    uri: pathToUri(module.dir),
    kind: module.kind,
    level: module.level,
    segments: module.segments,
    backend: module.backend ? { type: module.backend.type, address: module.backend.address ?? '' } : null,
    location: moduleWireLocation(module),
    inCycle: module.inCycle,
    // Sent only when set: at 11,000 units a `false` on each would be a quarter of a megabyte.
    ...(waitsForCycle ? { waitsForCycle } : {}),
    parses: module.syntaxErrors.length === 0,
  };
}
