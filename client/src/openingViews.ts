import type { PanelModel } from '../../server/src/protocol';
import { arrangeColumns, wrapShape } from '../../webview/src/columnWrap';
import { FOLD_FROM, foldedAt, hasStacks, turnBelow } from '../../webview/src/firstView';
import { GraphIndex } from '../../webview/src/graphIndex';
import { type Direction, type LayoutInput, shapeKey } from '../../webview/src/layoutGraph';
import { type Arrangement, arrangedInput, unwrapped } from '../../webview/src/layoutInput';
import { nodeWidth } from '../../webview/src/render';
import {
  buildView,
  DEFAULT_VIEW,
  FOLDER_GROUPING,
  STACK_GROUPING,
  type ViewGraph,
  type ViewOptions,
} from '../../webview/src/viewModel';
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
/** Only to order the guesses: a panel beside an editor, as `firstView.ts` pictures it. */
const USUAL_PANEL = { width: 800, height: 940 };

/**
 * The layouts a new panel's page is likely to ask for first, for the extension host to make while
 * the page loads (`LayoutService.layoutAhead`): the views `firstView` chooses among, not knowing the
 * page's size (`arrangements`), with node widths from an estimate of the titles (`textEstimate.ts`):
 * a graph opened whole, or a larger one folded by folder at its first depths. Likeliest first: the
 * thread makes them in turn.
 */
export function openingInputs(graph: PanelModel): LayoutInput[] {
  // The graph laid out ahead of any panel is the one Show Graph sends (`panelGraphs.ts`): built once.
  let inputs = made.get(graph);
  if (!inputs) {
    inputs = likelyInputs(graph);
    made.set(graph, inputs);
  }
  return inputs;
}

const made = new WeakMap<PanelModel, LayoutInput[]>();

/** Whether the graph's opening layouts were chosen already (and so are made, or being made, ahead). */
export function openingInputsMade(graph: PanelModel): boolean {
  return made.has(graph);
}

function likelyInputs(graph: PanelModel): LayoutInput[] {
  const index = new GraphIndex(graph);
  const inputs = new Map<string, LayoutInput>();
  for (const options of openingViews(index).slice(0, MOST_VIEWS)) {
    const most = options.groupBy === FOLDER_GROUPING ? MOST_FOLDED_NODES : MOST_NODES;
    // Each fold is a node: a view with more folds than that is not built to learn it has too many (50 ms at 3,000 units).
    if (options.collapsed.length > most) continue;
    const view = buildView(index, options);
    if (view.nodes.length === 0 || view.nodes.length > most) continue;
    const width = nodeWidth(view, estimatedText);
    for (const arrangement of arrangements(view, width)) {
      const input = arrangedInput(view, width, arrangement);
      inputs.set(shapeKey(input), input);
    }
  }
  return [...inputs.values()].slice(0, MOST_INPUTS);
}

/** The views `firstView` may open with: the Stacks boxed, the whole graph, or the graph folded at a depth. */
function openingViews(index: GraphIndex): ViewOptions[] {
  if (hasStacks(index)) return [{ ...DEFAULT_VIEW, groupBy: STACK_GROUPING }];
  if (index.graph.modules.length <= FOLD_FROM) return [DEFAULT_VIEW];
  return Array.from({ length: index.tree.maxDepth }, (_, i) => foldedAt(index, i + 1));
}

/**
 * How a page may arrange a view: as a usual panel would (its tall columns wrapped, turned downward
 * where that draws it larger), then each column whole, rightward and, for a view that may turn
 * (`turnBelow`), downward.
 */
function arrangements(view: ViewGraph, width: number): Arrangement[] {
  const turn = turnBelow(view);
  const usual = arrangeColumns({ columns: wrapShape(view), nodeWidth: width, panel: USUAL_PANEL }, turn);
  const whole: Direction[] = turn === 0 ? ['right'] : ['right', 'down'];
  return [usual, ...whole.map((direction) => unwrapped(view, direction))];
}
