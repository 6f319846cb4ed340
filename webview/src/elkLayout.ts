import ELK, { type ElkExtendedEdge, type ElkNode } from 'elkjs/lib/elk.bundled.js';
import { bandBoxes, bandedGraph } from './groupBands';
import type { Layout, LayoutInput, Point } from './layoutGraph';
import { ELK_OPTIONS, ELK_RELAYOUT_OPTIONS, type FlowSize, flowSize, NODE_WIDTH } from './layoutOptions';

/** In this thread: the layout worker already is one, elkjs needs no worker of its own. */
const elk = new ELK();

/** Below this share of nodes drawn before, a layout starts afresh. */
const SEEDED_SHARE = 0.5;

/**
 * The panel's layout, by elkjs's layered algorithm. Each node's column (the rank of its execution
 * level among those drawn) fixes its x, and elkjs's interactive layering makes one layer of each
 * column. elkjs lays edges out from the writer (left) to the reader (right); they come back from the
 * reader to the writer, as the panel draws them. Edges within one column (a cycle's) are left out:
 * the panel draws them as arcs. With the previous layout of mostly the same nodes and columns, the
 * columns keep their order (`ELK_RELAYOUT_OPTIONS`). Groups are laid out again in bands, boxed
 * (`groupBands.ts`). Going down, each column is a row: elkjs lays the nodes out rightward turned a
 * quarter (as tall as they are wide), and the result is turned back.
 */
export async function elkLayout(input: LayoutInput): Promise<Layout> {
  const started = performance.now();
  const direction = input.direction ?? 'right';
  const turn = direction === 'down' ? transpose : (point: Point): Point => point;
  const columnOf = new Map(input.nodes.map((node) => [node.id, node.column]));
  const edges = input.edges.filter((edge) => (columnOf.get(edge.from) ?? -1) > (columnOf.get(edge.to) ?? -1));
  const width = input.nodeWidth ?? NODE_WIDTH;
  // Going down, elkjs lays the nodes out rightward turned a quarter: along the columns as tall as a node is.
  const size = flowSize(direction, width);
  const columnX = (column: number): number => column * (size.along + size.gap);
  const previous = input.previous?.direction === direction ? turnedLayout(input.previous, turn) : undefined;
  const graph = seededGraph(input, previous, edges, size) ?? freshGraph(input, edges, columnX, size);
  // Group bands are rightward only: a view with groups is never turned (`firstView.ts`).
  const banded = direction === 'right' && input.nodes.some((node) => node.band !== undefined);
  const flat = await elk.layout(graph);
  const laid = banded
    ? await elk.layout(bandedGraph(input, edges, flat, columnX, width, { ...ELK_RELAYOUT_OPTIONS }))
    : flat;
  const nodes: Record<string, Point> = {};
  const start: number[] = [];
  for (const child of laid.children ?? []) {
    const point = { x: child.x ?? 0, y: child.y ?? 0 };
    nodes[child.id] = turn(point);
    const column = columnOf.get(child.id)!;
    start[column] = Math.min(start[column] ?? Number.POSITIVE_INFINITY, point.x);
  }
  const routes: Record<string, Point[]> = {};
  for (const edge of laid.edges ?? []) {
    const section = edge.sections?.[0];
    if (!section) continue;
    routes[edge.id] = [section.startPoint, ...(section.bendPoints ?? []), section.endPoint]
      .map(({ x, y }) => turn({ x, y }))
      .reverse();
  }
  const extent = turn({ x: laid.width ?? 0, y: laid.height ?? 0 });
  return {
    nodes,
    edges: routes,
    bands: banded ? bandBoxes(input, nodes, width) : {},
    columns: Array.from(start, (x) => x ?? 0),
    levelColumn: Array.from(start, (_, column) => input.levelColumn?.[column] ?? column),
    nodeWidth: width,
    direction,
    width: extent.x,
    height: extent.y,
    ms: performance.now() - started,
  };
}

/** The space between columns (rows, going down). */
function gapOption(size: FlowSize): Record<string, string> {
  return { 'elk.layered.spacing.nodeNodeBetweenLayers': String(size.gap) };
}

