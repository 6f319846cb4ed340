import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GraphModel, PanelModel } from '../../server/src/protocol';

/** The graph as the panel's webview gets it (see `PanelModel`): the server's model less what only the host uses. */
export function toPanelModel(graph: GraphModel): PanelModel {
  return {
    root: graph.root,
    version: graph.version,
    levels: graph.levels,
    cycles: graph.cycles,
    ...(graph.cycleModules ? { cycleModules: graph.cycleModules } : {}),
    modules: graph.modules.map(({ uri: _uri, location: _location, ...module }) => module),
    edges: graph.edges.map(({ location, address: _address, assumed: _assumed, ...edge }) => ({
      ...edge,
      file: relativeFile(path.join(graph.root, edge.from), location.uri),
      line: location.range.start.line,
      character: location.range.start.character,
    })),
    unresolved: graph.unresolved.map(({ location: _location, ...problem }) => problem),
    ambiguous: graph.ambiguous.map(({ location: _location, ...problem }) => problem),
  };
}

/** A file URI as a path relative to a folder, with `/` (the host joins it back). */
function relativeFile(folder: string, uri: string): string {
  return path.relative(folder, fileURLToPath(uri)).split(path.sep).join('/');
}
