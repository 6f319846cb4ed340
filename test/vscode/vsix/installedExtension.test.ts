import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { GraphPanel } from '../../../client/src/graphPanel';
import { type GraphModel, GraphRequest } from '../../../server/src/protocol';
import { codeCacheWritten, runningApi, terraceExtension, waitFor } from '../suite/helpers';

/** Every file under `dir`, relative to it, with `/` separators. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(path.join(dir, entry.name), `${prefix}${entry.name}/`)
      : [`${prefix}${entry.name}`],
  );
}

/**
 * What users get: the VSIX that `npm run package` makes, installed into VS Code the way
 * `code --install-extension` does, with no source tree beside it.
 */
suite('the packaged extension (VSIX)', () => {
  const folder = () => vscode.workspace.workspaceFolders![0]!.uri;

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('is installed from the VSIX and holds the bundles, not the sources', () => {
    const extension = terraceExtension();
    const installedIn = process.env.TERRACE_VSCODE_EXTENSIONS_DIR;
    assert.ok(installedIn, 'the runner names the extensions folder');
    assert.equal(path.dirname(extension.extensionPath), path.resolve(installedIn));
    assert.equal(extension.packageJSON.version, '0.1.0');
    const files = filesUnder(extension.extensionPath);
    for (const needed of [
      'package.json',
      // vsce's names for the README and the licence.
      'readme.md',
      'LICENSE.txt',
      'media/graph-panel.png',
      'media/graph-panel-dark.png',
      'media/graph-panel-live.png',
      'media/graph-panel-live-dark.png',
      'schemas/terrace.schema.json',
      'dist/main.js',
      'dist/client.js',
      'dist/server.js',
      'dist/codeCache.js',
      'dist/languageServer.js',
      'dist/cli.js',
      'dist/webview.js',
      'dist/webview.css',
      'dist/layoutWorker.js',
      'dist/layoutThread.js',
      'dist/hcl2json/index.js',
      'dist/main.wasm.gz',
    ]) {
      assert.ok(files.includes(needed), `the VSIX holds ${needed}`);
    }
    const unwanted = files.filter((file) =>
      /^(client|server|webview|test|examples|node_modules|\.ci)\/|\.(ts|map)$|^dist\/test\//.test(file),
    );
    assert.deepEqual(unwanted, [], 'no sources, tests, fixtures, source maps or dependencies');
    // The extension's details page shows the README from the installed folder: its images stay relative.
    const readme = readFileSync(path.join(extension.extensionPath, 'readme.md'), 'utf8');
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)|(?:src|srcset)="([^"]+)"/g)].map(
      (match) => match[1] ?? match[2]!,
    );
    assert.deepEqual(images.sort(), [
      'media/graph-panel-dark.png',
      'media/graph-panel-live-dark.png',
      'media/graph-panel-live.png',
      'media/graph-panel.png',
    ]);
    assert.ok(images.every((image) => files.includes(image)));
  });

  test('activates on a workspace with .tf files and its bundled server builds the graph', async () => {
    const api = await runningApi();
    const graph = await api.client.sendRequest<GraphModel | null>(GraphRequest.method, {
      folderUri: folder().toString(),
    });
    assert.ok(graph);
    assert.deepEqual(graph.modules.map((module) => module.id).sort(), [
      'app/prod/eu-west-1/api',
      'network/prod/eu-west-1/vpc',
      'platform/prod/eu-west-1/eks',
    ]);
    assert.equal(graph.levels.length, 3);
    assert.equal(graph.edges.length, 3);
  });

  test("a syntax error gets Terraform's own message (hcl2json's WebAssembly loads from the VSIX)", async () => {
    const api = vscode.Uri.joinPath(folder(), 'app/prod/eu-west-1/api/main.tf');
    const editor = await vscode.window.showTextDocument(api);
    // The broken line: after the file's last line and a blank one.
    const brokenLine = editor.document.lineCount + 1;
    await editor.edit((edit) =>
      edit.insert(editor.document.positionAt(editor.document.getText().length), '\nlocals {\n  x = = 1\n}\n'),
    );
    const syntax = await waitFor('a syntax error on the edited file', () =>
      vscode.languages.getDiagnostics(api).find((d) => d.code === 'hcl-syntax'),
    );
    assert.equal(
      syntax.message,
      'Invalid expression; Expected the start of an expression, but found an invalid expression token.',
    );
    assert.equal(syntax.range.start.line, brokenLine);
  });

  test('the graph panel draws with the bundled webview script, laid out by the bundled layout thread', async () => {
    await runningApi();
    const panel = await vscode.commands.executeCommand<GraphPanel | undefined>('terrace.showGraph');
    assert.ok(panel, 'the command returns the panel');
    const drawn = await panel.reports.waitForRender();
    assert.equal(drawn.nodes, 3);
    assert.equal(drawn.levels, 3);
    assert.equal(drawn.layoutIn, 'host', 'the packaged layout thread ran elkjs in the extension host');
    // The worker is elkjs's layered algorithm, bundled (the VSIX holds no node_modules).
    const worker = readFileSync(path.join(terraceExtension().extensionPath, 'dist', 'layoutWorker.js'), 'utf8');
    assert.ok(worker.includes('org.eclipse.elk.layered'), 'the layout worker bundles elkjs');
    const thread = readFileSync(path.join(terraceExtension().extensionPath, 'dist', 'layoutThread.js'), 'utf8');
    assert.ok(thread.includes('org.eclipse.elk.layered'), 'the extension host’s layout thread bundles elkjs');
  });

  test('the server, the layout thread and the client keep their compiled code in the extension’s storage; a new server uses it', async function () {
    this.timeout(120_000);
    const api = await runningApi();
    // A panel laid out (the test above): the thread writes its cache a few seconds after its first layout, the server
    // a few seconds after its first diagnostics.
    const cached = (bundle: string) => codeCacheWritten(api.codeCacheFolder, bundle);
    assert.equal(api.startup.server?.fromCodeCache, false, 'the first server of a new profile has no cache to load');
    await cached('languageServer');
    await cached('layoutThread');
    // The client's bundle too, for the next window's extension host.
    await cached('client');
    const first = api.startup.server;
    assert.ok(first, 'the first server’s start-up times');
    // The entry forked the first server, and its process started while the client's bundle was loading.
    assert.ok(
      api.startup.activatedAt <= first.processStartedAt && first.processStartedAt < api.startup.clientLoadedAt,
      `forked at activation (${api.startup.activatedAt}), started (${first.processStartedAt}) before the client loaded (${api.startup.clientLoadedAt})`,
    );
    assert.equal(await vscode.commands.executeCommand('terrace.restartServer'), 2, 'the server restarted');
    const again = await waitFor(
      'the restarted server’s start-up times',
      () => api.startup.server !== first && api.startup.server,
      60_000,
    );
    assert.equal(again.fromCodeCache, true, 'the restarted server compiled its bundle from the cache');
    assert.ok(again.processStartedAt > first.publishedAt, 'the client forked a new server on the restart');
    // The graph is the same: the cached code is the bundle's.
    const graph = await api.client.sendRequest<GraphModel | null>(GraphRequest.method, {
      folderUri: folder().toString(),
    });
    assert.equal(graph?.edges.length, 3);
  });
});
