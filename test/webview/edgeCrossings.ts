import type { Point } from '../../webview/src/layoutGraph';

/**
 * How many times the drawn edges cross: pairs of segments of two different edges that intersect at a
 * point inside both (edges that meet at a node's side do not count). A sweep over x keeps it near
 * linear on layered drawings, where a segment spans one gap between columns.
 */
export function edgeCrossings(routes: readonly (readonly Point[])[]): number {
  const segments: Segment[] = [];
  routes.forEach((points, edge) => {
    for (let i = 1; i < points.length; i++) {
      const a = points[i - 1]!;
      const b = points[i]!;
      segments.push({ edge, a, b, minX: Math.min(a.x, b.x), maxX: Math.max(a.x, b.x) });
    }
  });
  segments.sort((s, t) => s.minX - t.minX);
  let crossings = 0;
  let active: Segment[] = [];
  for (const segment of segments) {
    active = active.filter((other) => other.maxX > segment.minX);
    for (const other of active) if (other.edge !== segment.edge && cross(segment, other)) crossings++;
    active.push(segment);
  }
  return crossings;
}

interface Segment {
  edge: number;
  a: Point;
  b: Point;
  minX: number;
  maxX: number;
}

/** Whether two segments meet at a point strictly inside both. */
function cross(s: Segment, t: Segment): boolean {
  const d1 = side(t.a, t.b, s.a);
  const d2 = side(t.a, t.b, s.b);
  const d3 = side(s.a, s.b, t.a);
  const d4 = side(s.a, s.b, t.b);
  return d1 * d2 < 0 && d3 * d4 < 0;
}

function side(p: Point, q: Point, r: Point): number {
  const value = (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x);
  return Math.abs(value) < 1e-9 ? 0 : Math.sign(value);
}
