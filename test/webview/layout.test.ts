import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { GraphModel } from '../../server/src/protocol';
import { elkLayout } from '../../webview/src/elkLayout';
import type { Layout, LayoutInput } from '../../webview/src/layoutGraph';
import { COLUMN_GAP, NODE_HEIGHT, NODE_WIDTH } from '../../webview/src/layoutOptions';
import { buildView, DEFAULT_VIEW, GraphIndex, groupChoices, moduleLabel } from '../../webview/src/viewModel';
import { edgeCrossings } from './edgeCrossings';
import { API, cycle, DNS, dag, EKS, RDS, synthetic, VPC, WORKER } from './graphModels';

/** The panel's pure parts, without a browser: what it decides to draw, and where. */

function inputOf(nodes: [string, number][], edges: [string, string][]): LayoutInput {
  return {
    nodes: nodes.map(([id, column]) => ({ id, column })),
    edges: edges.map(([from, to]) => ({ id: `${from}->${to}`, from, to })),
  };
}

/** A synthetic graph as the panel hands it to the layout: every module in the column of its level. */
function syntheticInput(graph: GraphModel): LayoutInput {
  return {
    nodes: graph.modules.map((m) => ({ id: m.id, column: m.level })),
    edges: graph.edges.map((e, i) => ({ id: `e${i}`, from: e.from, to: e.to })),
  };
}

