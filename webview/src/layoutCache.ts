import { arrangeColumns, wrapShape } from './columnWrap';
import { turnBelow } from './firstView';
import type { LayoutClient, LayoutPlace } from './layoutClient';
import { type Layout, type LayoutInput, layoutKey } from './layoutGraph';
import type { ViewGraph } from './viewModel';

const LAYOUT_CACHE_SIZE = 8;

/** A layout, and where it was made. */
export interface KeptLayout {
  layout: Layout;
  madeIn: LayoutPlace;
}

/** A view's layout, either kept from before or still to be made. */
export interface LayoutLookup {
  readonly kept: KeptLayout | undefined;
  /** Lays the view out (in the worker) and keeps the result. */
  compute(): Promise<KeptLayout>;
}

/**
 * The last few layouts, by the nodes, columns and edges they lay out: going back to a view seen
 * moments ago (a group expanded and collapsed again) draws at once, without the worker.
 */
export class LayoutCache {
  private readonly layouts = new Map<string, KeptLayout>();

  constructor(private readonly client: LayoutClient) {}

  /** Keeps a layout the host sent (`layoutKey` of its input): the view it lays out draws without asking. */
  offer(key: string, layout: Layout): void {
    this.keep(key, { layout, madeIn: 'host' });
  }

  /**
   * `shown`: the layout drawn now, whose places a new layout keeps where it can; `panel`: the size the
   * drawing is fitted to, whose shape tall columns wrap towards.
   */
  lookup(
    view: ViewGraph,
    nodeWidth: number,
    panel: { width: number; height: number },
    shown: Layout | undefined,
  ): LayoutLookup {
    const input = layoutInput(view, nodeWidth, panel);
    const key = layoutKey(input);
    return {
      kept: this.layouts.get(key),
      compute: async () => {
        const previous = shown && {
          nodes: shown.nodes,
          edges: shown.edges,
          columns: shown.columns,
          nodeWidth: shown.nodeWidth,
          direction: shown.direction,
        };
        const kept = { layout: await this.client.layout({ ...input, previous }), madeIn: this.client.where };
        this.keep(key, kept);
        return kept;
      },
    };
  }

  private keep(key: string, kept: KeptLayout): void {
    this.layouts.set(key, kept);
    if (this.layouts.size > LAYOUT_CACHE_SIZE) this.layouts.delete(this.layouts.keys().next().value!);
  }
}

/**
 * Each node in its layout column: its view column, or one of the columns a tall one wraps into
 * (`columnWrap.ts`), filled in the order of the nodes' ids, so that a folder's modules stay together;
 * the columns left to right, or top to bottom where that shows a small view larger (`turnBelow`). With a group
 * expanded, every group gets a band of its own: the expanded ones are boxed.
 */
function layoutInput(view: ViewGraph, nodeWidth: number, panel: { width: number; height: number }): LayoutInput {
  const { wraps, direction } = arrangeColumns({ columns: wrapShape(view), nodeWidth, panel }, turnBelow(view));
  const first = wraps.map((_, i) => wraps.slice(0, i).reduce((sum, sizes) => sum + sizes.length, 0));
  const levelColumn = wraps.flatMap((sizes, column) => sizes.map(() => column));
  // Each node's part of its column: the parts' sizes, filled in the order of the nodes' ids.
  const part = new Map<string, number>();
  const byColumn = view.columns.map(() => [] as string[]);
  for (const node of view.nodes) byColumn[node.column]!.push(node.id);
  byColumn.forEach((ids, column) => {
    let at = 0;
    wraps[column]!.forEach((size, j) => {
      for (const id of ids.sort().slice(at, at + size)) part.set(id, j);
      at += size;
    });
  });
  const banded = view.nodes.some((node) => node.kind === 'module' && node.group !== null);
  return {
    nodes: view.nodes.map((node) => ({
      id: node.id,
      column: first[node.column]! + part.get(node.id)!,
      ...(banded && node.group !== null ? { band: node.group } : {}),
    })),
    edges: view.edges.map((edge) => ({ id: edge.id, from: edge.from, to: edge.to })),
    nodeWidth,
    levelColumn,
    direction,
  };
}
