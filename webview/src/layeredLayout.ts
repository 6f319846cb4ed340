import type { Layout, LayoutInput, Point } from './layoutGraph';
import { LAYOUT_OPTIONS, type LayoutOptions, NODE_HEIGHT, NODE_WIDTH } from './layoutOptions';

/**
 * A layered (Sugiyama-style) layout whose layers are given: the execution levels. Because the
 * columns are known, it skips the costly steps of a general layered layout (cycle breaking,
 * layering) and does the rest in near-linear time:
 *
 * 1. an edge that spans columns becomes a chain of small dummy nodes, one per column it crosses,
 *    so it runs between the nodes of those columns instead of through them;
 * 2. crossings are reduced by sweeping the columns left to right and back, ordering each column by
 *    the barycentre of its neighbours' positions in the column before;
 * 3. nodes are placed vertically as close as possible to the mean height of their neighbours,
 *    keeping the order and the spacing (isotonic regression, pool-adjacent-violators), a few rounds;
 * 4. each edge is routed from the reader's left side through its dummies to the writer's right side.
 *
 * Edges between nodes of one column (members of one cycle) are left out; the panel draws them as arcs.
 */

interface Item {
  /** Index in `items`. */
  index: number;
  /** A node id, or null for a dummy. */
  id: string | null;
  column: number;
  height: number;
  /** Neighbours in the column to the left and to the right. */
  left: number[];
  right: number[];
  /** Position in its column, and its top y. */
  order: number;
  y: number;
  /** Scratch: the sort key of the current ordering step. */
  key: number;
}

export function layeredLayout(input: LayoutInput, options: LayoutOptions = LAYOUT_OPTIONS): Layout {
  const started = performance.now();
  const items: Item[] = [];
  const byId = new Map<string, Item>();
  const add = (id: string | null, column: number, height: number): Item => {
    const item: Item = { index: items.length, id, column, height, left: [], right: [], order: 0, y: 0, key: 0 };
    items.push(item);
    if (id !== null) byId.set(id, item);
    return item;
  };
  // Nodes in a stable order: by column, then id (ids are paths, so related modules start together).
  const sorted = [...input.nodes].sort((a, b) => a.column - b.column || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const node of sorted) add(node.id, node.column, NODE_HEIGHT);

  // 1. Dummy chains: each edge from the writer (left) to the reader (right), one dummy per column between.
  const chains = new Map<string, Item[]>();
  for (const edge of input.edges) {
    const reader = byId.get(edge.from);
    const writer = byId.get(edge.to);
    if (!reader || !writer || reader.column <= writer.column) continue;
    const chain = [writer];
    for (let column = writer.column + 1; column < reader.column; column++) chain.push(add(null, column, 0));
    chain.push(reader);
    for (let i = 1; i < chain.length; i++) {
      chain[i - 1]!.right.push(chain[i]!.index);
      chain[i]!.left.push(chain[i - 1]!.index);
    }
    chains.set(edge.id, chain);
  }

  const columnCount = Math.max(0, ...input.nodes.map((node) => node.column + 1));
  const columns: Item[][] = Array.from({ length: columnCount }, () => []);
  for (const item of items) columns[item.column]!.push(item);
  // Dummies start next to where their chain comes from.
  for (const item of items) item.key = initialKey(item, items);
  for (const column of columns) {
    column.sort((a, b) => a.key - b.key || a.index - b.index);
    column.forEach((item, order) => {
      item.order = order;
    });
  }

  // 2. Crossing reduction: barycentre sweeps, keeping the best order seen.
  let best = columns.map((column) => [...column]);
  let bestCrossings = countCrossings(columns, items);
  for (let sweep = 0; sweep < options.sweeps && bestCrossings > 0; sweep++) {
    const rightward = sweep % 2 === 0;
    const sequence = rightward ? range(1, columnCount) : range(columnCount - 2, -1, -1);
    for (const c of sequence) orderByBarycentre(columns[c]!, items, rightward ? 'left' : 'right');
    const crossings = countCrossings(columns, items);
    if (crossings < bestCrossings) {
      bestCrossings = crossings;
      best = columns.map((column) => [...column]);
    }
  }
  best.forEach((column, c) => {
    columns[c] = column;
    column.forEach((item, order) => {
      item.order = order;
    });
  });

  // 3. Vertical placement.
  for (const column of columns) {
    let y = 0;
    column.forEach((item, i) => {
      if (i > 0) y += gap(column[i - 1]!, item, options);
      item.y = y;
    });
  }
  for (let round = 0; round < options.placementRounds; round++) {
    const rightward = round % 2 === 0;
    const sequence = rightward ? range(0, columnCount) : range(columnCount - 1, -1, -1);
    for (const c of sequence)
      place(columns[c]!, items, options, round === options.placementRounds - 1 ? 'both' : rightward ? 'left' : 'right');
  }
  let top = Number.POSITIVE_INFINITY;
  let bottom = 0;
  for (const item of items) {
    top = Math.min(top, item.y);
    bottom = Math.max(bottom, item.y + item.height);
  }
  if (!Number.isFinite(top)) top = 0;
  for (const item of items) item.y -= top;

  // 4. Positions and routes.
  const columnX = range(0, columnCount).map((c) => c * (NODE_WIDTH + options.columnGap));
  const nodes: Record<string, Point> = {};
  for (const [id, item] of byId) nodes[id] = { x: columnX[item.column]!, y: item.y };
  const edges: Record<string, Point[]> = {};
  for (const [id, chain] of chains) {
    const writer = chain[0]!;
    const reader = chain.at(-1)!;
    const points: Point[] = [{ x: columnX[reader.column]!, y: reader.y + NODE_HEIGHT / 2 }];
    for (let i = chain.length - 2; i > 0; i--) {
      const dummy = chain[i]!;
      const x = columnX[dummy.column]!;
      points.push({ x: x + NODE_WIDTH, y: dummy.y }, { x, y: dummy.y });
    }
    points.push({ x: columnX[writer.column]! + NODE_WIDTH, y: writer.y + NODE_HEIGHT / 2 });
    edges[id] = points;
  }
  spreadEnds(edges, chains);
  return {
    nodes,
    edges,
    columns: columnX,
    width: columnCount ? columnX.at(-1)! + NODE_WIDTH : 0,
    height: bottom - top,
    ms: performance.now() - started,
  };
}

