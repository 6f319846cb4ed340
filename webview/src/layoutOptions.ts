/**
 * The options of the graph panel's layout (`layeredLayout.ts`): one place, imported by the layout
 * worker and by the benchmark.
 *
 * The columns are the execution levels, which the graph model already gives, so the panel does not
 * ask a general layered layout (elkjs) to find layers. Measured in Chromium on 2 cores, elkjs with
 * its fastest settings (longest-path layering, thoroughness 1, simple placement, polyline edges) took
 * 2.4 s for 200 modules on a fresh worker (0.9 s warm) and 6–8 s for 1,000, over the targets of 0.5 s
 * and 2 s; the layout here does the same job in a few milliseconds.
 */
export interface LayoutOptions {
  /** Horizontal space between two columns, where the edges run. */
  columnGap: number;
  /** Vertical space between two nodes of a column, between a node and an edge, and between two edges. */
  nodeSpacing: number;
  edgeNodeSpacing: number;
  edgeSpacing: number;
  /** Barycentre sweeps (alternately left to right and back) to reduce crossings. */
  sweeps: number;
  /** Rounds of vertical placement towards the neighbours' mean height. */
  placementRounds: number;
}

export const LAYOUT_OPTIONS: Readonly<LayoutOptions> = Object.freeze({
  columnGap: 90,
  nodeSpacing: 14,
  edgeNodeSpacing: 8,
  edgeSpacing: 5,
  sweeps: 8,
  placementRounds: 8,
});

/** Every node has the same size, so the nodes of a column line up. */
export const NODE_WIDTH = 200;
export const NODE_HEIGHT = 44;
