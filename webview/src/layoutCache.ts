import type { LayoutClient, LayoutPlace } from './layoutClient';
import { type AheadLayout, fitsWidth, type Layout, type LayoutInput, layoutKey, shapeKey } from './layoutGraph';
import { layoutInput } from './layoutInput';
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
  /** Layouts the host made ahead of this page, by shape (`offerAhead`). */
  private readonly ahead = new Map<string, Layout>();

  constructor(private readonly client: LayoutClient) {}

  /** Keeps a layout the host sent (`layoutKey` of its input): the view it lays out draws without asking. */
  offer(key: string, layout: Layout): void {
    this.keep(key, { layout, madeIn: 'host' });
  }

  /**
   * Keeps the layouts the host made ahead of this page: a view of one of their shapes draws with it, if its
   * nodes are about as wide as this page measures them (`fitsWidth`), without asking.
   */
  offerAhead(layouts: readonly AheadLayout[]): void {
    for (const { shape, layout } of layouts) this.ahead.set(shape, layout);
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
    const shape = shapeKey(input);
    const key = layoutKey(input, shape);
    return {
      kept: this.layouts.get(key) ?? this.madeAhead(input, key, shape),
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

  private madeAhead(input: LayoutInput, key: string, shape: string): KeptLayout | undefined {
    const layout = this.ahead.get(shape);
    if (!layout || !fitsWidth(layout, input)) return undefined;
    const kept: KeptLayout = { layout, madeIn: 'host' };
    this.keep(key, kept);
    return kept;
  }

  private keep(key: string, kept: KeptLayout): void {
    this.layouts.set(key, kept);
    if (this.layouts.size > LAYOUT_CACHE_SIZE) this.layouts.delete(this.layouts.keys().next().value!);
  }
}
