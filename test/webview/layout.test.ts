import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { GraphModel } from '../../server/src/protocol';
import { arrangeColumns, type WrapColumn } from '../../webview/src/columnWrap';
import { elkLayout } from '../../webview/src/elkLayout';
import { GraphIndex } from '../../webview/src/graphIndex';
import type { Layout, LayoutInput } from '../../webview/src/layoutGraph';
import { COLUMN_GAP, NODE_HEIGHT, NODE_SPACING, NODE_WIDTH } from '../../webview/src/layoutOptions';
import { pathLabels } from '../../webview/src/nodeLabels';
import { buildView, DEFAULT_VIEW, groupChoices } from '../../webview/src/viewModel';
import { seededRandom } from '../seededRandom';
import { edgeCrossings } from './edgeCrossings';
import { API, cycle, DNS, dag, EKS, edge, module, RDS, synthetic, VPC, WORKER } from './graphModels';
import { panelOfModel } from './panelOfModel';

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
  test('labels tell namesakes apart by the fewest folders, and never show the prefix every path shares', () => {
    const labels = pathLabels([
      'subscriptions/sub-a/prod/common',
      'subscriptions/sub-b/prod/common',
      'subscriptions/sub-a/stage/common',
      'subscriptions/sub-a/prod/virtualnetwork',
      'subscriptions/common',
    ]);
    assert.deepEqual(Object.fromEntries(labels), {
      'subscriptions/sub-a/prod/common': { name: 'common', context: 'sub-a/prod', shared: true },
      'subscriptions/sub-b/prod/common': { name: 'common', context: 'sub-b', shared: true },
      'subscriptions/sub-a/stage/common': { name: 'common', context: 'stage', shared: true },
      // A name of its own: the rest of its path, less the shared `subscriptions`.
      'subscriptions/sub-a/prod/virtualnetwork': { name: 'virtualnetwork', context: 'sub-a/prod', shared: false },
      'subscriptions/common': { name: 'common', context: '', shared: true },
    });
    // A path whose folders all appear in a namesake's: all of them, the other shows what it has more.
    assert.deepEqual(Object.fromEntries(pathLabels(['a/common', 'x/a/common', '.'])), {
      'a/common': { name: 'common', context: 'a', shared: true },
      'x/a/common': { name: 'common', context: 'x', shared: true },
      '.': { name: '(root)', context: '', shared: false },
    });
    // A namesake below it has all its folders and more: it is told apart from the others, the namesake by its own.
    assert.deepEqual(
      Object.fromEntries(
        [
          ...pathLabels([
            'cd/dev-account/dev/route53',
            'cd/dev-account/dev/early/route53',
            'cd/prod-account/prod/route53',
          ]),
        ].map(([id, label]) => [id, label.context]),
      ),
      {
        'cd/dev-account/dev/route53': 'dev',
        'cd/dev-account/dev/early/route53': 'early',
        'cd/prod-account/prod/route53': 'prod',
      },
    );
    // Every label is unique among namesakes on the synthetic graph, where 160 modules share each name.
    const graph = synthetic(3000);
    const seen = new Set<string>();
    for (const label of pathLabels(graph.modules.map((m) => m.id)).values()) {
      const key = `${label.name} · ${label.context}`;
      assert.ok(!seen.has(key), `${key} is unique`);
      seen.add(key);
    }
  });

  test('a module node says its kind and what tells it from its namesakes, to be drawn whole', () => {
    const graph = synthetic(100);
    const units: GraphModel = { ...graph, modules: graph.modules.map((m) => ({ ...m, kind: 'unit' })) };
    const view = buildView(new GraphIndex(panelOfModel(units)), DEFAULT_VIEW);
    const node = view.nodes.find((n) => n.id === 'network/prod/eu-central-1/m0000')!;
    assert.equal(node.label, 'm0000');
    assert.equal(node.detail, 'terragrunt · network/prod/eu-central-1');
    assert.equal(node.distinct, 'terragrunt · network/prod/eu-central-1');
  });

  test('group choices: segments with more than one value, and folders that hold more than one module', () => {
    assert.deepEqual(groupChoices(new GraphIndex(panelOfModel(dag))), ['service', 'folder']);
    assert.deepEqual(groupChoices(new GraphIndex(panelOfModel(synthetic(100)))), [
      'service',
      'environment',
      'region',
      'folder',
    ]);
    // No folder holds two modules: nothing to fold.
    assert.deepEqual(groupChoices(new GraphIndex(panelOfModel(cycle))), []);
  });

  test('focus keeps the closure; a folded group is one node with counted edges, in a column after what it depends on', () => {
    const index = new GraphIndex(panelOfModel(dag));
    const focused = buildView(index, { ...DEFAULT_VIEW, focus: { id: RDS, upstream: true, downstream: true } });
    assert.deepEqual(focused.nodes.map((n) => n.id).sort(), [API, RDS, VPC, WORKER].sort());
    assert.deepEqual(
      focused.columns.map((c) => c.levels?.first),
      [0, 1, 2, 3],
    );

    const grouped = buildView(index, { ...DEFAULT_VIEW, groupBy: 'service', collapsed: ['network', 'platform'] });
    assert.deepEqual(grouped.nodes.map((n) => n.id).sort(), [API, WORKER, 'group:network', 'group:platform'].sort());
    const network = grouped.nodes.find((n) => n.id === 'group:network')!;
    assert.deepEqual(network.members.sort(), [DNS, VPC].sort());
    assert.equal(network.detail, '2 modules');
    const edges = Object.fromEntries(grouped.edges.map((e) => [e.id, e.count]));
    assert.deepEqual(edges, {
      'group:platform→group:network': 2,
      [`${API}→group:platform`]: 2,
      [`${API}→group:network`]: 1,
      [`${WORKER}→${API}`]: 1,
      [`${WORKER}→group:platform`]: 1,
    });
    // Every module edge is counted by the one edge drawn for it.
    assert.equal(
      grouped.edges.reduce((sum, e) => sum + e.count, 0),
      dag.edges.length,
    );
    assert.deepEqual(grouped.groups, [
      { name: 'app', modules: 2, collapsed: false },
      { name: 'network', modules: 2, collapsed: true },
      { name: 'platform', modules: 2, collapsed: true },
    ]);
    const column = Object.fromEntries(grouped.nodes.map((n) => [n.id, n.column]));
    assert.deepEqual(column, { 'group:network': 0, 'group:platform': 1, [API]: 2, [WORKER]: 3 });
    // eks was never a node of its own here.
    assert.ok(!grouped.nodes.some((n) => n.id === EKS));
  });

  test('folders fold at any depth; a folded folder spans levels, and what depends on it stays to its right', () => {
    const ids = [
      'live/prod/network/vpc',
      'live/prod/network/dns',
      'live/prod/data/rds',
      'live/prod/app/api',
      'live/stage/network/vpc',
      'live/stage/app/api',
    ];
    const graph: GraphModel = {
      ...dag,
      modules: ids.map((id, i) => ({ ...dag.modules[0]!, id, level: [0, 0, 1, 2, 0, 1][i]! })),
      edges: [
        edge('live/prod/data/rds', 'live/prod/network/vpc'),
        edge('live/prod/app/api', 'live/prod/data/rds'),
        edge('live/prod/app/api', 'live/prod/network/dns'),
        edge('live/stage/app/api', 'live/stage/network/vpc'),
        // stage's api reads prod's dns: stage depends on prod.
        edge('live/stage/app/api', 'live/prod/network/dns'),
      ],
      levels: [],
    };
    const index = new GraphIndex(panelOfModel(graph));
    assert.equal(index.tree.sharedDepth, 1, '`live` is shared by every module');
    assert.deepEqual(index.tree.foldsAt(1), ['live/prod', 'live/stage']);
    // stage's network folder holds one module: it is drawn as that module.
    assert.deepEqual(index.tree.foldsAt(2), ['live/prod/network']);
    const top = buildView(index, { ...DEFAULT_VIEW, groupBy: 'folder', collapsed: index.tree.foldsAt(1) });
    assert.deepEqual(
      top.nodes.map((n) => [n.id, n.label, n.detail, n.column]),
      [
        ['group:live/prod', 'prod', '4 modules', 0],
        ['group:live/stage', 'stage', '2 modules', 1],
      ],
    );
    assert.deepEqual(top.columns, [
      { levels: { first: 0, last: 2 }, inCycle: false, waitsForCycle: false },
      { levels: { first: 0, last: 1 }, inCycle: false, waitsForCycle: false },
    ]);
    assert.deepEqual(
      top.headings.map((heading) => heading.title),
      ['Levels 0–2', 'Levels 0–1'],
    );
    assert.deepEqual(
      top.edges.map((e) => [e.id, e.count]),
      [['group:live/stage→group:live/prod', 1]],
    );
    // One level deeper; modules are told from their namesakes by the fewest folders.
    const deeper = buildView(index, { ...DEFAULT_VIEW, groupBy: 'folder', collapsed: index.tree.foldsAt(2) });
    const labels = Object.fromEntries(deeper.nodes.map((n) => [n.id, `${n.label} · ${n.detail}`]));
    assert.deepEqual(labels, {
      'group:live/prod/network': 'network · 2 modules · prod',
      'live/stage/network/vpc': 'vpc · stage',
      'live/prod/data/rds': 'rds · prod/data',
      'live/prod/app/api': 'api · prod',
      'live/stage/app/api': 'api · stage',
    });
    // Unfolding prod folds its subfolders that hold more than one module.
    assert.deepEqual(index.tree.childFolds('live/prod'), ['live/prod/network']);
  });

  test('modules with no level come after the levels: the cycles, then what waits for them, then a cycle that waits', () => {
    // Cycle a at level 0, b at 2 (on dns and a), c at 2 (on the api, which waits for a); the web waits for c.
    const graph: GraphModel = {
      ...dag,
      modules: [
        module('net/vpc', 0),
        module('net/dns', 1),
        module('a/x', 0, true),
        module('a/y', 0, true),
        module('a/z', 0),
        module('w/api', 1, false, true),
        module('b/x', 2, true),
        module('b/y', 2, true),
        module('c/x', 2, true),
        module('c/y', 2, true),
        module('w/web', 3, false, true),
      ],
      edges: [
        edge('net/dns', 'net/vpc'),
        edge('a/x', 'a/y', true),
        edge('a/y', 'a/x', true),
        edge('w/api', 'a/x'),
        edge('b/x', 'b/y', true),
        edge('b/y', 'b/x', true),
        edge('b/x', 'net/dns'),
        edge('b/y', 'a/x'),
        edge('c/x', 'c/y', true),
        edge('c/y', 'c/x', true),
        edge('c/x', 'w/api'),
        edge('w/web', 'c/y'),
      ],
      levels: [],
      cycles: [],
    };
    const index = new GraphIndex(panelOfModel(graph));
    assert.equal(index.levelCount, 2, 'as `terrace levels` counts: vpc on level 0, dns on level 1');
    const view = buildView(index, DEFAULT_VIEW);
    const columns = view.columns.map((_, column) =>
      view.nodes
        .filter((node) => node.column === column)
        .map((node) => node.id)
        .sort(),
    );
    // b depends on no module that waits: it stands beside a, not after the api (the level the engine files it at).
    assert.deepEqual(columns, [
      ['a/z', 'net/vpc'],
      ['net/dns'],
      ['a/x', 'a/y'],
      ['b/x', 'b/y'],
      ['w/api'],
      ['c/x', 'c/y'],
      ['w/web'],
    ]);
    assert.deepEqual(
      view.headings.map(({ title, first, last }) => [title, first, last]),
      [
        ['Level 0', 0, 0],
        ['Level 1', 1, 1],
        ['In a cycle', 2, 3],
        ['Waits for a cycle', 4, 4],
        ['In a cycle', 5, 5],
        ['Waits for a cycle', 6, 6],
      ],
    );
    assert.deepEqual(
      view.nodes
        .filter((node) => node.levels === null)
        .map((node) => node.id)
        .sort(),
      ['a/x', 'a/y', 'b/x', 'b/y', 'c/x', 'c/y', 'w/api', 'w/web'],
    );
    // Folded: a's folder holds a cycle and a module of level 0; w's, two modules that wait, one on c, one for c.
    const folded = buildView(index, { ...DEFAULT_VIEW, groupBy: 'folder', collapsed: ['a', 'w'] });
    assert.deepEqual(
      folded.headings.map((heading) => heading.title),
      ['Level 0 · in a cycle', 'Level 1', 'In a cycle', 'In or behind a cycle'],
    );
    assert.deepEqual(
      folded.nodes
        .filter((node) => node.column === 3)
        .map((node) => node.id)
        .sort(),
      ['c/x', 'c/y', 'group:w'],
    );
  });

  test('the filter keeps matches only; problems go to the reader', () => {
    const index = new GraphIndex(panelOfModel(dag));
    const filtered = buildView(index, { ...DEFAULT_VIEW, search: 'prod app', filter: true });
    assert.deepEqual(filtered.nodes.map((n) => n.id).sort(), [API, WORKER].sort());
    assert.deepEqual(
      filtered.edges.map((e) => e.id),
      [`${WORKER}→${API}`],
    );
    assert.deepEqual(filtered.nodes.find((n) => n.id === WORKER)!.problems, [{ kind: 'unresolved', from: WORKER }]);
    // The panel's graph counts them; their texts are the server's to give, for a hover card (`panelDetails`).
    const panel = panelOfModel(dag);
    assert.equal(panel.modules.find((m) => m.id === WORKER)!.unresolved, 1);
    assert.equal(panel.modules.find((m) => m.id === API)!.unresolved, undefined);
    assert.ok(!JSON.stringify(panel).includes('no module writes'));
  });
});

