import type { LayoutClient } from './layoutClient';
import type { Layout, LayoutInput } from './layoutGraph';
import type { ViewGraph } from './viewModel';

const LAYOUT_CACHE_SIZE = 8;

/** A view's layout, either kept from before or still to be made. */
export interface LayoutLookup {
  readonly layout: Layout | undefined;
  /** Lays the view out (in the worker) and keeps the result. */
  compute(): Promise<Layout>;
}

/**
 * The last few layouts, by the nodes, columns and edges they lay out: going back to a view seen
 * moments ago (a group expanded and collapsed again) draws at once, without the worker.
 */
export class LayoutCache {
  private readonly layouts = new Map<string, Layout>();

  constructor(private readonly client: LayoutClient) {}

  /** `shown`: the layout drawn now, whose places a new layout keeps where it can. */
  lookup(view: ViewGraph, nodeWidth: number, shown: Layout | undefined): LayoutLookup {
    const input = { ...layoutInput(view), nodeWidth };
    const key = layoutKey(input);
    return {
      layout: this.layouts.get(key),
      compute: async () => {
        const previous = shown && {
          nodes: shown.nodes,
          edges: shown.edges,
          columns: shown.columns,
          nodeWidth: shown.nodeWidth,
        };
        const layout = await this.client.layout({ ...input, previous });
        this.layouts.set(key, layout);
        if (this.layouts.size > LAYOUT_CACHE_SIZE) this.layouts.delete(this.layouts.keys().next().value!);
        return layout;
      },
    };
  }
}

/** With a group expanded, every group gets a band of its own: the expanded ones are boxed. */
function layoutInput(view: ViewGraph): LayoutInput {
  const banded = view.nodes.some((node) => node.kind === 'module' && node.group !== null);
  return {
    nodes: view.nodes.map((node) => ({
      id: node.id,
      column: node.column,
      ...(banded && node.group !== null ? { band: node.group } : {}),
    })),
    edges: view.edges.map((edge) => ({ id: edge.id, from: edge.from, to: edge.to })),
  };
}

function layoutKey(input: LayoutInput): string {
  return `${input.nodeWidth}\n${input.nodes.map((node) => `${node.id}@${node.column}:${node.band ?? ''}`).join('\n')}\n\n${input.edges.map((edge) => edge.id).join('\n')}`;
}
