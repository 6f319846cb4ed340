import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { hoverTextAt, runningApi, waitFor } from './helpers';

/**
 * The language server's features as VS Code users meet them: hover, go to definition, and
 * cycle errors in the Problems view that follow an unsaved edit.
 */
suite('language features', () => {
  const folder = () => vscode.workspace.workspaceFolders![0]!.uri;
  const api = () => vscode.Uri.joinPath(folder(), 'app/prod/eu-west-1/api/main.tf');
  const eks = () => vscode.Uri.joinPath(folder(), 'platform/prod/eu-west-1/eks/main.tf');
  const vpc = () => vscode.Uri.joinPath(folder(), 'network/prod/eu-west-1/vpc/main.tf');

  suiteSetup(async () => {
    await runningApi();
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('hover on a remote_state block names the module that writes the state, and its level', async () => {
    await vscode.window.showTextDocument(api());
    const text = await hoverTextAt(api(), new vscode.Position(9, 5), 'terraform_remote_state');
    assert.match(text, /\*\*data\.terraform_remote_state\.eks\*\* · s3/);
    assert.match(
      text,
      /`s3:\/\/acme-terraform-state\/platform\/prod\/eu-west-1\/eks\/terraform\.tfstate` → \[platform\/prod\/eu-west-1\/eks\]\(file:\/\/\S+\/platform\/prod\/eu-west-1\/eks\/main\.tf#L3\) · level 1/,
    );
  });

  test('go to definition lands on the writer’s backend block', async () => {
    await vscode.window.showTextDocument(api());
    const locations = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
      'vscode.executeDefinitionProvider',
      api(),
      new vscode.Position(13, 12),
    );
    assert.equal(locations.length, 1);
    const target = locations[0]!;
    const uri = 'targetUri' in target ? target.targetUri : target.uri;
    const range = 'targetRange' in target ? target.targetRange : target.range;
    assert.equal(uri.toString(), eks().toString());
    assert.equal(range.start.line, 2, 'the backend "s3" line');
  });

  test('an unsaved edit that closes a cycle puts the error in the Problems view; undoing it clears it', async () => {
    const editor = await vscode.window.showTextDocument(vpc());
    const original = editor.document.getText();
    await editor.edit((edit) =>
      edit.insert(
        editor.document.positionAt(original.length),
        '\ndata "terraform_remote_state" "api" {\n  backend = "s3"\n  config = {\n    bucket = "acme-terraform-state"\n    key    = "app/prod/eu-west-1/api/terraform.tfstate"\n    region = "eu-west-1"\n  }\n}\n',
      ),
    );
    try {
      const cycle = await waitFor('a cycle error on the edited file', () =>
        vscode.languages.getDiagnostics(vpc()).find((d) => d.code === 'cycle'),
      );
      assert.equal(cycle.severity, vscode.DiagnosticSeverity.Error);
      assert.equal(cycle.source, 'terrace');
      // The prod cluster reads the VPC and the API reads the cluster: it closes on the cycle too.
      assert.equal(
        cycle.message,
        'Circular dependency: app/prod/eu-west-1/api -> network/prod/eu-west-1/vpc -> app/prod/eu-west-1/api; also in this cycle: platform/prod/eu-west-1/eks',
      );
      assert.equal(cycle.range.start.line, 17);
      await waitFor('the cycle error on a file that is not open', () =>
        vscode.languages.getDiagnostics(eks()).find((d) => d.code === 'cycle'),
      );
    } finally {
      // Undone whatever happened: the suites after this one need the workspace without a cycle.
      await vscode.commands.executeCommand('undo');
    }
    await waitFor(
      'the cycle errors to be cleared',
      () => vscode.languages.getDiagnostics(vpc()).length === 0 && vscode.languages.getDiagnostics(eks()).length === 0,
    );
    assert.equal(editor.document.getText(), original);
  });
});
