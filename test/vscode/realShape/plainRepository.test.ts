import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { assertShownWhole, runningApi, startupBreakdown, waitFor } from '../suite/helpers';
import { median, showGraph, type Timing } from './panelTimings';

/** Where the timings go (test-results/vscode), as the runner names it. */
const resultsDir = process.env.TERRACE_VSCODE_RESULTS_DIR;
/** The roots test/realShapes/plainSubscriptions.ts writes, and the remote-state reads between them. */
const ROOTS = 50;
const READS = 69;

/**
 * A plain Terraform monorepo of real shape (test/realShapes: 50 roots on Azure, a dozen sharing
 * each name across subscriptions and environments), as a user opens it: the window's start-up to
 * the server's first diagnostics, Show Graph in that fresh window, the panel reopened. The timings
 * go to test-results/vscode/panel-times-plain.json.
 */
suite(`a plain monorepo of ${ROOTS} root modules`, () => {
  const times: Record<string, unknown> = {};

  suiteSetup(async function () {
    this.timeout(120_000);
    const api = await runningApi();
    const startup = await startupBreakdown(api);
    if (startup) times[`${ROOTS} roots, a fresh window's start-up, ms after the window opened`] = startup;
  });

  suiteTeardown(() => {
    if (!resultsDir) return;
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(path.join(resultsDir, 'panel-times-plain.json'), `${JSON.stringify(times, null, 2)}\n`);
    console.log(`panel times: ${JSON.stringify(times)}`);
  });

  test('Show Graph draws every root whole; reopened, drawn again', async function () {
    this.timeout(120_000);
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    const [file] = await vscode.workspace.findFiles('subscriptions/sub-a/prod/clusters/*.tf', undefined, 1);
    assert.ok(file, 'the clusters root of sub-a/prod');
    await vscode.window.showTextDocument(file, { viewColumn: vscode.ViewColumn.One });

    const first = await showGraph();
    await waitFor('the panel beside the editor', () => first.panel.panel.viewColumn === vscode.ViewColumn.Two, 5000);
    const drawn = first.panel.reports.renders.at(-1)!;
    assert.equal(drawn.nodes, ROOTS, 'every root drawn, none folded');
    assert.equal(drawn.groups, 0);
    assert.equal(first.panel.currentGraph?.edges.length, READS);
    assertShownWhole(drawn);
    times[`${ROOTS} roots, Show Graph in a fresh window`] = first.timing;

    const reopened: Timing[] = [];
    for (let run = 0; run < 3; run++) {
      first.panel.dispose();
      const again = await showGraph();
      assert.equal(again.panel.reports.renders.at(-1)!.nodes, ROOTS);
      reopened.push(again.timing);
      first.panel = again.panel;
    }
    times[`${ROOTS} roots, the panel reopened on an unchanged graph`] = {
      medianMs: median(reopened.map((t) => t.ms)),
      runs: reopened,
    };
    first.panel.dispose();
  });
});