/**
 * Edges leave a reader's left side and reach a writer's right side at points spread over the side,
 * in the order of where they come from, so that arrowheads do not pile up on one point.
 */
function spreadEnds(edges: Record<string, Point[]>, chains: Map<string, Item[]>): void {
  const ends = new Map<Item, { points: Point[]; at: number; next: number }[]>();
  const add = (item: Item, points: Point[], at: number, next: number) => {
    const list = ends.get(item);
    const end = { points, at, next };
    if (list) list.push(end);
    else ends.set(item, [end]);
  };
  for (const [id, chain] of chains) {
    const points = edges[id]!;
    // The reader's end (first point) and the writer's end (last point) are on different sides.
    add(chain.at(-1)!, points, 0, 1);
    add(chain[0]!, points, points.length - 1, points.length - 2);
  }
  for (const [item, list] of ends) {
    for (const side of [0, 1]) {
      const onSide = list.filter((end) => (end.at === 0 ? 0 : 1) === side);
      if (onSide.length < 2) continue;
      onSide.sort((a, b) => a.points[a.next]!.y - b.points[b.next]!.y);
      const step = Math.min(6, (NODE_HEIGHT - 16) / (onSide.length - 1));
      onSide.forEach((end, i) => {
        end.points[end.at] = {
          x: end.points[end.at]!.x,
          y: item.y + NODE_HEIGHT / 2 + (i - (onSide.length - 1) / 2) * step,
        };
      });
    }
  }
}

/** Where an item starts in its column: a node by its id's order, a dummy at its writer's position. */
function initialKey(item: Item, items: Item[]): number {
  if (item.id !== null) return item.index;
  let writer = item;
  while (writer.id === null && writer.left.length) writer = items[writer.left[0]!]!;
  return writer.index + 0.5;
}

/** Orders a column by the mean position of each item's neighbours on one side; items without keep their place. */
function orderByBarycentre(column: Item[], items: Item[], side: 'left' | 'right'): void {
  for (const item of column) {
    const neighbours = item[side];
    if (neighbours.length === 0) {
      item.key = item.order;
      continue;
    }
    let sum = 0;
    for (const index of neighbours) sum += items[index]!.order;
    item.key = sum / neighbours.length;
  }
  column.sort((a, b) => a.key - b.key || a.order - b.order);
  column.forEach((item, order) => {
    item.order = order;
  });
}

