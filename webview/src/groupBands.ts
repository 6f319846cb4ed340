import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk.bundled.js';
import type { LayoutInput, Point, Rect } from './layoutGraph';
import { GROUP_BOX_PADDING, GROUP_BOX_TITLE, GROUP_GAP, NODE_HEIGHT, NODE_SPACING } from './layoutOptions';

/** Vertical room a long edge takes where it passes a column inside a band. */
const PASSING_EDGE_PITCH = 16;

/** What a band holds in one column: a module, or an edge passing the column on its way. */
interface Item {
  id: string;
  edge: boolean;
  /** Its height in the flat layout: a band's column keeps elkjs's order. */
  flatY: number;
}

/**
 * Groups drawn as boxes, with the levels still fixed columns: each group gets a band of rows of its
 * own, across every column, so that the box around its modules holds no other module. elkjs's
 * compound nodes would lay each group out in columns of its own (levels no longer line up, and 200
 * modules take 4.5 s), so the bands are made from a first, flat layout: the groups are stacked in the
 * order of their mean height there, and in each band a column keeps the order elkjs gave its modules
 * and the edges passing it. elkjs's interactive placement keeps those places and routes the edges along them.
 */
export function bandedGraph(
  input: LayoutInput,
  edges: LayoutInput['edges'],
  flat: ElkNode,
  columnX: (column: number) => number,
  width: number,
  options: Record<string, string>,
): ElkNode {
  const columnOf = new Map(input.nodes.map((node) => [node.id, node.column]));
  const bandOf = new Map(input.nodes.map((node) => [node.id, node.band ?? '']));
  const flatY = new Map((flat.children ?? []).map((child) => [child.id, child.y ?? 0]));
  const order = bandOrder(input, flatY);
  const columns = Math.max(0, ...input.nodes.map((node) => node.column)) + 1;

  const rows = new Map<string, Item[][]>(order.map((band) => [band, Array.from({ length: columns }, () => [])]));
  for (const node of input.nodes) {
    rows.get(bandOf.get(node.id)!)![node.column]!.push({ id: node.id, edge: false, flatY: flatY.get(node.id)! });
  }
  // An edge passes its writer's band up to half way, then its reader's.
  const passingBand = (edge: LayoutInput['edges'][number], column: number): string => {
    const [writer, reader] = [columnOf.get(edge.to)!, columnOf.get(edge.from)!];
    return bandOf.get(column - writer <= reader - column ? edge.to : edge.from)!;
  };
  const flatRoutes = new Map((flat.edges ?? []).map((edge) => [edge.id, edge]));
  const flatColumnX = flatColumns(flat, columnOf, columns);
  for (const edge of edges) {
    const [writer, reader] = [columnOf.get(edge.to)!, columnOf.get(edge.from)!];
    for (let column = writer + 1; column < reader; column += 1) {
      const y = routeHeight(flatRoutes.get(edge.id), flatColumnX[column]! + width / 2);
      rows.get(passingBand(edge, column))![column]!.push({ id: edge.id, edge: true, flatY: y });
    }
  }
  // Each item's height in its band, and each band's height.
  const offsets = new Map<string, number>();
  const heights = new Map<string, number>();
  for (const band of order) {
    let height = 0;
    rows.get(band)!.forEach((items, column) => {
      let next = 0;
      for (const item of items.sort((a, b) => a.flatY - b.flatY)) {
        offsets.set(item.edge ? `${item.id}@${column}` : item.id, next + (item.edge ? PASSING_EDGE_PITCH / 2 : 0));
        next += item.edge ? PASSING_EDGE_PITCH : NODE_HEIGHT + NODE_SPACING;
      }
      height = Math.max(height, next);
    });
    heights.set(band, height);
  }
  const tops = stack(order, (band) => heights.get(band)!);

  const children: ElkNode[] = input.nodes.map((node) => ({
    id: node.id,
    width,
    height: NODE_HEIGHT,
    x: columnX(node.column),
    y: tops.get(bandOf.get(node.id)!)! + offsets.get(node.id)!,
  }));
  const placed = new Map(children.map((child) => [child.id, child]));
  return {
    id: 'graph',
    layoutOptions: options,
    children,
    edges: edges.map((edge) => {
      const [writer, reader] = [columnOf.get(edge.to)!, columnOf.get(edge.from)!];
      const bends: Point[] = [];
      for (let column = writer + 1; column < reader; column += 1) {
        const y = tops.get(passingBand(edge, column))! + offsets.get(`${edge.id}@${column}`)!;
        bends.push({ x: columnX(column), y }, { x: columnX(column) + width, y });
      }
      return routedEdge(edge, placed, bends, width);
    }),
  };
}

