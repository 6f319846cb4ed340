import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { layeredLayout } from '../../webview/src/layeredLayout';
import type { LayoutInput } from '../../webview/src/layoutGraph';
import { LAYOUT_OPTIONS, NODE_HEIGHT, NODE_WIDTH } from '../../webview/src/layoutOptions';
import { buildView, DEFAULT_VIEW, GraphIndex, groupChoices, moduleLabel } from '../../webview/src/viewModel';
import { API, cycle, DNS, dag, EKS, RDS, synthetic, VPC, WORKER } from './graphModels';

/** The panel's pure parts, without a browser: what it decides to draw, and where. */

function inputOf(nodes: [string, number][], edges: [string, string][]): LayoutInput {
  return {
    nodes: nodes.map(([id, column]) => ({ id, column })),
    edges: edges.map(([from, to]) => ({ id: `${from}->${to}`, from, to })),
  };
}

describe('layered layout', () => {
  test('puts each node in its column, spaced, and routes edges from the reader to the writer', () => {
    const graph = synthetic(300);
    const column = new Map(graph.modules.map((m) => [m.id, m.level]));
    const input: LayoutInput = {
      nodes: graph.modules.map((m) => ({ id: m.id, column: m.level })),
      edges: graph.edges.map((e, i) => ({ id: `e${i}`, from: e.from, to: e.to })),
    };
    const layout = layeredLayout(input);
    assert.equal(layout.columns.length, graph.levels.length);
    for (const [c, x] of layout.columns.entries()) assert.equal(x, c * (NODE_WIDTH + LAYOUT_OPTIONS.columnGap));
    const byColumn = new Map<number, number[]>();
    for (const [id, point] of Object.entries(layout.nodes)) {
      assert.equal(point.x, layout.columns[column.get(id)!], `${id} in the column of its level`);
      byColumn.set(point.x, [...(byColumn.get(point.x) ?? []), point.y]);
    }
    for (const ys of byColumn.values()) {
      ys.sort((a, b) => a - b);
      for (let i = 1; i < ys.length; i++)
        assert.ok(ys[i]! - ys[i - 1]! >= NODE_HEIGHT + LAYOUT_OPTIONS.nodeSpacing - 1e-6, 'no overlap');
    }
    assert.equal(Object.keys(layout.edges).length, graph.edges.length);
    graph.edges.forEach((e, i) => {
      const points = layout.edges[`e${i}`]!;
      const reader = layout.nodes[e.from]!;
      const writer = layout.nodes[e.to]!;
      assert.equal(points[0]!.x, reader.x, 'starts on the reader’s left side');
      assert.ok(points[0]!.y >= reader.y && points[0]!.y <= reader.y + NODE_HEIGHT);
      assert.equal(points.at(-1)!.x, writer.x + NODE_WIDTH, 'ends on the writer’s right side');
      assert.ok(points.at(-1)!.y >= writer.y && points.at(-1)!.y <= writer.y + NODE_HEIGHT);
      // Through every column in between: two points per column crossed.
      assert.equal(points.length, 2 + 2 * (column.get(e.from)! - column.get(e.to)! - 1));
    });
    assert.ok(layout.height > 0 && layout.width === layout.columns.at(-1)! + NODE_WIDTH);
  });

  test('orders a column to undo crossings', () => {
    // a above b by name; x reads b and y reads a: drawn in name order, the two edges would cross.
    const layout = layeredLayout(
      inputOf(
        [
          ['a', 0],
          ['b', 0],
          ['x', 1],
          ['y', 1],
        ],
        [
          ['x', 'b'],
          ['y', 'a'],
        ],
      ),
    );
    const above = (p: string, q: string) => layout.nodes[p]!.y < layout.nodes[q]!.y;
    assert.equal(above('a', 'b'), above('y', 'x'), 'y is on the side of a, x on the side of b');
  });

  test('leaves edges inside one column (a cycle) to the drawing', () => {
    const layout = layeredLayout(
      inputOf(
        [
          ['a', 0],
          ['b', 0],
          ['c', 1],
        ],
        [
          ['a', 'b'],
          ['b', 'a'],
          ['c', 'a'],
        ],
      ),
    );
    assert.deepEqual(Object.keys(layout.edges), ['c->a']);
    assert.equal(layout.nodes.a!.x, layout.nodes.b!.x);
  });
});

describe('view model', () => {
  test('labels: the last folder, and the rest of the path', () => {
    assert.deepEqual(moduleLabel('platform/prod/eu-west-1/eks'), {
      label: 'eks',
      detail: 'platform · prod · eu-west-1',
    });
    assert.deepEqual(moduleLabel('network/vpc'), { label: 'vpc', detail: 'network' });
    assert.deepEqual(moduleLabel('.'), { label: '(root)', detail: '' });
  });

  test('group choices: segments with more than one value, or the first folder', () => {
    assert.deepEqual(groupChoices(dag), ['service']);
    assert.deepEqual(groupChoices(synthetic(100)), ['service', 'environment', 'region']);
    assert.deepEqual(groupChoices(cycle), ['folder']);
  });

  test('focus keeps the closure; collapsed groups become one node per level with counted edges', () => {
    const index = new GraphIndex(dag);
    const focused = buildView(index, { ...DEFAULT_VIEW, focus: { id: RDS, upstream: true, downstream: true } });
    assert.deepEqual(focused.nodes.map((n) => n.id).sort(), [API, RDS, VPC, WORKER].sort());
    assert.deepEqual(focused.levels, [0, 1, 2, 3]);

    const grouped = buildView(index, { ...DEFAULT_VIEW, groupBy: 'service', collapsed: ['network', 'platform'] });
    assert.deepEqual(
      grouped.nodes.map((n) => n.id).sort(),
      [API, WORKER, 'group:network:0', 'group:platform:1'].sort(),
    );
    const network = grouped.nodes.find((n) => n.id === 'group:network:0')!;
    assert.deepEqual(network.members.sort(), [DNS, VPC].sort());
    assert.equal(network.detail, '2 modules');
    const edges = Object.fromEntries(grouped.edges.map((e) => [e.id, e.count]));
    assert.deepEqual(edges, {
      'group:platform:1→group:network:0': 2,
      [`${API}→group:platform:1`]: 2,
      [`${API}→group:network:0`]: 1,
      [`${WORKER}→${API}`]: 1,
      [`${WORKER}→group:platform:1`]: 1,
    });
    assert.deepEqual(grouped.groups, [
      { name: 'app', modules: 2, collapsed: false },
      { name: 'network', modules: 2, collapsed: true },
      { name: 'platform', modules: 2, collapsed: true },
    ]);
    // eks was never a node of its own here.
    assert.ok(!grouped.nodes.some((n) => n.id === EKS));
  });

  test('the filter keeps matches only; problems go to the reader', () => {
    const index = new GraphIndex(dag);
    const filtered = buildView(index, { ...DEFAULT_VIEW, search: 'prod app', filter: true });
    assert.deepEqual(filtered.nodes.map((n) => n.id).sort(), [API, WORKER].sort());
    assert.deepEqual(
      filtered.edges.map((e) => e.id),
      [`${WORKER}→${API}`],
    );
    assert.deepEqual(
      filtered.nodes.find((n) => n.id === WORKER)!.problems.map((p) => p.name),
      ['queue'],
    );
  });
});