function transpose({ x, y }: Point): Point {
  return { x: y, y: x };
}

/** The previous layout as elkjs laid it out: turned back a quarter where it was drawn going down. */
function turnedLayout(
  layout: NonNullable<LayoutInput['previous']>,
  turn: (point: Point) => Point,
): NonNullable<LayoutInput['previous']> {
  const nodes = Object.fromEntries(Object.entries(layout.nodes).map(([id, point]) => [id, turn(point)]));
  const edges = Object.fromEntries(Object.entries(layout.edges).map(([id, route]) => [id, route.map(turn)]));
  return { ...layout, nodes, edges };
}

function freshGraph(
  input: LayoutInput,
  edges: LayoutInput['edges'],
  columnX: (column: number) => number,
  size: FlowSize,
): ElkNode {
  return {
    id: 'graph',
    layoutOptions: { ...ELK_OPTIONS, ...gapOption(size) },
    children: input.nodes.map((node) => box(node.id, size, columnX(node.column))),
    edges: edges.map((edge) => writerToReader(edge)),
  };
}

function box(id: string, size: FlowSize, x: number, y?: number): ElkNode {
  // elkjs's importer fails on a property that is there but undefined.
  return { id, width: size.along, height: size.across, x, ...(y === undefined ? {} : { y }) };
}

/** An edge as elkjs lays it out, from the writer to the reader; `route` as drawn, from the reader. */
function writerToReader(edge: LayoutInput['edges'][number], route?: Point[]): ElkExtendedEdge {
  const laid: ElkExtendedEdge = { id: edge.id, sources: [edge.to], targets: [edge.from] };
  if (!route || route.length < 2) return laid;
  const points = [...route].reverse();
  const section = {
    id: `${edge.id}:route`,
    startPoint: points[0]!,
    endPoint: points.at(-1)!,
    bendPoints: points.slice(1, -1),
  };
  return { ...laid, sections: [section] };
}

/**
 * The graph seeded with the previous layout: nodes where they were (a new node at the mean height of
 * its neighbours that were drawn, else below the rest), edges along their previous routes. None
 * when the columns changed or most nodes are new: that picture has nothing to keep.
 */
function seededGraph(
  input: LayoutInput,
  previous: LayoutInput['previous'],
  edges: LayoutInput['edges'],
  size: FlowSize,
): ElkNode | undefined {
  const columnCount = new Set(input.nodes.map((node) => node.column)).size;
  if (!previous || previous.columns.length !== columnCount || previous.nodeWidth !== (input.nodeWidth ?? NODE_WIDTH))
    return undefined;
  // A node that stayed in its column keeps its place; one that moved column starts afresh.
  const placed = new Map<string, number>();
  for (const node of input.nodes) {
    const point = previous.nodes[node.id];
    if (point && point.x === previous.columns[node.column]) placed.set(node.id, point.y);
  }
  if (placed.size < input.nodes.length * SEEDED_SHARE) return undefined;
  const neighbours = new Map<string, string[]>();
  for (const edge of edges) {
    neighbours.set(edge.from, [...(neighbours.get(edge.from) ?? []), edge.to]);
    neighbours.set(edge.to, [...(neighbours.get(edge.to) ?? []), edge.from]);
  }
  let bottom = Math.max(...placed.values());
  const yOf = (id: string): number => {
    const own = placed.get(id);
    if (own !== undefined) return own;
    const known = (neighbours.get(id) ?? []).flatMap((other) => placed.get(other) ?? []);
    if (known.length > 0) return known.reduce((sum, y) => sum + y, 0) / known.length;
    bottom += size.across;
    return bottom;
  };
  return {
    id: 'graph',
    layoutOptions: { ...ELK_RELAYOUT_OPTIONS, ...gapOption(size) },
    children: input.nodes.map((node) => box(node.id, size, previous.columns[node.column]!, yOf(node.id))),
    edges: edges.map((edge) =>
      writerToReader(edge, placed.has(edge.from) && placed.has(edge.to) ? previous.edges[edge.id] : undefined),
    ),
  };
}
