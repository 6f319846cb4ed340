import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { GraphPanel } from '../../../client/src/graphPanel';
import type { GraphModel } from '../../../server/src/protocol';

/** An edit's waits, ms from the edit: its problem shown in the editor, and the panel drawn again (the page's clock). */
export interface EditFigures {
  file: string;
  diagnosticsMs: number;
  redrawnMs: number;
  /**
   * Where the redrawing went: the new graph asked of the server, answered and sent to the page (ms from the
   * edit), then the page's part from its arrival to the drawing, step by step.
   */
  redraw: {
    graphAskedMs: number;
    graphAnsweredMs: number;
    graphSentMs: number;
    pageMs: number;
    steps: { graphMs: number; viewMs: number; layoutWaitMs: number; drawMs: number; frameMs: number };
  };
}

const MISSING = 'terrace-probe-missing';
const OPENED_BEFORE_MS = 1000;

/**
 * Types, into a module's own file, a read of a state nobody writes (a Terragrunt unit: a `dependency` on a
 * folder with no unit; a root module: a `terraform_remote_state` of a local state no module writes), as a
 * user does: the server says so in the editor and the panel draws the module with one more unresolved read.
 * Timed from the edit to each; the document is then put back as it was, and nothing is written to disk.
 */
export async function probeEdit(panel: GraphPanel, graph: GraphModel, folder: vscode.Uri): Promise<EditFigures> {
  const module = graph.modules.find((candidate) => candidate.kind === 'unit') ?? graph.modules[0];
  assert.ok(module, 'the graph has a module to edit');
  const unit = module.kind === 'unit';
  const file = unit ? vscode.Uri.joinPath(folder, module.id, 'terragrunt.hcl') : vscode.Uri.parse(module.location.uri);
  const read = unit
    ? `\ndependency "terrace_probe" {\n  config_path = "../${MISSING}"\n}\n`
    : `\ndata "terraform_remote_state" "terrace_probe" {\n  backend = "local"\n  config = {\n    path = "../${MISSING}/terraform.tfstate"\n  }\n}\n`;
  const document = await vscode.workspace.openTextDocument(file);
  // Opened a moment before it is typed in, as a user does: the server checks an open file's syntax with
  // Terraform's parser, which it starts once a document is open.
  await new Promise((resolve) => setTimeout(resolve, OPENED_BEFORE_MS));
  const original = document.getText();
  const version = panel.currentGraph?.version ?? 0;
  const shown = problemShown(file);
  const edit = new vscode.WorkspaceEdit();
  edit.insert(file, document.positionAt(original.length), read);
  const started = Date.now();
  try {
    assert.ok(await vscode.workspace.applyEdit(edit));
    const diagnosticsAt = await shown;
    const redrawn = await panel.reports.waitForRender((report) => report.version > version, 60_000);
    return {
      file: vscode.workspace.asRelativePath(file),
      diagnosticsMs: diagnosticsAt - started,
      redrawnMs: redrawn.drawnAt - started,
      redraw: {
        graphAskedMs: (panel.times.graphAsked ?? Number.NaN) - started,
        graphAnsweredMs: (panel.times.graphAnswered ?? Number.NaN) - started,
        graphSentMs: (panel.times.graphSent ?? Number.NaN) - started,
        pageMs: redrawn.ms,
        steps: redrawn.steps,
      },
    };
  } finally {
    shown.cancel();
    await putBack(document, original);
  }
}

/** When the editor first shows a problem of `file` naming the probe's missing folder; cancel() stops listening. */
function problemShown(file: vscode.Uri): Promise<number> & { cancel(): void } {
  let listener: vscode.Disposable | undefined;
  let timer: NodeJS.Timeout | undefined;
  const cancel = () => {
    listener?.dispose();
    clearTimeout(timer);
  };
  const shown = new Promise<number>((resolve, reject) => {
    listener = vscode.languages.onDidChangeDiagnostics((event) => {
      if (!event.uris.some((uri) => uri.toString() === file.toString())) return;
      if (!vscode.languages.getDiagnostics(file).some((d) => d.message.includes(MISSING))) return;
      cancel();
      resolve(Date.now());
    });
    timer = setTimeout(() => {
      cancel();
      reject(new Error(`no problem naming ${MISSING} in ${file.fsPath} within 60 s`));
    }, 60_000);
  });
  return Object.assign(shown, { cancel });
}

/** The document back at its text, and saved only if it was saved before: the file on disk is as it was. */
async function putBack(document: vscode.TextDocument, original: string): Promise<void> {
  const restore = new vscode.WorkspaceEdit();
  restore.replace(
    document.uri,
    new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)),
    original,
  );
  assert.ok(await vscode.workspace.applyEdit(restore));
  if (document.isDirty) assert.ok(await document.save());
  assert.equal(Buffer.from(await vscode.workspace.fs.readFile(document.uri)).toString('utf8'), original);
}
