import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadWorkspace } from '../../server/src/engine/analysis';
import { loadAnalysisOptions } from '../../server/src/engine/config';
import { type GraphJson, graphJson } from '../../server/src/engine/features';
import { toGraphModel } from '../../server/src/languageServer/graphModel';
import type { GraphModel } from '../../server/src/protocol';
import { writeCorpusEdges } from '../realShapes/corpusEdges';
import { repoRoot, WebviewBrowser, type WebviewPage } from './browser';
import { drawnNodes, type HeadingNodes, nodesByHeading } from './drawnGraph';
import { cycle, edge, module } from './graphModels';
import { themes } from './themes';

/**
 * Cycles in the panel: a module in a cycle, and one that waits for one, has no level (README: levels),
 * so it stands under no level's heading but under "In a cycle" or "Waits for a cycle", after the
 * levels; the status line counts levels as `terrace levels` does.
 */

const FOLDER = 'file:///repo';

/** A folder's graph as the language server sends it to the panel, and as `terrace graph --format json` prints it. */
async function analysed(folder: string): Promise<{ graph: GraphModel; cli: GraphJson }> {
  const analysis = await loadWorkspace(folder, await loadAnalysisOptions(folder));
  return {
    graph: toGraphModel(analysis.result(), 1),
    cli: graphJson(analysis.result(), analysis.contracts()),
  };
}

/** The headings and the modules under each that `terrace levels` implies: each level, then the cycles', then those that wait. */
function cliHeadings(cli: GraphJson): HeadingNodes[] {
  const headings = cli.levels.map((ids, level) => ({ heading: `Level ${level}`, nodes: [...ids].sort() }));
  if (cli.cycleModules.length > 0) headings.push({ heading: 'In a cycle', nodes: cli.cycleModules.flat().sort() });
  if (cli.waitingForCycles.length > 0)
    headings.push({ heading: 'Waits for a cycle', nodes: [...cli.waitingForCycles].sort() });
  return headings;
}

/** What the status line says of a graph with cycles, counted as the CLI counts. */
function cliStatus(cli: GraphJson): string {
  const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
  const levelless = cli.cycleModules.flat().length + cli.waitingForCycles.length;
  return [
    count(cli.modules.length, 'module'),
    count(cli.edges.length, 'dependency', 'dependencies'),
    count(cli.levels.length, 'level'),
    count(cli.cycleModules.length, 'cycle'),
    `${count(levelless, 'module')} with no level`,
  ].join(' · ');
}

/** No edge runs from left to right: a reader stands right of what it reads, or in its column (a cycle's arc). */
async function assertEdgesLeftward(webview: WebviewPage, graph: GraphModel): Promise<void> {
  const x = new Map((await drawnNodes(webview)).map((node) => [node.id, node.x]));
  for (const e of graph.edges)
    assert.ok(
      x.get(e.from)! >= x.get(e.to)!,
      `${e.from} (reader) is not left of ${e.to}: ${x.get(e.from)} < ${x.get(e.to)}`,
    );
}

function node(webview: WebviewPage, id: string) {
  return webview.page.locator(`svg.graph g.node[data-id="${id}"]`);
}

