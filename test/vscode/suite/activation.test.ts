import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { runningApi, terraceExtension, waitFor } from './helpers';

suite('activation', () => {
  test('runs in a real VS Code with the fixture monorepo open', async () => {
    console.log(`VS Code ${vscode.version} (${vscode.env.appName}, ui kind ${vscode.UIKind[vscode.env.uiKind]})`);
    assert.match(vscode.version, /^\d+\.\d+\.\d+/);
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.equal(folders.length, 1);
    const files = await vscode.workspace.findFiles('**/*.tf');
    const modules = files.map((uri) => vscode.workspace.asRelativePath(uri)).sort();
    assert.deepEqual(modules, [
      'app/prod/eu-west-1/api/main.tf',
      'app/prod/eu-west-1/api/policy.tf',
      'network/prod/eu-west-1/vpc/main.tf',
      'platform/prod/eu-west-1/eks/main.tf',
    ]);
  });

  test('the extension activates by itself on a workspace with .tf files', async () => {
    const extension = terraceExtension();
    await waitFor('the extension to activate (workspaceContains:**/*.tf)', () => extension.isActive);
    assert.equal(typeof extension.exports?.clientState, 'function', 'activate returned the Terrace API');
  });

  test('the language client reaches the running state', async () => {
    const api = await runningApi();
    assert.equal(api.clientState(), 'running');
    assert.equal(api.client.initializeResult?.serverInfo?.name, 'terrace');
  });
});
