import { COLUMN_GAP, NODE_HEIGHT, NODE_SPACING, NODE_WIDTH } from './layoutOptions';
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

/** Room the panel keeps around a fitted drawing, and above it for the column headings. */
const FIT_MARGIN = 64;

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
 * columns and its tallest column (elkjs adds the room long edges take, so this errs on the side of
 * too much).
 */
export function fitsReadably(
  index: GraphIndex,
  options: ViewOptions,
  panel: { width: number; height: number },
): boolean {
  const view = buildView(index, options);
  const perColumn = new Array<number>(view.columns.length).fill(0);
  for (const node of view.nodes) perColumn[node.column]!++;
  const width = view.columns.length * (NODE_WIDTH + COLUMN_GAP);
  const height = Math.max(0, ...perColumn) * (NODE_HEIGHT + NODE_SPACING);
  const zoom = Math.min(
    (panel.width - FIT_MARGIN) / Math.max(width, 1),
    (panel.height - FIT_MARGIN) / Math.max(height, 1),
  );
  return zoom * TITLE_SIZE >= READABLE_TITLE;
}
