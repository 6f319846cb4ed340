import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type Config, SETTING_KEYS } from '../../../client/src/config';
import { type GraphModel, GraphRequest } from '../../../server/src/protocol';
import { runningApi, terraceExtension, waitFor } from './helpers';

/** `discovery.mode` → `discoveryMode`: the getter of a setting. */
const getterOf = (key: string) => key.replace(/\.(\w)/g, (_, letter: string) => letter.toUpperCase());

suite('settings', () => {
  const properties = (): Record<string, { default: unknown }> =>
    terraceExtension().packageJSON.contributes.configuration.properties;

  teardown(async () => {
    const terrace = vscode.workspace.getConfiguration('terrace');
    await terrace.update('parallelism', undefined, vscode.ConfigurationTarget.Workspace);
    await terrace.update('discovery.exclude', undefined, vscode.ConfigurationTarget.Workspace);
  });

  test('every terrace.* setting of package.json has a getter that reads its default', async () => {
    const api = await runningApi();
    const contributed = Object.keys(properties());
    assert.deepEqual(
      SETTING_KEYS.map((key) => `terrace.${key}`),
      contributed,
      'the settings the client knows are the ones package.json contributes',
    );
    const config = api.config();
    for (const id of contributed) {
      const getter = getterOf(id.replace(/^terrace\./, '')) as keyof Config;
      assert.deepEqual(config[getter], properties()[id]!.default, `${id} through Config.${getter}`);
    }
  });

  test('a changed terrace.parallelism is read at once; set, it overrides .terrace.yaml, unset it does not', async () => {
    const api = await runningApi();
    const folderUri = vscode.workspace.workspaceFolders![0]!.uri.toString();
    assert.equal(api.config(folderUri).explicit('parallelism'), undefined, 'the default is not an override');
    await vscode.workspace.getConfiguration('terrace').update('parallelism', 3, vscode.ConfigurationTarget.Workspace);
    assert.equal(api.config(folderUri).parallelism, 3);
    assert.equal(api.config(folderUri).explicit('parallelism'), 3);
    await vscode.workspace
      .getConfiguration('terrace')
      .update('parallelism', undefined, vscode.ConfigurationTarget.Workspace);
    assert.equal(api.config(folderUri).parallelism, 10);
    assert.equal(api.config(folderUri).explicit('parallelism'), undefined);
  });

  test('a changed terrace.discovery.exclude reaches the server: the folders it names leave the graph, and come back', async () => {
    const api = await runningApi();
    const folderUri = vscode.workspace.workspaceFolders![0]!.uri.toString();
    // By method name: this bundle's copy of vscode-jsonrpc is not the extension's.
    const moduleIds = async (): Promise<string[]> => {
      const graph = await api.client.sendRequest<GraphModel | null>(GraphRequest.method, { folderUri });
      return (graph?.modules ?? []).map((module) => module.id).sort();
    };
    const all = await moduleIds();
    assert.ok(all.includes('app/prod/eu-west-1/api'), all.join());
    const terrace = vscode.workspace.getConfiguration('terrace');
    await terrace.update('discovery.exclude', ['app/**'], vscode.ConfigurationTarget.Workspace);
    const without = all.filter((id) => !id.startsWith('app/'));
    await waitFor('the graph without app/', async () => {
      const ids = await moduleIds();
      return ids.join() === without.join() && ids;
    });
    await terrace.update('discovery.exclude', undefined, vscode.ConfigurationTarget.Workspace);
    await waitFor('the graph whole again', async () => {
      const ids = await moduleIds();
      return ids.join() === all.join() && ids;
    });
  });
});