/** The left x of each column in the flat layout. */
function flatColumns(flat: ElkNode, columnOf: Map<string, number>, columns: number): number[] {
  const left: number[] = Array.from({ length: columns }, () => Number.POSITIVE_INFINITY);
  for (const child of flat.children ?? []) {
    const column = columnOf.get(child.id)!;
    left[column] = Math.min(left[column]!, child.x ?? 0);
  }
  return left;
}

/** Where a flat layout's route is at `x`: elkjs's polyline, read between its points. */
function routeHeight(edge: ElkExtendedEdge | undefined, x: number): number {
  const section = edge?.sections?.[0];
  if (!section) return 0;
  const points = [section.startPoint, ...(section.bendPoints ?? []), section.endPoint].sort((a, b) => a.x - b.x);
  for (let i = 1; i < points.length; i += 1) {
    const [a, b] = [points[i - 1]!, points[i]!];
    if (x <= b.x) return b.x === a.x ? a.y : a.y + ((b.y - a.y) * (x - a.x)) / (b.x - a.x);
  }
  return points.at(-1)!.y;
}

/** Each band's rectangle around its nodes, as laid out: what the panel draws as the group's box. */
export function bandBoxes(input: LayoutInput, nodes: Record<string, Point>, width: number): Record<string, Rect> {
  const boxes: Record<string, Rect> = {};
  for (const node of input.nodes) {
    if (node.band === undefined) continue;
    const point = nodes[node.id];
    if (!point) continue;
    const box = boxes[node.band];
    const left = Math.min(box?.x ?? point.x, point.x);
    const top = Math.min(box?.y ?? point.y, point.y);
    const right = Math.max(box ? box.x + box.width : point.x + width, point.x + width);
    const bottom = Math.max(box ? box.y + box.height : point.y + NODE_HEIGHT, point.y + NODE_HEIGHT);
    boxes[node.band] = { x: left, y: top, width: right - left, height: bottom - top };
  }
  for (const box of Object.values(boxes)) {
    box.x -= GROUP_BOX_PADDING;
    box.y -= GROUP_BOX_TITLE;
    box.width += 2 * GROUP_BOX_PADDING;
    box.height += GROUP_BOX_TITLE + GROUP_BOX_PADDING;
  }
  return boxes;
}

/** Bands top to bottom: by the mean height of their nodes in the flat layout, then by name. */
function bandOrder(input: LayoutInput, flatY: Map<string, number>): string[] {
  const sums = new Map<string, { total: number; count: number }>();
  for (const node of input.nodes) {
    const band = node.band ?? '';
    const sum = sums.get(band) ?? { total: 0, count: 0 };
    sum.total += flatY.get(node.id) ?? 0;
    sum.count += 1;
    sums.set(band, sum);
  }
  const mean = (band: string): number => sums.get(band)!.total / sums.get(band)!.count;
  return [...sums.keys()].sort((a, b) => mean(a) - mean(b) || a.localeCompare(b));
}

/** Each band's top, the bands stacked with a gap that holds the box's title. */
function stack(order: string[], height: (band: string) => number): Map<string, number> {
  const tops = new Map<string, number>();
  let top = GROUP_BOX_TITLE;
  for (const band of order) {
    tops.set(band, top);
    top += height(band) + GROUP_GAP;
  }
  return tops;
}

/** An edge from the writer to the reader, through the bends given for the columns it passes. */
function routedEdge(
  edge: LayoutInput['edges'][number],
  placed: Map<string, ElkNode>,
  bends: Point[],
  width: number,
): ElkExtendedEdge {
  const laid: ElkExtendedEdge = { id: edge.id, sources: [edge.to], targets: [edge.from] };
  const writer = placed.get(edge.to)!;
  const reader = placed.get(edge.from)!;
  const start = { x: writer.x! + width, y: writer.y! + NODE_HEIGHT / 2 };
  const end = { x: reader.x!, y: reader.y! + NODE_HEIGHT / 2 };
  const bendPoints = bends;
  return { ...laid, sections: [{ id: `${edge.id}:route`, startPoint: start, endPoint: end, bendPoints }] };
}
