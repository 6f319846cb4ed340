import * as assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { LayoutService } from '../../client/src/layoutService';
import { laidOutAheadOnceSent, openingInputs } from '../../client/src/openingViews';
import type { GraphModel, PackedPanelModel } from '../../server/src/protocol';
import { shapeKey } from '../../webview/src/layoutGraph';
import { NODE_HEIGHT } from '../../webview/src/layoutOptions';
import { packGraph } from '../../webview/src/packedGraph';
import { writePlainSubscriptions } from '../realShapes/plainSubscriptions';
import { writeTerragruntLive } from '../realShapes/terragruntLive';
import { repoRoot, WebviewBrowser, type WebviewPage } from './browser';
import { drawnNodes } from './drawnGraph';
import { applications, dag, realGraph, synthetic } from './graphModels';
import { panelOfModel } from './panelOfModel';

const FOLDER = 'file:///repo';
const html = (page: string) => page.replace('data-worker=', 'data-layout="host" data-worker=');

/** What the page's first drawing asked of the host, and whether a layout made ahead answered it. */
interface FirstLayout {
  ahead: boolean;
  /** The page's measure of its nodes' width, and the width the answer drew. */
  measured: number;
  drawn: number;
  modules: number;
  folded: number;
}

/** A new page on `graph`, its layouts answered by `service` as the extension host answers them. */
async function firstLayout(
  browser: WebviewBrowser,
  service: LayoutService,
  graph: GraphModel,
  viewport: { width: number; height: number },
): Promise<{ page: WebviewPage; first: FirstLayout }> {
  const page = await browser.open({ html, viewport });
  const answers: { ahead: boolean; measured: number; drawn: number }[] = [];
  let seen = 0;
  const timer = setInterval(() => {
    for (const message of page.messages.slice(seen)) {
      seen++;
      if (message.type !== 'layout') continue;
      const before = service.answeredAhead;
      void service.layout(message.input).then((layout) => {
        answers.push({
          ahead: service.answeredAhead > before,
          measured: message.input.nodeWidth ?? 0,
          drawn: layout.nodeWidth,
        });
        page.post({ type: 'layout', id: message.id, layout });
      });
    }
  }, 5);
  try {
    const rendered = await page.render({ type: 'graph', graph, folderUri: FOLDER }, 60_000);
    assert.ok(answers[0], 'the page asked for its first view’s layout');
    return { page, first: { ...answers[0], modules: rendered.nodes, folded: rendered.groups } };
  } finally {
    clearInterval(timer);
  }
}

