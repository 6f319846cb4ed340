import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { GraphPanel } from '../../../client/src/graphPanel';
import type { RenderedReport } from '../../../client/src/panelReports';
import { timing } from '../realShape/panelTimings';
import { assertShownWhole, runningApi, startupBreakdown, waitFor, workbenchPictures } from '../suite/helpers';

const EKS = 'platform/prod/eu-central-1/eks';

/** Show Graph → drawn on the 14 modules, and where the time went: test-results/vscode/panel-times-example.json. */
function recordTime(
  started: number,
  panel: GraphPanel,
  drawn: RenderedReport,
  startup: Record<string, number | null> | undefined,
): void {
  const dir = process.env.TERRACE_VSCODE_RESULTS_DIR;
  const { created, ready, pageMs, graphSent } = panel.times;
  const time = {
    ...timing(started, drawn),
    toPanelMs: created - started,
    toReadyMs: (ready ?? created) - started,
    pageMs,
    toGraphMs: (graphSent ?? created) - started,
  };
  console.log(`panel time, 14 modules: ${JSON.stringify(time)}`);
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'panel-times-example.json'),
    `${JSON.stringify(
      {
        "14 modules, a fresh window's start-up, ms after the window opened": startup,
        '14 modules, Show Graph in a fresh window': time,
      },
      null,
      2,
    )}\n`,
  );
}

/**
 * The example monorepo in the real VS Code, as a user first sees it: Show Graph beside an editor. The
 * code-server runner takes the workbench's picture when asked (`terrace-screenshot <file>` on the
 * console): the README's pictures, light and dark, come from here.
 */
suite('the example monorepo', () => {
  suiteSetup(async () => {
    await runningApi();
  });

  test('Show Graph beside an editor draws its 14 modules in 5 levels whole; the README’s pictures', async function () {
    // The editor and the panel side by side, the side bars closed: the room a user gives the graph.
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const startup = await startupBreakdown(await runningApi());
    await vscode.window.showTextDocument(vscode.Uri.joinPath(folder, EKS, 'main.tf'), {
      viewColumn: vscode.ViewColumn.One,
    });
    const started = Date.now();
    const panel = await vscode.commands.executeCommand<GraphPanel | undefined>('terrace.showGraph');
    assert.ok(panel);
    const drawn = await panel.reports.waitForRender();
    recordTime(started, panel, drawn, startup);
    await waitFor('the panel beside the editor', () => panel.panel.viewColumn === vscode.ViewColumn.Two, 5000);
    assert.equal(drawn.nodes, 14);
    assert.equal(drawn.levels, 5);
    assert.equal(drawn.layoutIn, 'host', 'laid out by elkjs in the extension host');
    assertShownWhole(drawn);

    if (!(await workbenchPictures('graph-panel.png', 'graph-panel-dark.png'))) this.skip();
  });
});
