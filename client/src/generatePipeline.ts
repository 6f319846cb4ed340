import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { type PipelineParams, PipelineRequest, type PipelineResult } from '../../server/src/protocol';
import { chooseFolder } from './folderPick';
import { showErrorWithProblems } from './problemsError';

/**
 * The choices of `Terrace: Generate Pipeline`. Each one left out is asked with a quick pick (or an
 * input box for the ref); tests and other extensions pass them as the command's argument.
 */
export interface PipelineChoices {
  folderUri?: string;
  ci?: PipelineParams['ci'];
  scope?: 'all' | 'changed';
  baseRef?: string;
  /** For a file that Terrace did not write: true overwrites, false keeps it; left out, the user is asked. */
  overwrite?: boolean;
}

/** What the command did, for tests: the file written and its jobs, or why nothing was written. */
export type PipelineOutcome =
  | { written: true; uri: string; path: string; jobs: string[] }
  | { written: false; reason: 'cancelled' | 'kept' | 'unsaved' | 'cycle' | 'broken' | 'error'; message?: string };

const DEFAULT_BASE_REF = 'origin/main';

/**
 * Asks GitLab or GitHub, all modules or the changed ones (against which ref), gets the file from
 * the server, writes it where `.terrace.yaml` says (asking first before replacing a file Terrace
 * did not generate) and opens it. On cycles it writes nothing and offers the Problems view.
 */
export async function generatePipeline(
  client: LanguageClient,
  choices: PipelineChoices = {},
): Promise<PipelineOutcome> {
  if (!choices.folderUri && !vscode.workspace.workspaceFolders?.length) {
    void vscode.window.showInformationMessage(
      'Terrace: open the folder of a Terraform monorepo to generate its pipeline.',
    );
    return { written: false, reason: 'cancelled' };
  }
  const folderUri = choices.folderUri ?? (await chooseFolder('Generate the pipeline of which folder?'));
  if (!folderUri) return { written: false, reason: 'cancelled' };
  const ci = choices.ci ?? (await chooseCi());
  if (!ci) return { written: false, reason: 'cancelled' };
  const scope = choices.scope ?? (await chooseScope());
  if (!scope) return { written: false, reason: 'cancelled' };
  let baseRef: string | undefined;
  if (scope === 'changed') {
    baseRef =
      choices.baseRef ??
      (await vscode.window.showInputBox({
        title: 'Terrace: changed since which ref?',
        prompt: 'Modules changed since the merge base with this ref (and uncommitted changes), plus their dependents',
        value: DEFAULT_BASE_REF,
        validateInput: (value) => (value.trim() ? undefined : 'a branch, tag or commit, e.g. origin/main'),
      }));
    if (!baseRef) return { written: false, reason: 'cancelled' };
  }

  const result: PipelineResult = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: 'Terrace: generating the pipeline' },
    () =>
      client.sendRequest(PipelineRequest.type, {
        folderUri,
        ci,
        changedOnly: scope === 'changed',
        ...(baseRef ? { baseRef } : {}),
      }),
  );
  if (result.kind === 'cycle') {
    const paths = result.cycles.map((cycle) => cycle.join(' → ')).join('; ');
    showErrorWithProblems(`Terrace: no pipeline, the modules have a circular dependency: ${paths}`);
    return { written: false, reason: 'cycle', message: result.message };
  }
  if (result.kind === 'broken') {
    showErrorWithProblems(`Terrace: no pipeline: ${result.message}`);
    return { written: false, reason: 'broken', message: result.message };
  }
  if (result.kind === 'error') {
    void vscode.window.showErrorMessage(`Terrace: no pipeline: ${result.message}`);
    return { written: false, reason: 'error', message: result.message };
  }

  // The pipeline and the files it calls (GitHub's reusable workflow) are written together, or none.
  const files = [result, ...result.companions].map((file) => ({ ...file, uri: vscode.Uri.parse(file.uri) }));
  // Writing under an editor with unsaved changes would lose them or leave two versions to reconcile.
  const dirty = files.find((file) =>
    vscode.workspace.textDocuments.some((doc) => doc.isDirty && doc.uri.toString() === file.uri.toString()),
  );
  if (dirty) {
    const message = `${dirty.path} has unsaved changes in an editor: save or revert them, then generate again.`;
    void vscode.window.showErrorMessage(`Terrace: no pipeline written: ${message}`);
    return { written: false, reason: 'unsaved', message };
  }
  for (const file of files)
    if (file.existing === 'foreign' && !(choices.overwrite ?? (await askOverwrite(file.path))))
      return { written: false, reason: 'kept' };
  for (const file of files) {
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(file.uri, '..'));
    await vscode.workspace.fs.writeFile(file.uri, new TextEncoder().encode(file.text));
  }
  const uri = files[0]!.uri;
  await vscode.window.showTextDocument(uri, { preview: false });
  void vscode.window.showInformationMessage(
    `Terrace: wrote ${[result.path, ...result.companions.map((file) => file.path)].join(' and ')}: ${result.jobs.length} job${result.jobs.length === 1 ? '' : 's'} for ${result.modules} module${result.modules === 1 ? '' : 's'}.`,
  );
  for (const warning of result.warnings) void vscode.window.showWarningMessage(`Terrace: ${warning}`);
  return { written: true, uri: result.uri, path: result.path, jobs: result.jobs };
}

async function chooseCi(): Promise<PipelineParams['ci'] | undefined> {
  const items: (vscode.QuickPickItem & { ci: PipelineParams['ci'] })[] = [
    { label: 'GitLab CI', description: '.gitlab-ci.yml', ci: 'gitlab' },
    { label: 'GitHub Actions', description: '.github/workflows/terrace.yml', ci: 'github' },
  ];
  return (await vscode.window.showQuickPick(items, { placeHolder: 'Generate a pipeline for…' }))?.ci;
}

async function chooseScope(): Promise<'all' | 'changed' | undefined> {
  const items: (vscode.QuickPickItem & { scope: 'all' | 'changed' })[] = [
    { label: 'All modules', detail: 'Plan and apply every module after the modules it depends on', scope: 'all' },
    {
      label: 'Changed modules only',
      detail:
        'Modules changed since a ref (committed or not), the roots calling a changed library module, and their dependents',
      scope: 'changed',
    },
  ];
  return (await vscode.window.showQuickPick(items, { placeHolder: 'Which modules?' }))?.scope;
}

async function askOverwrite(file: string): Promise<boolean> {
  const answer = await vscode.window.showWarningMessage(
    `${file} exists and was not generated by Terrace. Replace it?`,
    { modal: true },
    'Replace',
  );
  return answer === 'Replace';
}