/** Crossings between each pair of adjacent columns (each edge segment counted once). */
function countCrossings(columns: Item[][], items: Item[]): number {
  let total = 0;
  for (let c = 0; c + 1 < columns.length; c++) {
    // Segments from column c to c + 1, sorted by their left end (then right end); crossings are the
    // inversions of their right ends. A segment is encoded as left * size + right to sort numbers.
    const size = columns[c + 1]!.length + 1;
    let count = 0;
    for (const item of columns[c]!) count += item.right.length;
    const segments = new Float64Array(count);
    let k = 0;
    for (const item of columns[c]!)
      for (const index of item.right) segments[k++] = item.order * size + items[index]!.order;
    segments.sort();
    const rights = new Int32Array(count);
    for (let i = 0; i < count; i++) rights[i] = segments[i]! % size;
    total += inversions(rights);
  }
  return total;
}

/** Inversions of a sequence (merge sort; sorts it). */
function inversions(values: Int32Array): number {
  if (values.length < 2) return 0;
  const buffer = new Int32Array(values.length);
  let count = 0;
  for (let width = 1; width < values.length; width *= 2) {
    for (let low = 0; low < values.length; low += 2 * width) {
      const mid = Math.min(low + width, values.length);
      const high = Math.min(low + 2 * width, values.length);
      let i = low;
      let j = mid;
      let k = low;
      while (i < mid && j < high) {
        if (values[i]! <= values[j]!) buffer[k++] = values[i++]!;
        else {
          buffer[k++] = values[j++]!;
          count += mid - i;
        }
      }
      while (i < mid) buffer[k++] = values[i++]!;
      while (j < high) buffer[k++] = values[j++]!;
    }
    values.set(buffer);
  }
  return count;
}

/** The least distance between the tops of two items one above the other. */
function gap(above: Item, below: Item, options: LayoutOptions): number {
  const spacing =
    above.id !== null && below.id !== null
      ? options.nodeSpacing
      : above.id === null && below.id === null
        ? options.edgeSpacing
        : options.edgeNodeSpacing;
  return above.height + spacing;
}

/**
 * Moves a column's items as near as possible to the mean centre of their neighbours (on one side or
 * both), in order and spaced: minimises the squared distances with pool-adjacent-violators.
 */
function place(column: Item[], items: Item[], options: LayoutOptions, side: 'left' | 'right' | 'both'): void {
  if (column.length === 0) return;
  const n = column.length;
  // Offsets turn "y[i+1] - y[i] >= gap" into "z[i+1] >= z[i]" with z = y - offset.
  const offset = new Float64Array(n);
  for (let i = 1; i < n; i++) offset[i] = offset[i - 1]! + gap(column[i - 1]!, column[i]!, options);
  // Pool adjacent violators: a stack of blocks of equal z, each at the weighted mean of its targets.
  const blockValue = new Float64Array(n);
  const blockWeight = new Float64Array(n);
  const blockSize = new Int32Array(n);
  let blocks = 0;
  for (let i = 0; i < n; i++) {
    const item = column[i]!;
    let sum = 0;
    let count = 0;
    if (side !== 'right') {
      for (const index of item.left) sum += centre(items[index]!);
      count += item.left.length;
    }
    if (side !== 'left') {
      for (const index of item.right) sum += centre(items[index]!);
      count += item.right.length;
    }
    // Without neighbours an item stays put, weakly; dummies follow their edge closely, which keeps long edges straight.
    const desired = count ? sum / count - item.height / 2 : item.y;
    blockValue[blocks] = desired - offset[i]!;
    blockWeight[blocks] = count ? (item.id === null ? 2 : 1) : 0.05;
    blockSize[blocks] = 1;
    blocks++;
    while (blocks > 1 && blockValue[blocks - 2]! > blockValue[blocks - 1]!) {
      const w = blockWeight[blocks - 2]! + blockWeight[blocks - 1]!;
      blockValue[blocks - 2] =
        (blockValue[blocks - 2]! * blockWeight[blocks - 2]! + blockValue[blocks - 1]! * blockWeight[blocks - 1]!) / w;
      blockWeight[blocks - 2] = w;
      blockSize[blocks - 2]! += blockSize[blocks - 1]!;
      blocks--;
    }
  }
  let i = 0;
  for (let b = 0; b < blocks; b++) {
    for (let k = 0; k < blockSize[b]!; k++, i++) column[i]!.y = blockValue[b]! + offset[i]!;
  }
}

function centre(item: Item): number {
  return item.y + item.height / 2;
}

function range(start: number, end: number, step = 1): number[] {
  const result: number[] = [];
  for (let i = start; step > 0 ? i < end : i > end; i += step) result.push(i);
  return result;
}
