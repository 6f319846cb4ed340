import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { GraphPanel } from '../../../client/src/graphPanel';
import { runningApi, waitFor } from '../suite/helpers';

const EKS = 'platform/prod/eu-central-1/eks';

/**
 * The example monorepo in the real VS Code, as a user first sees it: Show Graph beside an editor. The
 * code-server runner takes the workbench's picture when asked (`terrace-screenshot <file>` on the
 * console): the README's pictures, light and dark, come from here.
 */
suite('the example monorepo', () => {
  suiteSetup(async () => {
    await runningApi();
  });

  test('Show Graph beside an editor draws its 14 modules in 5 levels, titles at least 11 px; the README’s pictures', async function () {
    // The editor and the panel side by side, the side bars closed: the room a user gives the graph.
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    await vscode.window.showTextDocument(vscode.Uri.joinPath(folder, EKS, 'main.tf'), {
      viewColumn: vscode.ViewColumn.One,
    });
    const panel = await vscode.commands.executeCommand<GraphPanel | undefined>('terrace.showGraph');
    assert.ok(panel);
    const drawn = await panel.waitForRender();
    await waitFor('the panel beside the editor', () => panel.panel.viewColumn === vscode.ViewColumn.Two, 5000);
    assert.equal(drawn.nodes, 14);
    assert.equal(drawn.levels, 5);
    assert.equal(drawn.worker, true, 'laid out by elkjs in the layout worker');
    assert.ok(drawn.titlePx >= 11, `titles ${drawn.titlePx.toFixed(1)} px high`);

    const pictures = process.env.TERRACE_VSCODE_SCREENSHOT_DIR;
    if (!pictures) {
      console.log('no pictures: this runner cannot take the workbench’s (only the code-server runner can)');
      this.skip();
    }
    const themes = vscode.workspace.getConfiguration('workbench');
    const before = themes.inspect<string>('colorTheme')?.globalValue;
    try {
      for (const [theme, file] of [
        ['Default Light Modern', 'graph-panel.png'],
        ['Default Dark Modern', 'graph-panel-dark.png'],
      ] as const) {
        await themes.update('colorTheme', theme, vscode.ConfigurationTarget.Global);
        // The webview restyles itself from the theme's variables: give it a moment to repaint.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        const target = path.join(pictures, file);
        console.log(`terrace-screenshot ${target}`);
        await waitFor(`the picture ${file}`, () => existsSync(target), 15_000);
        const bytes = readFileSync(target);
        assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG');
        assert.equal(bytes.readUInt32BE(16), 1600, 'the whole workbench, 1600 px wide');
      }
    } finally {
      await themes.update('colorTheme', before, vscode.ConfigurationTarget.Global);
    }
  });
});
