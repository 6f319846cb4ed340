import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import { LAYOUT_OPTIONS, NODE_HEIGHT, NODE_WIDTH } from './layoutOptions';

/**
 * The graph ELK lays out, and what comes back. Used by the layout worker (and the benchmark): the
 * panel sends a `LayoutInput` and draws the `Layout`.
 */

export interface LayoutInput {
  /** Each node with its column: the rank of its level among the levels drawn. */
  nodes: { id: string; column: number }[];
  /** Reader → writer, as in the graph model. */
  edges: { id: string; from: string; to: string }[];
}

export interface Point {
  x: number;
  y: number;
}

export interface Layout {
  /** Top-left corner of each node. */
  nodes: Record<string, Point>;
  /**
   * Each edge's route from the reader to the writer (the arrow's end). Edges between nodes of one
   * column (in a cycle) are not laid out by ELK: they have no entry and are drawn as arcs.
   */
  edges: Record<string, Point[]>;
  /** The left x of each column. */
  columns: number[];
  width: number;
  height: number;
  /** Milliseconds ELK took. */
  ms: number;
}

const LAYERING_EDGE = 'layering:';

/**
 * The ELK graph of a layout input. Edges run from writer to reader, so longest-path layering from the
 * sources puts a node in the column of its level. Where it would not (a cycle's members share a
 * level but their edges among themselves are left out, and a focused view can skip levels), an
 * invisible edge from a node of the previous column holds the node in its column.
 */
export function toElkGraph(input: LayoutInput): ElkNode {
  const column = new Map(input.nodes.map((node) => [node.id, node.column]));
  const edges: ElkExtendedEdge[] = [];
  const incoming = new Map<string, string[]>();
  for (const edge of input.edges) {
    const reader = column.get(edge.from);
    const writer = column.get(edge.to);
    if (reader === undefined || writer === undefined || reader <= writer) continue;
    edges.push({ id: edge.id, sources: [edge.to], targets: [edge.from] });
    const list = incoming.get(edge.from);
    if (list) list.push(edge.to);
    else incoming.set(edge.from, [edge.to]);
  }

  // The longest path from a source, column by column; a node that falls short gets a layering edge.
  const byColumn: string[][] = [];
  for (const node of input.nodes) {
    byColumn[node.column] ??= [];
    byColumn[node.column]!.push(node.id);
  }
  const depth = new Map<string, number>();
  byColumn.forEach((ids = [], index) => {
    for (const id of ids) {
      let longest = 0;
      for (const writer of incoming.get(id) ?? []) longest = Math.max(longest, (depth.get(writer) ?? 0) + 1);
      if (longest < index) {
        const anchor = byColumn
          .slice(0, index)
          .findLast((ids) => ids?.length)
          ?.at(0);
        if (anchor !== undefined) {
          edges.push({ id: `${LAYERING_EDGE}${id}`, sources: [anchor], targets: [id] });
          longest = (depth.get(anchor) ?? 0) + 1;
        }
      }
      depth.set(id, longest);
    }
  });

  return {
    id: 'root',
    layoutOptions: { ...LAYOUT_OPTIONS },
    children: input.nodes.map((node) => ({ id: node.id, width: NODE_WIDTH, height: NODE_HEIGHT })),
    edges,
  };
}

/** The positions ELK computed, as the panel draws them. */
export function fromElkGraph(input: LayoutInput, result: ElkNode, ms: number): Layout {
  const nodes: Record<string, Point> = {};
  for (const child of result.children ?? []) nodes[child.id] = { x: child.x ?? 0, y: child.y ?? 0 };
  const columns: number[] = [];
  for (const node of input.nodes) {
    const x = nodes[node.id]?.x;
    if (x !== undefined && columns[node.column] === undefined) columns[node.column] = x;
  }
  const edges: Record<string, Point[]> = {};
  for (const edge of (result.edges ?? []) as ElkExtendedEdge[]) {
    if (edge.id.startsWith(LAYERING_EDGE)) continue;
    const points: Point[] = [];
    for (const section of edge.sections ?? []) {
      points.push(section.startPoint, ...(section.bendPoints ?? []), section.endPoint);
    }
    // ELK routes writer → reader; the panel draws reader → writer, the arrow at the writer.
    edges[edge.id] = points.reverse().map(({ x, y }) => ({ x, y }));
  }
  return {
    nodes,
    edges,
    columns: Array.from(columns, (x) => x ?? 0),
    width: result.width ?? 0,
    height: result.height ?? 0,
    ms,
  };
}
