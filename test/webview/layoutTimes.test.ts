import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { resultsDir, WebviewBrowser } from './browser';
import { synthetic } from './graphModels';

/**
 * How long the panel takes from receiving a graph to having drawn it, in this Chromium: printed and
 * written to test-results/webview/layout-times.json (the median of a few runs, each in a fresh page
 * with a fresh layout worker). The asserts are on what is drawn; the times are for the record.
 */
const RUNS = 3;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

describe('layout times (fresh page, graph message to drawing)', () => {
  let browser: WebviewBrowser;
  const times: Record<
    string,
    {
      medianMs: number;
      runsMs: number[];
      inPanelMs: number[];
      layoutMs: number[];
      nodes: number;
      groups: number;
      edges: number;
      levels: number;
    }
  > = {};
  before(async () => {
    browser = await WebviewBrowser.launch();
  });
  after(async () => {
    await browser?.close();
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(path.join(resultsDir, 'layout-times.json'), `${JSON.stringify(times, null, 2)}\n`);
    for (const [name, time] of Object.entries(times)) {
      console.log(
        `# ${name}: ${time.medianMs} ms (runs ${time.runsMs.join(', ')}; in the panel ${time.inPanelMs.join(', ')}; layout ${time.layoutMs.join(', ')}); ${time.nodes} nodes, ${time.groups} groups, ${time.edges} edges, ${time.levels} levels`,
      );
    }
  });

  for (const [modules, expand, shape] of [
    [200, false, 'stacks'],
    [200, true, 'stacks'],
    [1000, false, 'stacks'],
    [1000, true, 'stacks'],
    [3000, false, 'stacks'],
    [3000, true, 'stacks'],
    [1000, true, 'uniform'],
    [3000, false, 'uniform'],
  ] as const) {
    // Not expanded, a new panel opens these graphs folded by folder (`firstView.ts`): none fits the test page whole.
    const name = `${modules} modules${expand ? ', all expanded' : ', folded'}${shape === 'uniform' ? ', uniform dependencies' : ''}`;
    test(name, async () => {
      const graph = synthetic(modules, shape);
      const runs: number[] = [];
      const inPanel: number[] = [];
      const layout: number[] = [];
      let last: Awaited<ReturnType<Awaited<ReturnType<WebviewBrowser['open']>>['render']>> | undefined;
      for (let run = 0; run < RUNS; run++) {
        // A saved state without groups draws every module at once, as after "Unfold everything".
        const webview = await browser.open(expand ? { state: { view: { groupBy: null } } } : {});
        const started = Date.now();
        last = await webview.render({ type: 'graph', graph, folderUri: 'file:///synthetic' }, 120_000);
        runs.push(Date.now() - started);
        inPanel.push(last.ms);
        layout.push(last.layoutMs);
        assert.deepEqual(webview.errors, []);
        await webview.page.close();
      }
      assert.ok(last);
      if (expand) assert.equal(last.nodes, modules);
      else assert.ok(last.groups > 0 && last.nodes < modules, `${last.groups} folded nodes, ${last.nodes} modules`);
      // The drawing's time is counted from the message: its steps, the graph's unpacking and index first, make it up.
      const { graphMs, viewMs, layoutWaitMs, drawMs, frameMs } = last.steps;
      assert.ok(
        graphMs >= 0 && Math.abs(graphMs + viewMs + layoutWaitMs + drawMs + frameMs - last.ms) <= 3,
        JSON.stringify(last),
      );
      if (modules >= 3000) assert.ok(graphMs >= 1, `a graph of ${modules} modules unpacked in ${graphMs} ms`);
      times[name] = {
        medianMs: median(runs),
        runsMs: runs,
        inPanelMs: inPanel,
        layoutMs: layout,
        nodes: last.nodes,
        groups: last.groups,
        edges: last.edges,
        levels: last.levels,
      };
    });
  }
});