describe('elkjs layout', () => {
  test('puts each node in its level’s column, spaced, and routes edges from the reader to the writer, each to a point of its own', async () => {
    const graph = synthetic(300);
    const column = new Map(graph.modules.map((m) => [m.id, m.level]));
    const input: LayoutInput = syntheticInput(graph);
    const layout = await elkLayout(input);
    assert.equal(layout.columns.length, graph.levels.length);
    for (let c = 1; c < layout.columns.length; c++)
      assert.ok(
        layout.columns[c]! >= layout.columns[c - 1]! + NODE_WIDTH + COLUMN_GAP,
        `column ${c} right of ${c - 1}`,
      );
    const byColumn = new Map<number, number[]>();
    for (const [id, point] of Object.entries(layout.nodes)) {
      assert.equal(point.x, layout.columns[column.get(id)!], `${id} in the column of its level`);
      byColumn.set(point.x, [...(byColumn.get(point.x) ?? []), point.y]);
    }
    for (const ys of byColumn.values()) {
      ys.sort((a, b) => a - b);
      for (let i = 1; i < ys.length; i++) assert.ok(ys[i]! - ys[i - 1]! >= NODE_HEIGHT, 'no overlap');
    }
    assert.equal(Object.keys(layout.edges).length, graph.edges.length);
    const ends = new Set<string>();
    graph.edges.forEach((e, i) => {
      const points = layout.edges[`e${i}`]!;
      const reader = layout.nodes[e.from]!;
      const writer = layout.nodes[e.to]!;
      assert.equal(points[0]!.x, reader.x, 'starts on the reader’s left side');
      assert.ok(points[0]!.y >= reader.y && points[0]!.y <= reader.y + NODE_HEIGHT);
      assert.equal(points.at(-1)!.x, writer.x + NODE_WIDTH, 'ends on the writer’s right side');
      assert.ok(points.at(-1)!.y >= writer.y && points.at(-1)!.y <= writer.y + NODE_HEIGHT);
      const end = `${e.to}@${points.at(-1)!.y}`;
      assert.ok(!ends.has(end), `two edges into ${e.to} end at one point`);
      ends.add(end);
    });
    assert.ok(layout.height >= Math.max(...Object.values(layout.nodes).map((p) => p.y + NODE_HEIGHT)));
    assert.ok(layout.width >= layout.columns.at(-1)! + NODE_WIDTH);
  });

  test('orders a column to undo crossings', async () => {
    // a above b by name; x reads b and y reads a: drawn in name order, the two edges would cross.
    const layout = await elkLayout(
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
    assert.equal(edgeCrossings(Object.values(layout.edges)), 0);
  });

  test('leaves edges inside one column (a cycle) to the drawing', async () => {
    const layout = await elkLayout(
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

  test('the same graph gets the same picture; laid out again after a one-edge change, no module moves', async () => {
    const graph = synthetic(200);
    const input: LayoutInput = syntheticInput(graph);
    const first = await elkLayout(input);
    assert.deepEqual((await elkLayout(input)).nodes, first.nodes);
    // The first edge's reader has another edge into the same level: the levels, so the columns, stay.
    const edges = input.edges.slice(1);
    const moves = (layout: Layout) =>
      input.nodes.filter((node) => Math.abs(layout.nodes[node.id]!.y - first.nodes[node.id]!.y) >= 1).length;
    assert.equal(moves(await elkLayout({ ...input, edges, previous: first })), 0);
    // Without the drawing it replaces, the layout finds another order: most modules move.
    assert.ok(moves(await elkLayout({ ...input, edges })) > input.nodes.length / 4);
  });

  test('a module added below its neighbours, the others in place; a changed column count starts afresh', async () => {
    const first = await elkLayout(
      inputOf(
        [
          ['a', 0],
          ['b', 0],
          ['c', 1],
          ['d', 1],
        ],
        [
          ['c', 'a'],
          ['d', 'b'],
        ],
      ),
    );
    const added = await elkLayout({
      ...inputOf(
        [
          ['a', 0],
          ['b', 0],
          ['c', 1],
          ['d', 1],
          ['e', 1],
        ],
        [
          ['c', 'a'],
          ['d', 'b'],
          ['e', 'b'],
        ],
      ),
      previous: first,
    });
    for (const id of ['a', 'b', 'c', 'd']) {
      assert.equal(added.nodes[id]!.y, first.nodes[id]!.y, `${id} stays at its height`);
      // elkjs may widen a gap a little where an edge slopes.
      assert.ok(Math.abs(added.nodes[id]!.x - first.nodes[id]!.x) < 10, `${id} stays in its place`);
    }
    assert.ok(added.nodes.e!.y > added.nodes.c!.y, 'e next to b, below c');
    const deeper = await elkLayout({
      ...inputOf(
        [
          ['a', 0],
          ['b', 0],
          ['c', 1],
          ['d', 2],
        ],
        [
          ['c', 'a'],
          ['d', 'c'],
        ],
      ),
      previous: first,
    });
    assert.equal(deeper.columns.length, 3);
  });

  test('groups in bands: each box holds exactly its group’s modules, columns still the levels, every edge routed', async () => {
    const graph = synthetic(200);
    const column = new Map(graph.modules.map((m) => [m.id, m.level]));
    // Grouped by environment: the synthetic graph's dependencies stay inside one.
    const environment = (id: string) => id.split('/')[1]!;
    const flat = syntheticInput(graph);
    const input: LayoutInput = { ...flat, nodes: flat.nodes.map((node) => ({ ...node, band: environment(node.id) })) };
    const layout = await elkLayout(input);
    const environments = [...new Set(graph.modules.map((m) => environment(m.id)))].sort();
    assert.deepEqual(Object.keys(layout.bands).sort(), environments);
    for (const [band, box] of Object.entries(layout.bands)) {
      const inside = graph.modules.filter((m) => {
        const point = layout.nodes[m.id]!;
        return (
          point.x < box.x + box.width &&
          point.x + NODE_WIDTH > box.x &&
          point.y < box.y + box.height &&
          point.y + NODE_HEIGHT > box.y
        );
      });
      assert.deepEqual(
        inside.map((m) => m.id).sort(),
        graph.modules
          .filter((m) => environment(m.id) === band)
          .map((m) => m.id)
          .sort(),
        `the box of ${band}`,
      );
    }
    for (const [id, point] of Object.entries(layout.nodes)) assert.equal(point.x, layout.columns[column.get(id)!]);
    assert.equal(Object.keys(layout.edges).length, graph.edges.length);
    // Dependencies stay inside an environment, so its band costs few crossings over the flat layout.
    const crossings = edgeCrossings(Object.values(layout.edges));
    const flatCrossings = edgeCrossings(Object.values((await elkLayout(flat)).edges));
    assert.ok(crossings <= flatCrossings * 1.6, `${crossings} crossings in bands, ${flatCrossings} without`);
    assert.deepEqual((await elkLayout(flat)).bands, {}, 'no bands asked, none drawn');
  });

  test('crosses no more edges than the panel’s earlier layout did, plus 10 %', async () => {
    // The earlier layout (a barycentre sweep of its own, replaced by elkjs) crossed 1,825 times on this graph.
    const graph = synthetic(200);
    const layout = await elkLayout(syntheticInput(graph));
    assert.ok(edgeCrossings(Object.values(layout.edges)) <= 1825 * 1.1);
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