describe('cycles in the graph webview (the built panel in headless chromium)', () => {
  let browser: WebviewBrowser;
  let scratch: string;
  before(async () => {
    browser = await WebviewBrowser.launch();
    scratch = mkdtempSync(path.join(os.tmpdir(), 'terrace-cycles-'));
  });
  after(async () => {
    await browser?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  test('7 cycles (the Azure repository of issue 44): 1 level of 23 modules, then 17 in a cycle and 10 waiting, under headings of their own', async () => {
    const folder = path.join(scratch, 'radix');
    writeCorpusEdges(folder, 'equinor+radix-platform');
    const { graph, cli } = await analysed(folder);
    assert.deepEqual(
      [cli.levels.length, cli.levels.flat().length, cli.cycleModules.length, cli.cycleModules.flat().length],
      [1, 23, 7, 17],
    );
    assert.equal(cli.waitingForCycles.length, 10);
    for (const [name, theme] of [
      ['dark', themes.dark],
      ['light', themes.light],
      ['highContrast', themes.highContrast],
    ] as const) {
      const webview = await browser.open({ theme });
      const rendered = await webview.render({ type: 'graph', graph, folderUri: FOLDER });
      assert.equal(rendered.nodes, 50, 'every module drawn, none folded');
      assert.equal(
        await webview.page.locator('.status-text').textContent(),
        '50 modules · 71 dependencies · 1 level · 7 cycles · 27 modules with no level',
      );
      assert.equal(await webview.page.locator('.status-text').textContent(), cliStatus(cli));
      const byHeading = await nodesByHeading(webview);
      assert.deepEqual(
        byHeading.map((entry) => entry.heading),
        ['Level 0', 'In a cycle', 'Waits for a cycle'],
      );
      assert.deepEqual(byHeading, cliHeadings(cli));
      await assertEdgesLeftward(webview, graph);
      // The cycles' edges in the error colour, the others not.
      const setOf = new Map(cli.cycleModules.flatMap((members, set) => members.map((id) => [id, set])));
      const cycleEdges = cli.edges.filter((e) => setOf.has(e.from) && setOf.get(e.from) === setOf.get(e.to)).length;
      assert.equal(cycleEdges, 21, 'the edges within each cycle’s modules, 2 of them a module reading its own state');
      assert.equal(await webview.page.locator('svg.graph path.edge.cycle').count(), cycleEdges);
      const colours = await webview.page.evaluate(() => ({
        edge: getComputedStyle(document.querySelector('svg.graph path.edge.cycle')!).stroke,
        heading: getComputedStyle(document.querySelector('.column-heading.no-level.cycle')!).color,
        band: getComputedStyle(document.querySelector('svg.graph rect.band.no-level.cycle')!).fill,
      }));
      const error = { dark: 'rgb(241, 76, 76)', light: 'rgb(229, 20, 0)', highContrast: 'rgb(244, 135, 113)' }[name];
      assert.deepEqual(colours, { edge: error, heading: error, band: error }, 'the theme’s error colour');
      // What a module in a cycle, and one waiting, say of their level: none.
      const member = 'subscriptions/s941/dev/common';
      const waiting = 'subscriptions/s941/dev/key-vault';
      assert.equal(await node(webview, member).getAttribute('data-level'), null);
      assert.match(
        (await node(webview, member).getAttribute('aria-label')) ?? '',
        /, no level, .*in a dependency cycle/,
      );
      assert.match((await node(webview, waiting).getAttribute('aria-label')) ?? '', /, no level, .*waits for a cycle/);
      await node(webview, waiting).hover();
      assert.equal(await webview.page.locator('.tooltip .tooltip-meta').textContent(), 'Waits for a cycle, no level');
      await webview.page.mouse.move(5, 700);
      await webview.screenshot(`cycles-no-level-${name}`);
      assert.deepEqual(webview.errors, []);
    }
  });

  test('folded by folder, a folded node holding modules with no level says so in its column’s heading', async () => {
    const folder = path.join(scratch, 'radix-folded');
    writeCorpusEdges(folder, 'equinor+radix-platform');
    const { graph } = await analysed(folder);
    const folds = ['infrastructure/s940', 'infrastructure/s941', 'subscriptions/s940/prod', 'subscriptions/s941/dev'];
    const webview = await browser.open({ state: { view: { groupBy: 'folder', collapsed: folds } } });
    await webview.render({ type: 'graph', graph, folderUri: FOLDER });
    const byHeading = await nodesByHeading(webview);
    assert.deepEqual(byHeading, [
      {
        heading: 'Level 0',
        nodes: [
          'group:infrastructure/s940',
          'group:infrastructure/s941',
          'subscriptions/s940/globals',
          'subscriptions/s941/globals',
          'tenant/entra',
        ],
      },
      {
        // prod's and dev's folders hold modules in a cycle and modules that wait for one.
        heading: 'In or behind a cycle',
        nodes: [
          'group:subscriptions/s940/prod',
          'subscriptions/s940/c2/clusters',
          'subscriptions/s940/c2/common',
          'subscriptions/s940/c2/virtualnetwork',
          'subscriptions/s940/extmon/clusters',
          'subscriptions/s940/extmon/common',
          'subscriptions/s940/extmon/virtualnetwork',
          'subscriptions/s941/playground/clusters',
          'subscriptions/s941/playground/common',
          'subscriptions/s941/playground/virtualnetwork',
          'group:subscriptions/s941/dev',
        ].sort(),
      },
      {
        heading: 'Waits for a cycle',
        nodes: [
          'subscriptions/s940/c2/key-vault',
          'subscriptions/s940/c2/networkmanager',
          'subscriptions/s941/playground/key-vault',
          'subscriptions/s941/playground/networkmanager',
          'subscriptions/s941/playground/vulnerability-scanner',
        ],
      },
    ]);
    assert.equal(
      await webview.page.locator('.status-text').textContent(),
      '50 modules · 71 dependencies · 1 level · 7 cycles · 27 modules with no level',
    );
    await webview.screenshot('cycles-no-level-folded');
    assert.deepEqual(webview.errors, []);
  });

  test('the fixtures with cycles: each module under the heading `terrace levels` implies, and the levels counted as it counts them', async () => {
    const fixtures = [
      path.join(repoRoot, 'examples', 'cycle'),
      ...['cycle-elsewhere', 'cycle-off-path', 'cycle-self-read', 'cycle-three-modules'].map((name) =>
        path.join(repoRoot, 'test', 'fixtures', name),
      ),
    ];
    const webview = await browser.open();
    for (const folder of fixtures) {
      const { graph, cli } = await analysed(folder);
      await webview.render({ type: 'graph', graph: { ...graph, root: folder }, folderUri: FOLDER });
      const name = path.basename(folder);
      assert.deepEqual(await nodesByHeading(webview), cliHeadings(cli), name);
      assert.equal(await webview.page.locator('.status-text').textContent(), cliStatus(cli), name);
      await assertEdgesLeftward(webview, graph);
    }
    assert.deepEqual(
      await nodesByHeading(webview),
      [
        { heading: 'Level 0', nodes: ['shared/iam'] },
        { heading: 'In a cycle', nodes: ['network/vpc', 'platform/eks', 'security/firewall'] },
        { heading: 'Waits for a cycle', nodes: ['app/api'] },
      ],
      'cycle-three-modules, drawn last',
    );
    assert.deepEqual(webview.errors, []);
  });

  test('a cycle: its nodes and edges in the error colour, a banner listing it, a click selects it', async () => {
    for (const [name, theme] of [
      ['dark', themes.dark],
      ['light', themes.light],
    ] as const) {
      const webview = await browser.open({ theme });
      const rendered = await webview.render({ type: 'graph', graph: cycle, folderUri: FOLDER });
      assert.equal(rendered.nodes, 4);
      assert.equal(rendered.levels, 2, 'two columns: the cycle’s, and the api’s that waits for it');
      assert.deepEqual(await nodesByHeading(webview), [
        { heading: 'In a cycle', nodes: ['network/vpc', 'platform/eks', 'security/firewall'] },
        { heading: 'Waits for a cycle', nodes: ['app/api'] },
      ]);
      assert.equal(
        await webview.page.locator('.status-text').textContent(),
        '4 modules · 4 dependencies · 0 levels · 1 cycle · 4 modules with no level',
      );
      const nodes = await drawnNodes(webview);
      assert.deepEqual(
        nodes
          .filter((n) => n.classes.includes('cycle'))
          .map((n) => n.id)
          .sort(),
        ['network/vpc', 'platform/eks', 'security/firewall'],
      );

      const edges = await webview.page.locator('svg.graph path.edge').evaluateAll((paths) =>
        paths.map((p) => ({
          from: p.getAttribute('data-from'),
          to: p.getAttribute('data-to'),
          cycle: p.classList.contains('cycle'),
          marker: p.getAttribute('marker-end'),
        })),
      );
      assert.equal(edges.length, 4);
      for (const e of edges) {
        const expected = e.from !== 'app/api';
        assert.equal(e.cycle, expected, `${e.from} → ${e.to} ${expected ? 'has' : 'has not'} the cycle class`);
        assert.equal(e.marker, expected ? 'url(#arrow-cycle)' : 'url(#arrow-plain)');
      }
      // The cycle's colour is the theme's error colour.
      const stroke = await webview.page
        .locator('svg.graph path.edge.cycle')
        .first()
        .evaluate((p) => getComputedStyle(p).stroke);
      assert.equal(stroke, name === 'dark' ? 'rgb(241, 76, 76)' : 'rgb(229, 20, 0)');

      const banner = webview.page.locator('.banner.cycles');
      assert.equal(await banner.isVisible(), true);
      assert.equal(
        await banner.locator('.banner-title').textContent(),
        '1 dependency cycle: nothing in a cycle can be planned or applied until it is broken.',
      );
      // One line until asked: the list unfolds from its toggle.
      assert.equal(await banner.locator('.cycle-list').isHidden(), true);
      assert.ok((await banner.boundingBox())!.height <= 32, 'the folded banner is one line high');
      await banner.locator('.banner-toggle').click();
      assert.equal(await banner.locator('.banner-toggle').getAttribute('aria-expanded'), 'true');
      assert.deepEqual(await banner.locator('.cycle-entry').allTextContents(), [
        'network/vpc → security/firewall → platform/eks → network/vpc',
      ]);
      await banner.locator('.cycle-entry').click();
      const selected = (await drawnNodes(webview)).filter((n) => n.classes.includes('selected')).map((n) => n.id);
      assert.deepEqual(selected.sort(), ['network/vpc', 'platform/eks', 'security/firewall']);
      await webview.page.mouse.move(5, 700);
      await webview.screenshot(`cycle-${name}`);
      assert.deepEqual(webview.errors, []);
    }
  });

  test('a cycle’s entry in the banner selects its whole strongly connected set, not only its path', async () => {
    const { graph } = await analysed(path.join(repoRoot, 'test', 'fixtures', 'cycle-off-path'));
    const webview = await browser.open();
    await webview.render({ type: 'graph', graph, folderUri: FOLDER });
    const banner = webview.page.locator('.banner.cycles');
    await banner.locator('.banner-toggle').click();
    assert.deepEqual(await banner.locator('.cycle-entry').allTextContents(), ['a → c → a']);
    await banner.locator('.cycle-entry').click();
    const selected = (await drawnNodes(webview)).filter((n) => n.classes.includes('selected')).map((n) => n.id);
    assert.deepEqual(selected.sort(), ['a', 'b', 'c']);
    assert.deepEqual(webview.errors, []);
  });

  test('downward, a cycle’s arcs run above its row, and what waits for it goes in rows below, under one heading', async () => {
    const graph: GraphModel = {
      root: '/repo',
      version: 1,
      modules: [
        module('net/a', 0, true),
        module('net/b', 0, true),
        module('app/c', 1, false, true),
        module('app/d', 2, false, true),
        module('app/e', 3, false, true),
      ],
      edges: [
        edge('net/a', 'net/b', true),
        edge('net/b', 'net/a', true),
        edge('app/c', 'net/a'),
        edge('app/d', 'app/c'),
        edge('app/e', 'app/d'),
      ],
      levels: [['net/a', 'net/b'], ['app/c'], ['app/d'], ['app/e']],
      cycles: [['net/a', 'net/b', 'net/a']],
      unresolved: [],
      ambiguous: [],
    };
    const webview = await browser.open({ viewport: { width: 500, height: 900 } });
    await webview.render({ type: 'graph', graph, folderUri: FOLDER });
    assert.ok(await webview.page.locator('.column-headings.down').count(), 'laid out downward');
    assert.deepEqual(await nodesByHeading(webview), [
      { heading: 'In a cycle', nodes: ['net/a', 'net/b'] },
      { heading: 'Waits for a cycle', nodes: ['app/c', 'app/d', 'app/e'] },
    ]);
    const nodes = await drawnNodes(webview);
    const y = (id: string) => nodes.find((n) => n.id === id)!.y;
    assert.equal(y('net/a'), y('net/b'), 'the cycle’s modules share a row');
    assert.ok(
      y('app/c') > y('net/a') && y('app/d') > y('app/c') && y('app/e') > y('app/d'),
      'each below what it reads',
    );
    // Each arc leaves its reader's top and bulges above the row.
    const arcs = await webview.page.locator('svg.graph path.edge.cycle').evaluateAll((paths) =>
      paths.map((path) => {
        const box = (path as SVGPathElement).getBBox();
        return { top: box.y, bottom: box.y + box.height };
      }),
    );
    assert.equal(arcs.length, 2);
    for (const arc of arcs)
      assert.ok(arc.top < y('net/a') && arc.bottom <= y('net/a') + 1, `an arc above the row: ${JSON.stringify(arc)}`);
    await webview.screenshot('cycle-downward');
    assert.deepEqual(webview.errors, []);
  });
});
