/**
 * The ELK options of the graph panel's layout: one place, imported by the layout worker and by the
 * benchmark. Measured on 2 cores: the default options take ~6 s for 1,000 modules; these take a
 * fraction of that. Longest-path layering from the sources with connected components laid out
 * together puts every execution level in exactly one column (the layout graph's edges run from a
 * writer to its readers, so a module's layer is its longest path from a module without
 * dependencies: its level). NETWORK_SIMPLEX node placement is far too slow past a few hundred nodes.
 */
export const LAYOUT_OPTIONS: Readonly<Record<string, string>> = Object.freeze({
  'elk.algorithm': 'layered',
  'elk.direction': 'RIGHT',
  'elk.layered.layering.strategy': 'LONGEST_PATH_SOURCE',
  'elk.separateConnectedComponents': 'false',
  'elk.layered.thoroughness': '1',
  'elk.layered.nodePlacement.strategy': 'SIMPLE',
  'elk.edgeRouting': 'POLYLINE',
  'elk.layered.spacing.nodeNodeBetweenLayers': '90',
  'elk.spacing.nodeNode': '14',
  'elk.layered.spacing.edgeNodeBetweenLayers': '12',
  'elk.spacing.edgeNode': '8',
  'elk.spacing.edgeEdge': '6',
  'elk.padding': '[top=0,left=0,bottom=0,right=0]',
});

/** Every node has the same size, so the nodes of a column line up. */
export const NODE_WIDTH = 200;
export const NODE_HEIGHT = 44;
