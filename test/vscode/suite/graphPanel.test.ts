import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { GraphPanel } from '../../../client/src/graphPanel';
import { type GraphModel, GraphRequest } from '../../../server/src/protocol';
import { assertShownWhole, runningApi, waitFor } from './helpers';

const VPC = 'network/prod/eu-west-1/vpc';
const EKS = 'platform/prod/eu-west-1/eks';
const API = 'app/prod/eu-west-1/api';

/** The graph panel in the real VS Code: the webview draws what the server's `terrace/graph` says. */
suite('graph panel', () => {
  let folderUri: string;
  let graph: GraphModel;

  suiteSetup(async () => {
    const api = await runningApi();
    folderUri = vscode.workspace.workspaceFolders![0]!.uri.toString();
    // By method name: a request type built by this bundle's copy of vscode-jsonrpc is not recognised by
    // the extension bundle's copy ('Unknown parameter structure auto').
    const answer = await api.client.sendRequest<GraphModel | null>(GraphRequest.method, { folderUri });
    assert.ok(answer, 'the server answers terrace/graph');
    graph = answer;
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Terrace: Show Graph opens a webview panel whose drawing matches terrace/graph', async () => {
    const panel = await vscode.commands.executeCommand<GraphPanel | undefined>('terrace.showGraph');
    assert.ok(panel, 'the command returns the panel');
    assert.equal(panel.panel.viewType, 'terrace.graph');
    const drawn = await panel.reports.waitForRender();
    assert.deepEqual(graph.modules.map((module) => module.id).sort(), [API, VPC, EKS].sort());
    assert.equal(drawn.nodes, graph.modules.length);
    assert.equal(drawn.levels, graph.levels.length);
    assert.equal(drawn.levels, 3);
    assert.equal(drawn.edges, graph.edges.length);
    assert.equal(drawn.groups, 0);
    assert.equal(drawn.version, graph.version);
    assert.equal(drawn.focus, null);
    assert.equal(drawn.layoutIn, 'host', 'the layout ran in the extension host');
    // Every edge names the outputs read along it: with the graph when they were known by then, else soon after.
    const outputEdges =
      drawn.outputEdges > 0
        ? drawn.outputEdges
        : (await panel.reports.waitForOutputs((report) => report.version === drawn.version)).edges;
    assert.equal(outputEdges, 3);
  });

  test('opened beside an editor, the drawing is shown whole', async () => {
    const main = vscode.Uri.joinPath(vscode.Uri.parse(folderUri), VPC, 'main.tf');
    await vscode.window.showTextDocument(main, { viewColumn: vscode.ViewColumn.One });
    const panel = await vscode.commands.executeCommand<GraphPanel | undefined>('terrace.showGraph');
    assert.ok(panel);
    const drawn = await panel.reports.waitForRender();
    // The panel's column reaches the extension host after the command has returned.
    await waitFor('the panel beside the editor', () => panel.panel.viewColumn === vscode.ViewColumn.Two, 5000);
    assertShownWhole(drawn);
    // Its page's drawing area is kept, for the layouts made ahead of the next panel beside an editor.
    const area = (await runningApi()).panelAreas.of('beside');
    assert.ok(area && area.width > 100 && area.height > 100, `the area kept: ${JSON.stringify(area)}`);
  });

  test('the message a click on a node posts opens the module at its backend block', async () => {
    const panel = await vscode.commands.executeCommand<GraphPanel | undefined>('terrace.showGraph');
    assert.ok(panel);
    await panel.reports.waitForRender();
    await panel.receive({ type: 'openModule', id: EKS });
    const editor = await waitFor('the eks module in an editor', () => {
      const active = vscode.window.activeTextEditor;
      return active?.document.uri.path.endsWith(`/${EKS}/main.tf`) ? active : undefined;
    });
    const eks = graph.modules.find((module) => module.id === EKS)!;
    assert.equal(editor.selection.active.line, eks.location.range.start.line);
    assert.match(editor.document.lineAt(editor.selection.active.line).text, /backend "s3"/);
    assert.notEqual(editor.viewColumn, panel.panel.viewColumn, 'the module opens beside the panel, not over it');
  });

  test('the message a click on an edge’s read posts opens the reading block, from its reader’s folder', async () => {
    const panel = await vscode.commands.executeCommand<GraphPanel | undefined>('terrace.showGraph');
    assert.ok(panel);
    await panel.reports.waitForRender();
    const read = graph.edges.find((edge) => edge.from === API && edge.to === VPC)!;
    const { line, character } = read.location.range.start;
    await panel.receive({ type: 'openRead', from: API, file: 'main.tf', line, character });
    const editor = await waitFor('the api’s main.tf in an editor', () => {
      const active = vscode.window.activeTextEditor;
      return active?.document.uri.path.endsWith(`/${API}/main.tf`) ? active : undefined;
    });
    assert.equal(editor.selection.active.line, line);
    assert.equal(editor.document.lineAt(line).text, 'data "terraform_remote_state" "vpc" {');
    assert.notEqual(editor.viewColumn, panel.panel.viewColumn, 'the read opens beside the panel, not over it');
  });

  test('a hover card’s questions, which the page cannot answer, are answered by the server through the host', async () => {
    const panel = await vscode.commands.executeCommand<GraphPanel | undefined>('terrace.showGraph');
    assert.ok(panel);
    await panel.reports.waitForRender();
    // What the host posts back to the page, seen on its way (the page gets it too).
    const webview = panel.panel.webview;
    const posted: unknown[] = [];
    const post = webview.postMessage.bind(webview);
    (webview as { postMessage: typeof post }).postMessage = (message) => {
      posted.push(message);
      return post(message);
    };
    try {
      await panel.receive({ type: 'address', id: 41, module: EKS });
      await panel.receive({ type: 'problems', id: 42, modules: [EKS, API], limit: 6 });
    } finally {
      delete (webview as { postMessage?: unknown }).postMessage;
    }
    const eks = graph.modules.find((module) => module.id === EKS)!;
    assert.ok(eks.backend?.address.includes('eks'), eks.backend?.address);
    assert.deepEqual(posted, [
      { type: 'address', id: 41, address: eks.backend!.address },
      { type: 'problems', id: 42, problems: [] },
    ]);
  });

  test('the code lens command opens the panel focused on its module', async () => {
    const panel = await vscode.commands.executeCommand<GraphPanel | undefined>('terrace.showModule', folderUri, EKS);
    assert.ok(panel);
    const drawn = await panel.reports.waitForRender((report) => report.focus === EKS);
    assert.equal(drawn.nodes, 3, 'the vpc upstream and the api downstream');
  });

  test('an export from the webview is written where the save dialog says', async () => {
    const panel = await vscode.commands.executeCommand<GraphPanel | undefined>('terrace.showGraph');
    assert.ok(panel);
    await panel.reports.waitForRender();
    const target = vscode.Uri.joinPath(vscode.Uri.parse(folderUri), 'exported-graph.svg');
    // The save dialog is the user's: answer it here.
    const dialog = vscode.window.showSaveDialog;
    const asked: (vscode.SaveDialogOptions | undefined)[] = [];
    (vscode.window as { showSaveDialog: typeof dialog }).showSaveDialog = async (options) => {
      asked.push(options);
      return target;
    };
    try {
      await panel.receive({ type: 'export', format: 'svg', data: '<svg xmlns="http://www.w3.org/2000/svg"/>' });
      assert.equal(asked.length, 1, 'the save dialog was asked once');
      assert.equal(asked[0]?.defaultUri?.path.endsWith('/terrace-graph.svg'), true);
      assert.deepEqual(asked[0]?.filters, { 'SVG image': ['svg'] });
      const written = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
      assert.equal(written, '<svg xmlns="http://www.w3.org/2000/svg"/>');
    } finally {
      (vscode.window as { showSaveDialog: typeof dialog }).showSaveDialog = dialog;
      await vscode.workspace.fs.delete(target).then(undefined, () => undefined);
    }
  });

  test('an edit that changes the graph redraws the open panel', async () => {
    const panel = await vscode.commands.executeCommand<GraphPanel | undefined>('terrace.showGraph');
    assert.ok(panel);
    const first = await panel.reports.waitForRender();
    const apiFile = vscode.Uri.parse(graph.modules.find((module) => module.id === API)!.location.uri);
    const document = await vscode.workspace.openTextDocument(apiFile);
    const text = document.getText();
    const start = text.indexOf('data "terraform_remote_state" "vpc"');
    assert.ok(start > 0, 'the api reads the vpc');
    const end = text.indexOf('\n}\n', start) + 3;
    const edit = new vscode.WorkspaceEdit();
    edit.delete(apiFile, new vscode.Range(document.positionAt(start), document.positionAt(end)));
    assert.ok(await vscode.workspace.applyEdit(edit));
    try {
      const redrawn = await panel.reports.waitForRender(
        (report) => report.version > first.version && report.edges === graph.edges.length - 1,
      );
      assert.equal(redrawn.nodes, 3);
      // The new graph came without the outputs along its edges, asked after it: they follow, onto its two edges
      // (the drawing takes them when they came while it was under way).
      const outputEdges =
        redrawn.outputEdges > 0
          ? redrawn.outputEdges
          : (await panel.reports.waitForOutputs((report) => report.version === redrawn.version)).edges;
      assert.equal(outputEdges, 2);
    } finally {
      // Put the text back and save it, without going through an editor (one may fail to open while the
      // panel's webview moves): a buffer left without the read would take the edge from later suites.
      const restore = new vscode.WorkspaceEdit();
      restore.replace(
        apiFile,
        new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)),
        text,
      );
      await vscode.workspace.applyEdit(restore);
      assert.ok(await document.save(), 'the api module saved as it was');
    }
  });
});
