import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { hoverTextAt, runningApi, waitFor } from './helpers';

/**
 * The language server's features as VS Code users meet them: hover, go to definition, cycle errors in
 * the Problems view that follow an unsaved edit; an output deleted and not saved, an error on a reader
 * that is not open; F2's rename of an output and its reads in every file; the lens on a file that
 * modules read from elsewhere.
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

  test('a file read from elsewhere: a code lens names who reads it and how; the module’s hover lists it', async () => {
    const policy = vscode.Uri.joinPath(folder(), 'policies/api.json');
    await vscode.window.showTextDocument(policy);
    const lens = await waitFor('the readers lens on policies/api.json', async () => {
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
        'vscode.executeCodeLensProvider',
        policy,
        10,
      );
      return lenses.find((found) => found.command?.title.startsWith('Read by'));
    });
    assert.equal(lens.range.start.line, 0);
    assert.equal(lens.command!.title, 'Read by app/prod/eu-west-1/api');
    assert.equal(lens.command!.tooltip, 'app/prod/eu-west-1/api: reads policies/api.json (file(), policy.tf:3)');
    assert.equal(lens.command!.command, 'terrace.showReferences');
    const [uri, , locations] = lens.command!.arguments as [string, vscode.Position, { uri: string }[]];
    assert.equal(uri, policy.toString());
    // The server and VS Code may write one file's URI differently (a '+' in the path): the files must be equal.
    assert.deepEqual(
      locations.map((location) => vscode.Uri.parse(location.uri).fsPath),
      [api().fsPath],
    );
    // The lens's command opens the references view on the readers.
    await vscode.commands.executeCommand(lens.command!.command, ...lens.command!.arguments!);
    // A module's own file has no such lens.
    await vscode.window.showTextDocument(api());
    const own = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', api(), 10);
    assert.ok(!own.some((found) => found.command?.title.startsWith('Read by')));
    const text = await hoverTextAt(api(), new vscode.Position(2, 5), 'Reads outside its folder');
    assert.match(
      text,
      /Reads outside its folder \(1\): \[policies\/api\.json\]\(file:\/\/\S+\/policies\/api\.json\) \(file\\\(\\\)\)/,
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

  test('an unsaved edit that deletes an output puts the error on its readers in the Problems view', async () => {
    const editor = await vscode.window.showTextDocument(vpc());
    const text = editor.document.getText();
    const block = 'output "vpc_id" {\n  value = terraform_data.vpc.id\n}\n';
    const start = text.indexOf(block);
    assert.ok(start > 0, 'the vpc declares vpc_id');
    await editor.edit((edit) =>
      edit.delete(
        new vscode.Range(editor.document.positionAt(start), editor.document.positionAt(start + block.length)),
      ),
    );
    try {
      const missing = await waitFor('the missing output on the cluster, which is not open', () =>
        vscode.languages.getDiagnostics(eks()).find((d) => d.code === 'missing-output'),
      );
      assert.equal(missing.message, 'network/prod/eu-west-1/vpc declares no output "vpc_id"');
      assert.equal(missing.severity, vscode.DiagnosticSeverity.Error);
      assert.equal(missing.source, 'terrace');
      assert.deepEqual(
        [missing.range.start.line, missing.range.start.character, missing.range.end.character],
        [19, 50, 56],
      );
      await waitFor('the missing output on the API too', () =>
        vscode.languages.getDiagnostics(api()).find((d) => d.code === 'missing-output'),
      );
    } finally {
      await vscode.commands.executeCommand('undo');
    }
    await waitFor(
      'the missing outputs to be cleared',
      () =>
        !vscode.languages.getDiagnostics(eks()).some((d) => d.code === 'missing-output') &&
        !vscode.languages.getDiagnostics(api()).some((d) => d.code === 'missing-output'),
    );
    assert.equal(editor.document.getText(), text);
  });

  test('rename (F2) of an output renames its block and every read of it, across files', async () => {
    const originalEks = readFileSync(eks().fsPath, 'utf8');
    const originalApi = readFileSync(api().fsPath, 'utf8');
    await vscode.window.showTextDocument(eks());
    const rename = async (uri: vscode.Uri, position: vscode.Position, name: string) => {
      const edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit | undefined>(
        'vscode.executeDocumentRenameProvider',
        uri,
        position,
        name,
      );
      assert.ok(edit, 'a rename edit');
      const byFile = new Map(
        edit
          .entries()
          .map(([file, edits]) => [
            vscode.workspace.asRelativePath(file),
            edits.map((e) => [e.range.start.line, e.range.start.character, e.range.end.character, e.newText]),
          ]),
      );
      assert.ok(await vscode.workspace.applyEdit(edit), 'the edit applies');
      assert.ok(await vscode.workspace.saveAll(false), 'the files save');
      return byFile;
    };
    // A file the edit opened in the background is saved by VS Code itself (files.refactoring.autoSave), a moment later.
    const onDisk = async (uri: vscode.Uri, expected: string) => {
      const saved = () => readFileSync(uri.fsPath, 'utf8') === expected;
      await waitFor(`${vscode.workspace.asRelativePath(uri)} saved`, saved, 5000).catch(() => undefined);
      assert.equal(readFileSync(uri.fsPath, 'utf8'), expected);
    };
    // `output "cluster_name"` in the cluster, read as `…eks.outputs.cluster_name` by the API.
    const edits = await rename(eks(), new vscode.Position(22, 12), 'cluster_id');
    assert.deepEqual(Object.fromEntries(edits), {
      'platform/prod/eu-west-1/eks/main.tf': [[22, 8, 20, 'cluster_id']],
      'app/prod/eu-west-1/api/main.tf': [[29, 54, 66, 'cluster_id']],
    });
    await onDisk(eks(), originalEks.replace('output "cluster_name"', 'output "cluster_id"'));
    await onDisk(api(), originalApi.replace('outputs.cluster_name', 'outputs.cluster_id'));
    // And back, from the read this time, once the server has the renamed files.
    await vscode.window.showTextDocument(api());
    await waitFor('the renamed output to be known', async () => {
      const found = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
        'vscode.executeDefinitionProvider',
        api(),
        new vscode.Position(29, 58),
      );
      return found.some(
        (location) => ('targetUri' in location ? location.targetUri : location.uri).fsPath === eks().fsPath,
      );
    });
    await rename(api(), new vscode.Position(29, 58), 'cluster_name');
    await onDisk(eks(), originalEks);
    await onDisk(api(), originalApi);
  });
});
