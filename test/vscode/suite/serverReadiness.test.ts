import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ServerUnavailable } from '../../../client/src/serverReadiness';
import { runningApi } from './helpers';

/** `State.Running` of vscode-languageclient. */
const CLIENT_STATE_RUNNING = 2;

suite('commands while the language server is down', () => {
  suiteTeardown(async () => {
    // The suites after this one need the server.
    const api = await runningApi().catch(() => undefined);
    if (!api) await vscode.commands.executeCommand('terrace.restartServer');
  });

  test('stopped: a server command says so at once and runs nothing; Stop Run and Restart Server still work', async () => {
    const api = await runningApi();
    await api.client.stop();
    assert.equal(api.clientState(), 'stopped');
    const started = Date.now();
    const result = await vscode.commands.executeCommand<ServerUnavailable>('terrace.showLevels');
    assert.deepEqual(result, { serverUnavailable: 'stopped' });
    assert.ok(Date.now() - started < 5000, 'no waiting for a stopped server');
    assert.equal(await vscode.commands.executeCommand('terrace.stopRun'), false, 'no run to stop');
    assert.equal(await vscode.commands.executeCommand('terrace.restartServer'), CLIENT_STATE_RUNNING);
    assert.equal(api.clientState(), 'running');
  });

  test('starting: a server command waits for the server, then runs', async () => {
    const api = await runningApi();
    await api.client.stop();
    const starting = api.client.start();
    assert.equal(api.clientState(), 'starting');
    const panel = await vscode.commands.executeCommand<{ panel: vscode.WebviewPanel } | undefined>('terrace.showGraph');
    // Checked before anything else awaits: the command resolved only once the server ran.
    assert.equal(api.clientState(), 'running', 'the command waited for the server');
    await starting;
    assert.ok(panel && 'panel' in panel, 'the command ran and returned the graph panel');
    assert.equal(panel.panel.viewType, 'terrace.graph');
    panel.panel.dispose();
  });
});
