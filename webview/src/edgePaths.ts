import type { Layout, Point } from './layoutGraph';
import { NODE_HEIGHT } from './layoutOptions';

/** The `d` of an edge's path: along the layout's route, or, where it has none, an arc beside a column. */

/** A polyline with rounded bends. */
export function roundedPath(points: Point[]): string {
  const first = points[0]!;
  let d = `M${num(first.x)},${num(first.y)}`;
  for (let i = 1; i < points.length - 1; i++) {
    const previous = points[i - 1]!;
    const corner = points[i]!;
    const next = points[i + 1]!;
    const r = Math.min(14, distance(previous, corner) / 2, distance(corner, next) / 2);
    const a = towards(corner, previous, r);
    const b = towards(corner, next, r);
    d += ` L${num(a.x)},${num(a.y)} Q${num(corner.x)},${num(corner.y)} ${num(b.x)},${num(b.y)}`;
  }
  const last = points.at(-1)!;
  return `${d} L${num(last.x)},${num(last.y)}`;
}

/**
 * An arc on the left of a column, from the reader to the writer (members of one cycle share a column):
 * the left side of a node is where only its own outgoing edges leave, so the arrowheads stand out.
 * Going down, the same above a row: reckoned rightward and turned back.
 */
export function sameColumnPath(from: Point, to: Point, self: boolean, layout: Layout): string {
  const down = layout.direction === 'down';
  const flow = (point: Point): Point => (down ? { x: point.y, y: point.x } : point);
  // Half a node's extent across its column: where its side's middle is.
  const middle = (down ? layout.nodeWidth : NODE_HEIGHT) / 2;
  const [a, b] = [flow(from), flow(to)];
  const x = a.x;
  let points: Point[];
  if (self) {
    const y = a.y + middle;
    points = [
      { x, y: y - 8 },
      { x: x - 36, y: y - 30 },
      { x: x - 36, y: y + 30 },
      { x: x - 1, y: y + 8 },
    ];
  } else {
    const y1 = a.y + middle + (b.y > a.y ? 6 : -6);
    const y2 = b.y + middle + (b.y > a.y ? -6 : 6);
    const bulge = 18 + Math.abs(y2 - y1) * 0.3;
    points = [
      { x, y: y1 },
      { x: x - bulge, y: y1 },
      { x: x - bulge, y: y2 },
      { x: x - 1, y: y2 },
    ];
  }
  const [m, c1, c2, end] = points.map(flow).map((point) => `${num(point.x)},${num(point.y)}`);
  return `M${m} C${c1} ${c2} ${end}`;
}

function distance(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

function towards(from: Point, to: Point, length: number): Point {
  const d = distance(from, to) || 1;
  return { x: from.x + ((to.x - from.x) * length) / d, y: from.y + ((to.y - from.y) * length) / d };
}

function num(value: number): string {
  return String(Math.round(value * 10) / 10);
}
