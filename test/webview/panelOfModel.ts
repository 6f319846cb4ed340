import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { GraphModel, GraphProblem, PanelModel } from '../../server/src/protocol';

/**
 * The panel's graph made from a whole graph model (a fixture's, or the server's `terrace/graph` answer), as the
 * server makes it from the analysis (`languageServer/panelModel.ts`): the page's graph for the webview tier's
 * pages, and what the server's own must equal. With the outputs read along each edge when given, else none.
 */
export function panelOfModel(graph: GraphModel, outputs?: readonly string[][]): PanelModel {
  const unresolved = countByReader(graph.unresolved);
  const ambiguous = countByReader(graph.ambiguous);
  // Each reader's folder as a URI once: its reads' files are under it (10,000 edges at 3,000 units).
  const folders = new Map<string, string>();
  const fileOf = (from: string, uri: string): string => {
    let prefix = folders.get(from);
    if (prefix === undefined) {
      prefix = `${pathToFileURL(path.join(graph.root, from)).href}/`;
      folders.set(from, prefix);
    }
    if (uri.startsWith(prefix)) return decodeURIComponent(uri.slice(prefix.length));
    return relativeFile(path.join(graph.root, from), uri);
  };
  return {
    root: graph.root,
    version: graph.version,
    levels: graph.levels,
    cycles: graph.cycles,
    ...(graph.cycleModules ? { cycleModules: graph.cycleModules } : {}),
    modules: graph.modules.map(({ uri: _uri, location: _location, backend, ...module }) => ({
      ...module,
      backend: backend?.type ?? null,
      ...(unresolved.has(module.id) ? { unresolved: unresolved.get(module.id) } : {}),
      ...(ambiguous.has(module.id) ? { ambiguous: ambiguous.get(module.id) } : {}),
    })),
    // Each field named: a rest pattern copies 10,000 edges at a third of the time of this whole function.
    edges: graph.edges.map((edge, at) => ({
      from: edge.from,
      to: edge.to,
      name: edge.name,
      instance: edge.instance,
      matchedBy: edge.matchedBy,
      match: edge.match,
      inCycle: edge.inCycle,
      outputs: outputs?.[at] ?? [],
      file: fileOf(edge.from, edge.location.uri),
      line: edge.location.range.start.line,
      character: edge.location.range.start.character,
    })),
  };
}

function countByReader(problems: readonly GraphProblem[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const problem of problems) counts.set(problem.from, (counts.get(problem.from) ?? 0) + 1);
  return counts;
}

/** A file URI as a path relative to a folder, with `/` (the host joins it back). */
function relativeFile(folder: string, uri: string): string {
  return path.relative(folder, fileURLToPath(uri)).split(path.sep).join('/');
}
