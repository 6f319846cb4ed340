import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { TerraceApi } from '../../../client/src/extension';
import { runningApi, waitFor } from './helpers';

/** A folder of its own in the workspace: one writer and the roots that read its state. */
const FOLDER = 'many-readers';
const READERS = 40;

const backend = (key: string) =>
  `terraform {\n  backend "s3" {\n    bucket = "acme-terraform-state"\n    key    = "${key}"\n    region = "eu-west-1"\n  }\n}\n`;

const writerText = `${backend(`${FOLDER}/writer/terraform.tfstate`)}
resource "terraform_data" "writer" {
  input = "shared"
}
`;

const readerText = (n: number) => `${backend(`${FOLDER}/reader-${n}/terraform.tfstate`)}
data "terraform_remote_state" "writer" {
  backend = "s3"
  config = {
    bucket = "acme-terraform-state"
    key    = "${FOLDER}/writer/terraform.tfstate"
    region = "eu-west-1"
  }
}

resource "terraform_data" "reader" {
  input = data.terraform_remote_state.writer.outputs.shared_id
}
`;

/**
 * The problems of many files at once, as one analysis publishes them, reach the Problems view together:
 * handed to VS Code in a few batches, not one file at a time (at 11,000 units, thousands of files' problems
 * handed over one by one held up the workbench for seconds). Set, replaced and cleared alike.
 */
suite('the problems of many files', () => {
  let root = '';
  const reader = (n: number) => vscode.Uri.file(path.join(root, FOLDER, `reader-${n}`, 'main.tf'));
  const readers = () => Array.from({ length: READERS }, (_, n) => reader(n));
  const missing = (uri: vscode.Uri) =>
    vscode.languages.getDiagnostics(uri).filter((diagnostic) => diagnostic.code === 'missing-output');
  let api: TerraceApi;

  suiteSetup(async function () {
    this.timeout(60_000);
    api = await runningApi();
    root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    mkdirSync(path.join(root, FOLDER, 'writer'), { recursive: true });
    writeFileSync(path.join(root, FOLDER, 'writer', 'main.tf'), writerText);
    for (let n = 0; n < READERS; n++) {
      mkdirSync(path.join(root, FOLDER, `reader-${n}`), { recursive: true });
      writeFileSync(reader(n).fsPath, readerText(n));
    }
    // Opened too: the server hears of new files through the file watcher, whatever its delay, and of open ones at once.
    for (const uri of [vscode.Uri.file(path.join(root, FOLDER, 'writer', 'main.tf')), ...readers()])
      await vscode.workspace.openTextDocument(uri);
    await waitFor(
      'the missing output on every reader',
      () => readers().every((uri) => missing(uri).length === 1),
      30_000,
    );
  });

  // The documents opened stay open in VS Code for a while, their roots in the graph: this suite runs last.
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(path.join(root, FOLDER), { recursive: true, force: true });
  });

  /** Runs `change` and waits for `settled`: how many batches and files' diagnostics went to VS Code meanwhile. */
  async function handedOver(what: string, change: () => Thenable<unknown>, settled: () => boolean) {
    const before = api.diagnosticsHandedOver();
    await change();
    await waitFor(what, settled);
    const after = api.diagnosticsHandedOver();
    return { batches: after.batches - before.batches, files: after.files - before.files };
  }

  test('an output added and removed in an unsaved edit: the readers’ problems cleared, then back, a few batches each', async () => {
    const writer = vscode.Uri.file(path.join(root, FOLDER, 'writer', 'main.tf'));
    const editor = await vscode.window.showTextDocument(writer);
    const end = editor.document.positionAt(editor.document.getText().length);
    const cleared = await handedOver(
      'every reader’s problem cleared',
      () => editor.edit((edit) => edit.insert(end, '\noutput "shared_id" {\n  value = terraform_data.writer.id\n}\n')),
      () => readers().every((uri) => missing(uri).length === 0),
    );
    assert.ok(cleared.files >= READERS, `${cleared.files} files' diagnostics handed over`);
    console.log(
      `${READERS} readers' problems cleared: ${cleared.files} files' diagnostics in ${cleared.batches} batches`,
    );
    // One file at a time would be a batch each; on a slow machine a batch may take fewer files than here.
    assert.ok(cleared.batches <= READERS / 2, `${READERS} readers' problems cleared in ${cleared.batches} batches`);

    const back = await handedOver(
      'every reader’s problem back',
      () => vscode.commands.executeCommand('undo'),
      () => readers().every((uri) => missing(uri).length === 1),
    );
    assert.ok(back.files >= READERS, `${back.files} files' diagnostics handed over`);
    console.log(`${READERS} readers' problems back: ${back.files} files' diagnostics in ${back.batches} batches`);
    assert.ok(back.batches <= READERS / 2, `${READERS} readers' problems back in ${back.batches} batches`);
    const [problem] = missing(reader(7));
    assert.equal(problem?.message, `${FOLDER}/writer declares no output "shared_id"`);
    assert.equal(problem?.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(problem?.range.start.line, 18);
  });
});
