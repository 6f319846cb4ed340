import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { runningApi, terraceExtension, waitFor } from './helpers';

/** `State.Running` of vscode-languageclient. */
const CLIENT_STATE_RUNNING = 2;

suite('commands', () => {
  suiteSetup(async () => {
    await runningApi();
  });

  test('every contributed command is registered', async () => {
    const contributed: string[] = terraceExtension().packageJSON.contributes.commands.map(
      (command: { command: string }) => command.command,
    );
    for (const id of ['terrace.showGraph', 'terrace.generatePipeline', 'terrace.runPlans', 'terrace.showLevels']) {
      assert.ok(contributed.includes(id), `${id} is contributed in package.json`);
    }
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], 'contributed commands without a handler');
  });

  test('terrace.showGraph opens the graph panel beside the editor', async () => {
    const panel = await vscode.commands.executeCommand<{ panel: vscode.WebviewPanel } | undefined>('terrace.showGraph');
    assert.ok(panel, 'the command returns the panel');
    assert.equal(panel.panel.viewType, 'terrace.graph');
    assert.equal(panel.panel.title, 'Terrace Graph');
    // The tab model reaches the extension host after the command has returned: wait for it.
    const isGraphTab = (tab: vscode.Tab) =>
      tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('terrace.graph');
    const tabs = () => vscode.window.tabGroups.all.flatMap((group) => group.tabs);
    await waitFor('a webview tab of the graph panel', () => tabs().some(isGraphTab), 5000).catch(() => {
      const open = tabs().map((tab) => `${tab.label} (${tab.input?.constructor.name})`);
      assert.fail(`no webview tab of the graph panel; open tabs: ${open.join(', ') || 'none'}`);
    });
    panel.panel.dispose();
  });

  test('terrace.restartServer restarts the language server and reports it running', async () => {
    const api = await runningApi();
    const result = await vscode.commands.executeCommand('terrace.restartServer');
    assert.equal(result, CLIENT_STATE_RUNNING);
    assert.equal(api.clientState(), 'running');
    assert.equal(api.client.initializeResult?.serverInfo?.name, 'terrace');
  });

  test('terrace.showOutput shows the Terrace output channel', async () => {
    await vscode.commands.executeCommand('terrace.showOutput');
    const channel = await waitFor('the Terrace output channel document', () =>
      vscode.workspace.textDocuments.find((doc) => doc.uri.scheme === 'output' && doc.uri.path.includes('Terrace')),
    );
    assert.match(channel.uri.path, /Terrace/);
  });

  test('terrace.showLevels lists the modules by level; accepting one opens it at its backend block', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const picked = vscode.commands.executeCommand<string | undefined>('terrace.showLevels');
    // The first item under "Level 0" is the only level-0 module of the fixture: the vpc.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    assert.equal(await picked, 'network/prod/eu-west-1/vpc');
    const editor = await waitFor('the module to open', () => vscode.window.activeTextEditor);
    assert.match(editor.document.uri.path, /network\/prod\/eu-west-1\/vpc\/main\.tf$/);
    assert.equal(editor.selection.active.line, 2, 'the backend "s3" line');
  });
});
