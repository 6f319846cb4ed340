import type { Direction } from './layoutGraph';

/**
 * The options of the graph panel's layout (`elkLayout.ts`, elkjs's layered algorithm): one place,
 * imported by the layout worker and by the benchmark. Figures are from `npm run bench` and the
 * webview tier on 2 cores; see BENCHMARKS.md.
 */

/** Every node has the same size, so the nodes of a column line up. */
export const NODE_WIDTH = 200;
export const NODE_HEIGHT = 44;

/** Vertical space between two nodes of a column. */
export const NODE_SPACING = 14;

/** A group's box: room around its modules, and above them for its name. */
export const GROUP_BOX_PADDING = 8;
export const GROUP_BOX_TITLE = 22;
/** Between the nodes of two groups' bands: the boxes' padding and title, and a gap between the boxes. */
export const GROUP_GAP = GROUP_BOX_PADDING + GROUP_BOX_TITLE + 12;

/** Horizontal space between two columns, where the edges run; elkjs widens it where many edges slope. */
export const COLUMN_GAP = 90;

/**
 * Vertical space between two rows, going down: edges there climb a node's height, not its width; less
 * the level bands' margins, room for a level's heading between two bands (`columnBands.ts`).
 */
export const ROW_GAP = 72;

/**
 * A node as elkjs lays it out in a direction (`layoutGraph.ts`): going down, the rightward layout
 * turned a quarter, so a node's extent along the columns is its height, and across them its width.
 */
export interface FlowSize {
  along: number;
  across: number;
  /** Between two columns (rows, going down). */
  gap: number;
}

export function flowSize(direction: Direction, nodeWidth: number): FlowSize {
  return direction === 'right'
    ? { along: nodeWidth, across: NODE_HEIGHT, gap: COLUMN_GAP }
    : { along: NODE_HEIGHT, across: nodeWidth, gap: ROW_GAP };
}

/** Options for every layout. */
export const ELK_OPTIONS: Readonly<Record<string, string>> = Object.freeze({
  'elk.algorithm': 'layered',
  // Level 0 on the left: what runs first is read first. Edges go to elkjs from writer to reader.
  'elk.direction': 'RIGHT',
  // The columns are the execution levels the engine computed. Each node comes with its column's x,
  // and the interactive layering makes a layer of each x: 1,000 modules in ~0.95 s, where
  // `elk.partitioning` (a partition per level) takes ~1.6 s for the same layers.
  'elk.layered.layering.strategy': 'INTERACTIVE',
  'elk.layered.cycleBreaking.strategy': 'INTERACTIVE',
  // One connected drawing: laid out apart, each component would get columns of its own.
  'elk.separateConnectedComponents': 'false',
  // One sweep pass: most crossings go in the first, more passes cost seconds at 1,000 modules.
  'elk.layered.thoroughness': '1',
  // The greedy switch pass after the sweep costs time at 1,000 modules and removes few crossings.
  'elk.layered.crossingMinimization.greedySwitch.type': 'OFF',
  // Brandes–Köpf straightens edges but doubles the height at 1,000 modules (27,000 px against 5,700).
  'elk.layered.nodePlacement.strategy': 'SIMPLE',
  // Orthogonal routing needs a channel per edge between columns: four times as wide at 1,000 modules.
  'elk.edgeRouting': 'POLYLINE',
  'elk.layered.spacing.nodeNodeBetweenLayers': String(COLUMN_GAP),
  'elk.spacing.nodeNode': String(NODE_SPACING),
  'elk.spacing.edgeNode': '8',
  'elk.spacing.edgeEdge': '5',
  // elkjs widens the gap between two columns with the height its edges climb, by this much per edge:
  // at the default (10) the 1,000-module bench graph is 9,384 px wide, 18,829 in group boxes; at 2,
  // 8,765 and 10,654, with the same crossings.
  'elk.layered.spacing.edgeEdgeBetweenLayers': '2',
  // The panel draws its own margins around the drawing.
  'elk.padding': '[top=0,left=0,bottom=0,right=0]',
});

/**
 * A layout after a change of the drawn graph (an edit, a module added): each column keeps the order
 * of the previous drawing, read from its nodes' places and its edges' routes, which elkjs's
 * interactive crossing minimisation takes as given; the interactive node placement keeps the
 * heights (the simple one centres each column, so a node added to the longest moves the others).
 * After one edge is removed from the bench's 200-module graph, no module moves (a fresh layout
 * moves three in four by more than a node's height) for 9 % more crossings. `considerModelOrder`,
 * made for this, takes 8–9 s at 1,000 modules; without the previous routes the interactive order
 * costs 40 % more crossings.
 */
export const ELK_RELAYOUT_OPTIONS: Readonly<Record<string, string>> = Object.freeze({
  ...ELK_OPTIONS,
  'elk.layered.crossingMinimization.strategy': 'INTERACTIVE',
  'elk.layered.nodePlacement.strategy': 'INTERACTIVE',
});
