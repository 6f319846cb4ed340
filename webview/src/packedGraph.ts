import type { PackedPanelModel, PanelModel } from '../../server/src/protocol';

/** The panel's graph as the host posts it: each edge and level names its modules by their index in `modules`. */
export function packGraph(graph: PanelModel): PackedPanelModel {
  const index = new Map(graph.modules.map((module, at) => [module.id, at]));
  const at = (id: string): number => {
    const found = index.get(id);
    if (found === undefined) throw new Error(`an edge or level names ${id}, which is not among the graph's modules`);
    return found;
  };
  return {
    ...graph,
    edges: graph.edges.map((edge) => ({ ...edge, from: at(edge.from), to: at(edge.to) })),
    levels: graph.levels.map((level) => level.map(at)),
  };
}

/** The graph as the webview draws it: each edge's modules by their ids again. */
export function unpackGraph(graph: PackedPanelModel): PanelModel {
  const ids = graph.modules.map((module) => module.id);
  return {
    ...graph,
    edges: graph.edges.map((edge) => ({ ...edge, from: ids[edge.from]!, to: ids[edge.to]! })),
    levels: graph.levels.map((level) => level.map((at) => ids[at]!)),
  };
}
