import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type EnvironmentsResult, type GraphModel, GraphRequest } from '../../../server/src/protocol';
import { hoverTextAt, runningApi, waitFor } from './helpers';

const API = 'app/prod/eu-west-1/api';
const VPC = 'network/prod/eu-west-1/vpc';

/**
 * A read whose key has a variable part (`network/${var.environment}/…`), inferred until an environment
 * gives the variable its value: the hover and the Problems view say so, and Terrace: Select Environment
 * makes the edge exact.
 */
suite('environments and inferred reads', () => {
  const folder = () => vscode.workspace.workspaceFolders![0]!.uri;
  const api = () => vscode.Uri.joinPath(folder(), `${API}/main.tf`);

  async function vpcEdge(): Promise<GraphModel['edges'][number]> {
    const { client } = await runningApi();
    const graph = await client.sendRequest<GraphModel | null>(GraphRequest.method, { folderUri: folder().toString() });
    const edge = graph?.edges.find((e) => e.from === API && e.to === VPC);
    assert.ok(edge, `${API} depends on ${VPC}`);
    return edge;
  }

  suiteSetup(async () => {
    await runningApi();
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('terrace.selectEnvironment', null, folder().toString());
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('the hover and the Problems view say an inferred read is inferred, and what it assumes', async () => {
    await vscode.window.showTextDocument(api());
    const text = await hoverTextAt(api(), new vscode.Position(19, 5), 'terraform_remote_state.vpc');
    assert.match(
      text,
      /`s3:\/\/acme-terraform-state\/network\/\$\{var\.environment\}\/eu-west-1\/vpc\/terraform\.tfstate` → \[network\/prod\/eu-west-1\/vpc\]/,
    );
    assert.match(
      text,
      /\*\*inferred\*\*: key: var\.environment has no default; only network\/prod\/eu-west-1\/vpc's state fits, assuming var\.environment = "prod"/,
    );
    const info = await waitFor('the inferred read in the Problems view', () =>
      vscode.languages.getDiagnostics(api()).find((d) => d.code === 'inferred-reference'),
    );
    assert.equal(info.severity, vscode.DiagnosticSeverity.Information);
    assert.equal(info.range.start.line, 18);
    assert.equal((await vpcEdge()).match, 'inferred');
  });

  test('Terrace: Select Environment makes the edge exact; all environments makes it inferred again', async () => {
    const prod = await vscode.commands.executeCommand<EnvironmentsResult>(
      'terrace.selectEnvironment',
      'prod',
      folder().toString(),
    );
    assert.deepEqual(prod, { environments: ['prod'], selected: 'prod' });
    const exact = await vpcEdge();
    assert.equal(exact.match, 'exact');
    assert.equal(exact.address, 's3://acme-terraform-state/network/prod/eu-west-1/vpc/terraform.tfstate');
    await waitFor('the inferred read to leave the Problems view', () =>
      vscode.languages.getDiagnostics(api()).every((d) => d.code !== 'inferred-reference'),
    );

    const all = await vscode.commands.executeCommand<EnvironmentsResult>(
      'terrace.selectEnvironment',
      null,
      folder().toString(),
    );
    assert.deepEqual(all, { environments: ['prod'], selected: null });
    assert.equal((await vpcEdge()).match, 'inferred');
  });

  test('an environment the folder does not have is refused with the ones it has', async () => {
    const { client } = await runningApi();
    await assert.rejects(
      client.sendRequest('terrace/selectEnvironment', { folderUri: folder().toString(), environment: 'qa' }),
      (error: Error) => {
        assert.equal(error.message, "no environment 'qa' in this folder: the environments are prod");
        return true;
      },
    );
    // The command shows that message and changes nothing.
    assert.equal(
      await vscode.commands.executeCommand('terrace.selectEnvironment', 'qa', folder().toString()),
      undefined,
    );
    assert.equal((await vpcEdge()).match, 'inferred');
  });
});