describe('columns that wrap', () => {
  /** The tallest part's rows, as `columnWrap.ts` reckons them rightward: a part's nodes and the edges passing it. */
  function tallestRows(column: WrapColumn, sizes: readonly number[]): number {
    const passing = 8 / (NODE_HEIGHT + NODE_SPACING);
    const total = sizes.reduce((sum, size) => sum + size, 0);
    let leftOf = 0;
    return Math.max(
      ...sizes.map((size) => {
        const rows = size + passing * (column.left * (total - leftOf - size) + column.right * leftOf);
        leftOf += size;
        return rows;
      }),
    );
  }

  /** The best split of `count` nodes into `parts`, by trying every one: what the wrapping must reach. */
  function bestSplit(column: WrapColumn, parts: number): number {
    let best = Number.POSITIVE_INFINITY;
    const split = (left: number, sizes: number[]): void => {
      if (sizes.length === parts - 1) best = Math.min(best, tallestRows(column, [...sizes, left]));
      else for (let size = 0; size <= left; size++) split(left - size, [...sizes, size]);
    };
    split(column.count, []);
    return best;
  }

  test('a tall level is shared among columns with its tallest part as short as any split makes it', () => {
    const random = seededRandom(7);
    const panel = { width: 1400, height: 900 };
    for (let trial = 0; trial < 60; trial++) {
      const column: WrapColumn = {
        count: 2 + Math.floor(random() * 60),
        left: Math.floor(random() * 4),
        right: Math.floor(random() * 4),
        fixed: false,
      };
      const { wraps } = arrangeColumns({ columns: [column], nodeWidth: NODE_WIDTH, panel }, 0);
      const sizes = wraps[0]!;
      assert.equal(
        sizes.reduce((sum, size) => sum + size, 0),
        column.count,
      );
      if (sizes.length > 1 && sizes.length <= 4)
        assert.ok(
          tallestRows(column, sizes) <= bestSplit(column, sizes.length) + 1 + 1e-9,
          `${JSON.stringify(column)}: ${sizes} against the best split into ${sizes.length}`,
        );
    }
  });

  test('a level of 11,000 modules wraps into columns of even height', () => {
    const column: WrapColumn = { count: 11_000, left: 0, right: 0, fixed: false };
    const { wraps, zoom } = arrangeColumns(
      { columns: [column], nodeWidth: NODE_WIDTH, panel: { width: 739, height: 747 } },
      0,
    );
    const sizes = wraps[0]!;
    assert.ok(sizes.length > 20, `${sizes.length} columns`);
    assert.equal(
      sizes.reduce((sum, size) => sum + size, 0),
      11_000,
    );
    assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `sizes ${Math.min(...sizes)}–${Math.max(...sizes)}`);
    assert.ok(zoom > 0);
  });
});