describe('the first panel’s layouts, made ahead by the extension host', () => {
  let browser: WebviewBrowser;
  let root: string;
  const graphs = new Map<string, GraphModel>();

  before(async () => {
    browser = await WebviewBrowser.launch();
    root = mkdtempSync(path.join(os.tmpdir(), 'terrace-opening-'));
    writePlainSubscriptions(path.join(root, 'plain'));
    writeTerragruntLive(path.join(root, 'live'));
    graphs.set('six modules', dag);
    graphs.set('the example monorepo (14 roots)', await realGraph(path.join(repoRoot, 'examples', 'monorepo')));
    graphs.set('50 Azure roots', await realGraph(path.join(root, 'plain')));
    graphs.set('300 Terragrunt units', await realGraph(path.join(root, 'live')));
    // Its first view is 99 nodes folded and boxed, laid out ahead as the view a usual panel opens with.
    graphs.set('a platform of 99 applications', applications());
  });

  after(async () => {
    await browser.close();
    rmSync(root, { recursive: true, force: true });
  });

  for (const viewport of [
    { width: 800, height: 940 },
    { width: 1200, height: 760 },
  ]) {
    test(`a new page's first view is drawn from a layout made before it asked, at ${viewport.width} × ${viewport.height}`, async () => {
      const script = path.join(repoRoot, 'dist', 'layoutThread.js');
      for (const [name, graph] of graphs) {
        const service = new LayoutService(script);
        try {
          service.layoutAhead(openingInputs(panelOfModel(graph)));
          const { page, first } = await firstLayout(browser, service, graph, viewport);
          console.log(`${name}: ${JSON.stringify(first)}`);
          assert.ok(first.ahead, `${name}: the first layout was made ahead (${JSON.stringify(first)})`);
          assert.ok(first.drawn >= first.measured && first.drawn <= first.measured + 40, `${name}: nodes wide enough`);
          // Drawn as any layout is: every node in the drawing, none overlapping another.
          const nodes = await drawnNodes(page);
          assert.equal(nodes.length, first.modules + first.folded);
          for (const [i, a] of nodes.entries())
            for (const b of nodes.slice(i + 1))
              assert.ok(
                Math.abs(a.x - b.x) >= first.drawn || Math.abs(a.y - b.y) >= NODE_HEIGHT,
                `${name}: ${a.id} and ${b.id} do not overlap`,
              );
          assert.deepEqual(page.errors, []);
        } finally {
          service.dispose();
        }
      }
    });
  }
  test('a new page given the layouts made ahead with its graph draws its first view from one, asking nothing', async () => {
    const script = path.join(repoRoot, 'dist', 'layoutThread.js');
    for (const viewport of [
      { width: 800, height: 940 },
      { width: 1200, height: 760 },
    ])
      for (const [name, graph] of graphs) {
        const service = new LayoutService(script);
        try {
          // The views chosen in the layout thread, from the graph as the server packs it.
          const packed = packGraph(panelOfModel(graph));
          assert.equal(service.choseFor(packed), false);
          void service.layoutAheadOf(packed, 'beside');
          assert.equal(service.choseFor(packed), true);
          await service.aheadDone(packed);
          const ahead = service.madeAhead();
          assert.deepEqual(
            ahead.map((made) => made.shape),
            openingInputs(panelOfModel(graph), 'beside').map(shapeKey),
            `${name}: the thread chose the views this thread would, and laid each out`,
          );
          const page = await browser.open({ html, viewport });
          const rendered = await page.render({ type: 'graph', graph, folderUri: FOLDER, ahead }, 60_000);
          const asked = page.messages.filter((message) => message.type === 'layout');
          assert.deepEqual(asked, [], `${name} at ${viewport.width} px: the page asked for no layout`);
          assert.equal(rendered.layoutIn, 'host');
          const nodes = await drawnNodes(page);
          assert.equal(nodes.length, rendered.nodes + rendered.groups);
          assert.ok(nodes.length > 0);
          assert.deepEqual(page.errors, []);
        } finally {
          service.dispose();
        }
      }
  });

  test('a panel that would open alone in the editor area has its wrap laid out first, and its page draws from it', async () => {
    const beside = openingInputs(panelOfModel(applications()), 'beside').map(shapeKey);
    const alone = openingInputs(panelOfModel(applications()), 'alone').map(shapeKey);
    assert.notEqual(beside[0], alone[0], 'the two panels wrap the 99 nodes differently');
    assert.deepEqual([alone[0], alone[1]], [beside[1], beside[0]], 'the likelier panel’s wrap first');
    const graph = applications();
    const service = new LayoutService(path.join(repoRoot, 'dist', 'layoutThread.js'));
    try {
      service.layoutAhead(openingInputs(panelOfModel(graph), 'alone'));
      const { page, first } = await firstLayout(browser, service, graph, { width: 1552, height: 880 });
      assert.ok(first.ahead, `the first layout was made ahead (${JSON.stringify(first)})`);
      assert.deepEqual(page.errors, []);
    } finally {
      service.dispose();
    }
  });

  test('a page of a size neither guess wraps as reports its area, and the next page of that size draws from a layout made ahead for it', async () => {
    const graph = applications();
    const viewport = { width: 1000, height: 660 };
    const service = new LayoutService(path.join(repoRoot, 'dist', 'layoutThread.js'));
    try {
      const guessed = openingInputs(panelOfModel(graph), 'alone').map(shapeKey);
      service.layoutAhead(openingInputs(panelOfModel(graph), 'alone'));
      const before = await firstLayout(browser, service, graph, viewport);
      assert.equal(before.first.ahead, false, 'the guesses do not wrap the view as this page does');
      const ready = await before.page.waitForMessage('ready');
      const area = ready.area;
      assert.ok(
        area && area.width > 800 && area.height > 400,
        `the page reported its drawing area: ${JSON.stringify(area)}`,
      );
      const known = openingInputs(panelOfModel(graph), 'alone', area);
      assert.ok(!guessed.includes(shapeKey(known[0]!)), 'the area reported is laid out first');
      service.layoutAhead(known);
      const after = await firstLayout(browser, service, graph, viewport);
      assert.ok(after.first.ahead, `the next page's first layout was made ahead (${JSON.stringify(after.first)})`);
      assert.deepEqual([...before.page.errors, ...after.page.errors], []);
    } finally {
      service.dispose();
    }
  });

  test('a layout made ahead for other node widths is not drawn: the page asks for its own', async () => {
    const service = new LayoutService(path.join(repoRoot, 'dist', 'layoutThread.js'));
    try {
      const graph = graphs.get('the example monorepo (14 roots)')!;
      service.layoutAhead(openingInputs(panelOfModel(graph)));
      await service.aheadDone();
      // As if the host had guessed the titles 100 px narrower than the page draws them.
      const ahead = service
        .madeAhead()
        .map(({ shape, layout }) => ({ shape, layout: { ...layout, nodeWidth: layout.nodeWidth - 100 } }));
      const page = await browser.open({ html, viewport: { width: 800, height: 940 } });
      page.post({ type: 'graph', graph, folderUri: FOLDER, ahead });
      const asked = await page.waitForMessage('layout', 0, 30_000);
      assert.ok(asked.input.nodes.length > 0, 'the page asked for its first view’s layout');
      assert.deepEqual(page.errors, []);
    } finally {
      service.dispose();
    }
  });

  test('a thread warmed up before a graph comes lays its views out as a cold one does, and only once ready', async () => {
    const script = path.join(repoRoot, 'dist', 'layoutThread.js');
    const input = openingInputs(panelOfModel(graphs.get('the example monorepo (14 roots)')!))[0]!;
    const cold = new LayoutService(script);
    const warmed = new LayoutService(script);
    try {
      // Not started: nothing to warm up, and the warm-up is not asked again once the thread is ready.
      warmed.warmUp();
      assert.deepEqual(await Promise.all([cold.startSoon(), warmed.startSoon()]), [true, true]);
      warmed.warmUp();
      // Its two nodes laid out before the view is asked for, as when the graph is on its way.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const [expected, laid] = await Promise.all([cold.layout(input), warmed.layout(input)]);
      assert.equal(Object.keys(laid.nodes).length, input.nodes.length);
      assert.deepEqual(laid.nodes, expected.nodes);
      assert.deepEqual(laid.edges, expected.edges);
    } finally {
      cold.dispose();
      warmed.dispose();
    }
  });

  test('a thread that fails to start is told of, and a layout asked of it fails with why', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'terrace-broken-thread-'));
    try {
      // A thread script whose load throws, beside the loader the extension ships with it.
      copyFileSync(path.join(repoRoot, 'dist', 'codeCache.js'), path.join(folder, 'codeCache.js'));
      const script = path.join(folder, 'layoutThread.js');
      writeFileSync(script, "throw new Error('elkjs missing from this build');\n");
      const warnings: string[] = [];
      const service = new LayoutService(script, undefined, undefined, (message) => warnings.push(message));
      try {
        assert.equal(await service.startSoon(), false);
        assert.deepEqual(warnings, ["the graph panel's layout thread failed: elkjs missing from this build"]);
        const input = openingInputs(panelOfModel(graphs.get('the example monorepo (14 roots)')!))[0]!;
        await assert.rejects(service.layout(input), /elkjs missing from this build/);
      } finally {
        service.dispose();
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('views the thread cannot choose are said so to the one who asked, and a new page does not wait for them', async () => {
    const service = new LayoutService(path.join(repoRoot, 'dist', 'layoutThread.js'));
    try {
      const broken = { modules: [], edges: [], levels: [] } as unknown as PackedPanelModel;
      await assert.rejects(service.layoutAheadOf(broken, 'beside'), /\w/);
      assert.equal(service.choseFor(broken), true);
      await service.aheadDone(broken);
      assert.deepEqual(service.madeAhead(), []);
      // Asked again, the same choice is not made twice.
      await service.layoutAheadOf(broken, 'beside');
    } finally {
      service.dispose();
    }
  });

  test('a graph of thousands of modules sent to a new page has no views laid out ahead: its page asks for its folded first view', () => {
    assert.equal(laidOutAheadOnceSent(packGraph(panelOfModel(dag))), true);
    assert.equal(laidOutAheadOnceSent(packGraph(panelOfModel(applications()))), true);
    assert.equal(laidOutAheadOnceSent(packGraph(panelOfModel(synthetic(3000)))), false);
  });
});

describe('a graph the host has already, in the new page itself', () => {
  let browser: WebviewBrowser;
  before(async () => {
    browser = await WebviewBrowser.launch();
  });
  after(async () => {
    await browser.close();
  });

  // Names are data in the page's HTML too: none may end its element or start markup.
  const named = (id: string) => `apps/${id}`;
  const hostile = {
    ...dag,
    modules: dag.modules.map((module, i) =>
      i === 0 ? { ...module, id: named('</script><script>document.title="run"</script><!--') } : module,
    ),
    edges: dag.edges.map((edge) => ({
      ...edge,
      from: edge.from === dag.modules[0]!.id ? named('</script><script>document.title="run"</script><!--') : edge.from,
      to: edge.to === dag.modules[0]!.id ? named('</script><script>document.title="run"</script><!--') : edge.to,
    })),
    levels: dag.levels.map((level) =>
      level.map((id) => (id === dag.modules[0]!.id ? named('</script><script>document.title="run"</script><!--') : id)),
    ),
  };

  test('is drawn as the page starts, without a message, its names as written', async () => {
    const page = await browser.open({ graph: hostile });
    const ready = await page.waitForMessage('ready');
    assert.equal(ready.graphInPage, true, 'the page said it drew the graph in its HTML');
    const rendered = await page.waitForMessage('rendered', 0, 30_000);
    assert.equal(rendered.nodes, hostile.modules.length);
    const titles = (await drawnNodes(page)).map((node) => node.id).sort();
    assert.deepEqual(titles, hostile.modules.map((module) => module.id).sort());
    assert.equal(await page.page.title(), 'Terrace Graph', 'nothing in a name ran');
    assert.deepEqual(page.errors, []);
  });

  test('a page loaded again, with its saved state, waits for the graph the host sends', async () => {
    const page = await browser.open({ graph: hostile, state: { folderUri: FOLDER } });
    const ready = await page.waitForMessage('ready');
    assert.equal(ready.graphInPage, false);
    const two = {
      ...dag,
      modules: dag.modules.slice(0, 2),
      edges: [],
      levels: [[dag.modules[0]!.id, dag.modules[1]!.id]],
    };
    const rendered = await page.render({ type: 'graph', graph: two, folderUri: FOLDER });
    assert.equal(page.messages.filter((message) => message.type === 'rendered').length, 1, 'drawn once');
    assert.equal(rendered.nodes, 2);
    assert.deepEqual(page.errors, []);
  });
});
