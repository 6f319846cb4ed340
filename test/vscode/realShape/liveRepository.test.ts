import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { GraphRequest } from '../../../server/src/protocol';
import { assertShownWhole, runningApi, startupBreakdown, waitFor, workbenchPictures } from '../suite/helpers';
import { median, showGraph, type Timing, timing } from './panelTimings';

/** Where the timings go (test-results/vscode), as the runner names it. */
const resultsDir = process.env.TERRACE_VSCODE_RESULTS_DIR;
/** How many units the runner generated (`test/realShapes/write.ts --units`). */
const UNITS = Number(process.env.TERRACE_REAL_SHAPE_UNITS ?? 300);

/**
 * A Terragrunt live repository of 300 units in six areas, about 1,000 dependencies (or of 3,000 units,
 * about 10,000), as a user opens it: Show Graph in a fresh window beside an editor, the panel
 * reopened, an edit that removes one dependency. The timings go to
 * test-results/vscode/panel-times-<units>.json; the pictures of 300 units, light and dark, to the
 * README's media when the runner can take them.
 */
suite(`a Terragrunt live repository of ${UNITS} units`, () => {
  const times: Record<string, unknown> = {};

  suiteSetup(async function () {
    // 3,000 units take the server longer to read than the suite's default 30 s.
    this.timeout(180_000);
    // Timed from a graph the server has: its first analysis of the folder is not the panel's time.
    const api = await runningApi();
    // Where the window's start-up went, up to the server's first published diagnostics.
    const startup = await startupBreakdown(api);
    if (startup) times[`${UNITS} units, a fresh window's start-up, ms after the window opened`] = startup;
    const folderUri = vscode.workspace.workspaceFolders![0]!.uri.toString();
    // By method name: the installed extension's client has its own copy of the protocol's classes.
    await api.client.sendRequest(GraphRequest.method, { folderUri });
  });

  suiteTeardown(() => {
    if (!resultsDir) return;
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(path.join(resultsDir, `panel-times-${UNITS}.json`), `${JSON.stringify(times, null, 2)}\n`);
    console.log(`panel times: ${JSON.stringify(times)}`);
  });

  test('Show Graph opens it folded, whole and readable; reopened and after an edit, drawn again', async function () {
    this.timeout(240_000);
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    // A unit that depends on others: the edit below removes one of its dependencies.
    const units = await vscode.workspace.findFiles('live/prod/us-east-1/**/terragrunt.hcl', undefined, 50);
    const texts = await Promise.all(units.map((uri) => vscode.workspace.fs.readFile(uri)));
    const editorFile = units[texts.findIndex((bytes) => Buffer.from(bytes).toString('utf8').includes('dependency "'))];
    assert.ok(editorFile, `a unit of ${folder.fsPath} with dependencies`);
    await vscode.window.showTextDocument(editorFile, { viewColumn: vscode.ViewColumn.One });

    const first = await showGraph();
    await waitFor('the panel beside the editor', () => first.panel.panel.viewColumn === vscode.ViewColumn.Two, 5000);
    const drawn = first.panel.reports.renders.at(-1)!;
    assert.ok(drawn.groups > 0, `a graph of ${UNITS} units too big for the panel opens folded`);
    // Folded to its three environments, whole, at about the editor's smallest text (a shallower fold there is not).
    assertShownWhole(drawn);
    assert.ok(drawn.titlePx >= 10.5, `titles ${drawn.titlePx.toFixed(2)} px high`);
    assert.equal(drawn.layoutIn, 'host');
    times[`${UNITS} units, Show Graph in a fresh window`] = first.timing;

    // The README's pictures of the live repository as it opens, light and dark, where the runner takes them.
    if (UNITS === 300) await workbenchPictures('graph-panel-live.png', 'graph-panel-live-dark.png');

    const reopened: Timing[] = [];
    for (let run = 0; run < 3; run++) {
      first.panel.dispose();
      const again = await showGraph();
      reopened.push(again.timing);
      first.panel = again.panel;
    }
    times[`${UNITS} units, the panel reopened on an unchanged graph`] = {
      medianMs: median(reopened.map((t) => t.ms)),
      runs: reopened,
    };
    // Reopened, no layout is made again: the page draws one that came with its graph (made ahead of the first
    // page), or asks and is answered with one the host kept.
    assert.ok(
      reopened.every((t) => t.layoutIn === 'host' && (t.hostLayoutMs === undefined || t.layoutMs === 0)),
      `reopened, no layout made again: ${JSON.stringify(reopened)}`,
    );
    assert.ok(
      reopened.every((t) => t.graphInPage),
      'reopened, the graph kept in the host comes in the page',
    );

    // An edit that removes one dependency of a unit: the panel redraws the new graph.
    const panel = first.panel;
    const document = await vscode.workspace.openTextDocument(editorFile);
    // The whole block, with its `mock_outputs = { … }`: the file stays valid HCL and loses one edge.
    const block = /dependency "[^"]+" \{(?:[^{}]|\{[^{}]*\})*\}\n/.exec(document.getText());
    assert.ok(block, `${editorFile.fsPath} has a dependency block`);
    const version = panel.currentGraph?.version ?? 0;
    const edges = panel.currentGraph?.edges.length ?? 0;
    const edit = new vscode.WorkspaceEdit();
    const start = document.positionAt(block.index);
    edit.delete(editorFile, new vscode.Range(start, document.positionAt(block.index + block[0].length)));
    const original = document.getText();
    const started = Date.now();
    assert.ok(await vscode.workspace.applyEdit(edit));
    const redrawn = await panel.reports.waitForRender((report) => report.version > version, 30_000);
    times[`${UNITS} units, an edit that removes one dependency, redrawn`] = timing(started, redrawn);
    assert.equal(panel.currentGraph?.edges.length, edges - 1, 'the edit removed one edge');
    // The file as it was, saved: nothing of the edit stays behind.
    const restore = new vscode.WorkspaceEdit();
    restore.replace(
      editorFile,
      new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)),
      original,
    );
    assert.ok(await vscode.workspace.applyEdit(restore));
    // Back at its saved text, the document may no longer be dirty: then there is nothing to save.
    if (document.isDirty) assert.ok(await document.save());
    assert.equal(Buffer.from(await vscode.workspace.fs.readFile(editorFile)).toString('utf8'), original);
  });
});
