import { arrangeColumns, wrapShape } from './columnWrap';
import type { GraphIndex } from './graphIndex';
import { NODE_HEIGHT, NODE_WIDTH } from './layoutOptions';
import { TITLE_SIZE } from './render';
import {
  buildView,
  DEFAULT_VIEW,
  FOLDER_GROUPING,
  STACK_GROUPING,
  type ViewGraph,
  type ViewOptions,
} from './viewModel';
import { MIN_ZOOM } from './viewport';

/** The smallest title a fit draws, in screen pixels: the editor's smallest text. */
export const READABLE_TITLE = 11;

/**
 * Graphs up to this size are never folded at first: about what a panel beside an editor (800 × 940 px)
 * shows at 11 px titles, three columns of eighteen nodes. A smaller graph too wide for the panel is
 * laid out downward where that draws it larger (`turnBelow`), and shown whole (`fitFloor`): more than
 * three levels never fit 800 px side by side at 11 px, and a slice of the first three hides the shape
 * a user opened the panel to see.
 */
export const FOLD_FROM = 60;

/**
 * The smallest zoom a fit of a view of `nodes` nodes chooses: a view of up to `FOLD_FROM` nodes is
 * shown whole whatever its titles' size (zooming in is a wheel turn away); a bigger one never below
 * readable titles (it scrolls from level 0 instead: shown whole, its titles would be dots).
 */
export function fitFloor(nodes: number): number {
  return nodes <= FOLD_FROM ? MIN_ZOOM : READABLE_TITLE / TITLE_SIZE;
}

/**
 * The zoom below which a view is laid out downward, its levels as rows, where that shows it larger
 * (`columnWrap.ts`): readable titles, for a view shown whole (`fitFloor`) and without groups, whose
 * boxes are bands of the rightward layout (`groupBands.ts`); 0 (never) for any other. A view that
 * reads well left to right stays so: level 0 on the left, what runs first read first.
 */
export function turnBelow(view: ViewGraph): number {
  return view.groups.length === 0 && view.nodes.length <= FOLD_FROM ? READABLE_TITLE / TITLE_SIZE : 0;
}

/**
 * How a new panel first shows a graph: all of it. Unfolded when the whole drawing fits the panel with
 * titles of at least 11 px, or when it is small (`FOLD_FROM`: then whole, smaller); otherwise folded
 * by folder at the deepest depth whose drawing does (the most that can be read at once), or at the
 * first depth when none does. A graph of Terraform Stacks starts with a box around each Stack's components.
 */
export function firstView(index: GraphIndex, panel: { width: number; height: number }): Partial<ViewOptions> {
  if (hasStacks(index)) return { groupBy: STACK_GROUPING };
  const modules = index.graph.modules.length;
  const capacity = readableCapacity(panel);
  if (modules <= FOLD_FROM || (modules <= capacity && fitsReadably(index, DEFAULT_VIEW, panel))) return {};
  const tree = index.tree;
  for (let depth = tree.maxDepth; depth >= 1; depth--) {
    const view = foldedAt(index, depth);
    // Past the capacity the view cannot fit, and is not built to find that out: each fold is a node, and so is
    // each module in none (at 11,024 units, 81 folds and 6,650 modules: a view that took 77 ms to build).
    const counted = () => tree.foldedNodes(new Set(view.collapsed)) <= capacity;
    if (depth === 1 || (view.collapsed.length <= capacity && counted() && fitsReadably(index, view, panel)))
      return { groupBy: view.groupBy, collapsed: view.collapsed };
  }
  return {};
}

/** Whether the graph has Terraform Stacks' components: it opens with a box around each Stack's. */
export function hasStacks(index: GraphIndex): boolean {
  return index.graph.modules.some((module) => module.kind === 'component');
}

/** The graph folded by folder at `depth` (each folder there holding more than one module is a node). */
export function foldedAt(index: GraphIndex, depth: number): ViewOptions {
  return { ...DEFAULT_VIEW, groupBy: FOLDER_GROUPING, collapsed: index.tree.foldsAt(depth) };
}

/**
 * The most nodes any drawing shows in the panel with readable titles: nodes do not overlap, so theirs
 * is at most the panel's area at that zoom (`fitsReadably`'s estimate never fits more). A 3,000-unit
 * repository is not built as a view at each folder depth to learn that it does not fit (145 ms).
 */
function readableCapacity(panel: { width: number; height: number }): number {
  const zoom = READABLE_TITLE / TITLE_SIZE;
  return (panel.width * panel.height) / (zoom * zoom * NODE_WIDTH * NODE_HEIGHT);
}

/**
 * Whether a view's drawing fits the panel with readable titles, estimated before any layout from its
 * columns, wrapped as the layout will wrap them (`columnWrap.ts`), and its tallest column (elkjs adds
 * the room long edges take, so this errs on the side of too much).
 */
export function fitsReadably(
  index: GraphIndex,
  options: ViewOptions,
  panel: { width: number; height: number },
): boolean {
  const view = buildView(index, options);
  // More nodes than fit at readable titles however they are arranged: not worth arranging to find out.
  if (view.nodes.length > readableCapacity(panel)) return false;
  const { zoom } = arrangeColumns({ columns: wrapShape(view), nodeWidth: NODE_WIDTH, panel }, turnBelow(view));
  return zoom * TITLE_SIZE >= READABLE_TITLE;
}
