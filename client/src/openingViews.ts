import type { PackedPanelModel, PanelModel } from '../../server/src/protocol';
import { arrangeColumns, wrapShape } from '../../webview/src/columnWrap';
import { FOLD_FROM, firstView, foldedAt, hasStacks, turnBelow } from '../../webview/src/firstView';
import { GraphIndex } from '../../webview/src/graphIndex';
import { type Direction, type LayoutInput, shapeKey } from '../../webview/src/layoutGraph';
import { type Arrangement, arrangedInput, unwrapped } from '../../webview/src/layoutInput';
import { nodeWidth } from '../../webview/src/render';
import { buildView, DEFAULT_VIEW, STACK_GROUPING, type ViewGraph, type ViewOptions } from '../../webview/src/viewModel';
import { estimatedText } from './textEstimate';

/** Views laid out ahead of a page, and layouts of them: each costs the layout thread, and a page opens with one. */
const MOST_VIEWS = 3;
const MOST_INPUTS = 4;
/**
 * Views of more nodes than these are not laid out ahead: a graph shown whole, or folded (whose deeper
 * depths box the modules of their open folders, 0.3–0.6 s for 48 nodes, holding up the thread).
 */
const MOST_NODES = FOLD_FROM;
const MOST_FOLDED_NODES = 24;
/**
 * The view the panel shows first where it is likeliest to open is laid out ahead up to this many nodes. A larger
 * repository's is often its folders folded at the first depth, each module outside a fold boxed in its own: 99
 * nodes at a real one of 172 roots, which elkjs lays out in 0.12-0.26 s in the thread, where a page asking
 * for it waited 0.5-0.7 s.
 */
const MOST_LIKELIEST_NODES = 120;
/** Where Show Graph's panel opens (`ViewColumn.Beside`): beside an editor, or alone when none is open. */
export type PanelPlacement = 'beside' | 'alone';

/** A panel's drawing area, in pixels. */
export type PanelSize = { width: number; height: number };

/**
 * A panel's drawing area where it opens: beside an editor as `firstView.ts` pictures it, alone in the editor
 * area of a window of 1,600 × 1,000 px. The view the panel shows first where it is likeliest to open is guessed
 * first, and a view's tall columns are wrapped as that panel would wrap them, then as the other (99 nodes in one
 * level: four columns beside an editor, five alone).
 */
const PANELS: Record<PanelPlacement, PanelSize> = {
  beside: { width: 800, height: 940 },
  alone: { width: 1550, height: 800 },
};

/**
 * The layouts a new panel's page is likely to ask for first, chosen in the layout thread for the extension host
 * to make while the page loads (`LayoutService.layoutAheadOf`): the views `firstView` chooses among, not knowing the
 * page's size (`arrangements`), with node widths from an estimate of the titles (`textEstimate.ts`):
 * a graph opened whole, or a larger one folded by folder at its first depths. Likeliest first, for a panel
 * opening at `placement`, whose drawing area, when a panel there had it before, is `known`: the thread makes
 * them in turn.
 */
export function openingInputs(
  graph: PanelModel,
  placement: PanelPlacement = 'beside',
  known?: PanelSize,
): LayoutInput[] {
  const guessed = placement === 'beside' ? [PANELS.beside, PANELS.alone] : [PANELS.alone, PANELS.beside];
  return likelyInputs(graph, known ? [known, ...guessed] : guessed);
}

function likelyInputs(graph: PanelModel, panels: PanelSize[]): LayoutInput[] {
  const index = new GraphIndex(graph);
  const inputs = new Map<string, LayoutInput>();
  for (const { options, most } of openingViews(index, panels[0]!).slice(0, MOST_VIEWS)) {
    // Each fold is a node: a view with more folds than that is not built to learn it has too many (50 ms at 3,000 units).
    if (options.collapsed.length > most) continue;
    const view = buildView(index, options);
    if (view.nodes.length === 0 || view.nodes.length > most) continue;
    const width = nodeWidth(view, estimatedText);
    for (const arrangement of arrangements(view, width, panels)) {
      const input = arrangedInput(view, width, arrangement);
      inputs.set(shapeKey(input), input);
    }
  }
  return [...inputs.values()].slice(0, MOST_INPUTS);
}

/**
 * Whether a new page's views are chosen and laid out ahead once its graph is sent to it (`PanelOpening`): not at
 * thousands of modules, where the first view is folded and laid out in a few ms when the page asks, and choosing
 * the views (0.1-0.2 s of CPU at 3,000 units in a window) slowed the page drawing it.
 */
export function laidOutAheadOnceSent(graph: PackedPanelModel): boolean {
  return graph.modules.count <= AHEAD_ONCE_SENT_MOST;
}

const AHEAD_ONCE_SENT_MOST = 1_000;

/** A view a page may open with, and the most nodes it may have to be laid out ahead. */
interface OpeningView {
  options: ViewOptions;
  most: number;
}

/**
 * The views `firstView` may open with: the Stacks boxed, the whole graph, or the graph folded at a depth,
 * the one it opens with in `panel` first.
 */
function openingViews(index: GraphIndex, panel: PanelSize): OpeningView[] {
  if (hasStacks(index)) return [{ options: { ...DEFAULT_VIEW, groupBy: STACK_GROUPING }, most: MOST_NODES }];
  if (index.graph.modules.length <= FOLD_FROM) return [{ options: DEFAULT_VIEW, most: MOST_NODES }];
  const likeliest: ViewOptions = { ...DEFAULT_VIEW, ...firstView(index, panel) };
  const folded = Array.from({ length: index.tree.maxDepth }, (_, i) => foldedAt(index, i + 1))
    .filter((options) => !sameView(options, likeliest))
    .map((options) => ({ options, most: MOST_FOLDED_NODES }));
  return [{ options: likeliest, most: MOST_LIKELIEST_NODES }, ...folded];
}

function sameView(a: ViewOptions, b: ViewOptions): boolean {
  return (
    a.groupBy === b.groupBy &&
    a.collapsed.length === b.collapsed.length &&
    a.collapsed.every((folder, i) => folder === b.collapsed[i])
  );
}

/**
 * How a page may arrange a view: as the panels would, likeliest first (its tall columns wrapped, turned downward
 * where that draws it larger), then each column whole, rightward and, for a view that may turn
 * (`turnBelow`), downward. The same arrangement twice is laid out once (`likelyInputs`).
 */
function arrangements(view: ViewGraph, width: number, panels: PanelSize[]): Arrangement[] {
  const turn = turnBelow(view);
  const columns = wrapShape(view);
  const wrapped = panels.map((panel) => arrangeColumns({ columns, nodeWidth: width, panel }, turn));
  const whole: Direction[] = turn === 0 ? ['right'] : ['right', 'down'];
  return [...wrapped, ...whole.map((direction) => unwrapped(view, direction))];
}
