import { drawnZoom, wrapColumns, wrapShape } from './columnWrap';
import { NODE_WIDTH } from './layoutOptions';
import { TITLE_SIZE } from './render';
import {
  buildView,
  DEFAULT_VIEW,
  FOLDER_GROUPING,
  type GraphIndex,
  STACK_GROUPING,
  type ViewOptions,
} from './viewModel';

/** The smallest title a fit draws, in screen pixels: the editor's smallest text. */
export const READABLE_TITLE = 11;

/**
 * Graphs up to this size are never folded at first: about what a panel beside an editor (800 × 940 px)
 * shows at 11 px titles, three columns of eighteen nodes. A smaller graph too wide for the panel
 * scrolls from level 0 instead.
 */
export const FOLD_FROM = 60;

/**
 * How a new panel first shows a graph: all of it. Unfolded when the whole drawing fits the panel with
 * titles of at least 11 px, or when it is small (`FOLD_FROM`); otherwise folded by folder at the
 * deepest depth whose drawing does (the most that can be read at once), or at the first depth when
 * none does. A graph of Terraform Stacks starts with a box around each Stack's components.
 */
export function firstView(index: GraphIndex, panel: { width: number; height: number }): Partial<ViewOptions> {
  if (index.graph.modules.some((module) => module.kind === 'component')) return { groupBy: STACK_GROUPING };
  if (index.graph.modules.length <= FOLD_FROM || fitsReadably(index, DEFAULT_VIEW, panel)) return {};
  const tree = index.tree;
  for (let depth = tree.maxDepth; depth >= 1; depth--) {
    const view = { ...DEFAULT_VIEW, groupBy: FOLDER_GROUPING, collapsed: tree.foldsAt(depth) };
    if (depth === 1 || fitsReadably(index, view, panel)) return { groupBy: view.groupBy, collapsed: view.collapsed };
  }
  return {};
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
  const columns = wrapShape(view);
  const wraps = wrapColumns({ columns, nodeWidth: NODE_WIDTH, panel });
  return drawnZoom(columns, wraps, NODE_WIDTH, panel) * TITLE_SIZE >= READABLE_TITLE;
}
