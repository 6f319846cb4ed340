import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { RunOutcome } from '../../../client/src/runPlans';
import type { GraphModel } from '../../../server/src/protocol';
import { copyFixtureIntoWorkspace, hoverTextAt, runningApi, waitFor } from './helpers';

/**
 * Terragrunt units in the real VS Code: the terragrunt-units fixture is copied into the workspace
 * (a scratch copy) as `terragrunt-live/`; the hover on a `dependency` block, go to definition, and
 * the cycle of `dependency` blocks and a missing unit in the Problems view. The folder is removed
 * at the end, so the suites after see the workspace as it was.
 */
const LIVE = 'terragrunt-live';

suite('Terragrunt units', () => {
  let root: string;
  let folderUri: string;
  const file = (relative: string) => vscode.Uri.file(path.join(root, LIVE, relative));
  const graph = async () => {
    const api = await runningApi();
    return api.client.sendRequest<GraphModel | null>('terrace/graph', { folderUri });
  };

  suiteSetup(async function () {
    this.timeout(60_000);
    await runningApi();
    ({ root, folderUri } = await copyFixtureIntoWorkspace('terragrunt-units', LIVE));
    await waitFor(
      'the units to be indexed',
      async () => {
        // Every unit, and every file read: the edges of the fixture (its expected.json) and the vpc's state address.
        const model = await graph();
        const units = model?.modules.filter((module) => module.kind === 'unit' && module.id.startsWith(`${LIVE}/`));
        const vpc = model?.modules.find((module) => module.id === `${LIVE}/live/prod/network/vpc`);
        const edges = model?.edges.filter((edge) => edge.from.startsWith(`${LIVE}/`));
        return (
          units?.length === 6 &&
          edges?.length === 8 &&
          vpc?.backend?.address === 's3://acme-tg-state/live/prod/network/vpc/terraform.tfstate'
        );
      },
      30_000,
    );
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(path.join(root, LIVE), { recursive: true, force: true });
  });

  test('the hover on a dependency block names the unit it depends on, its level and the state it writes', async () => {
    const eks = file('live/prod/platform/eks/terragrunt.hcl');
    await vscode.window.showTextDocument(eks);
    const text = await hoverTextAt(eks, new vscode.Position(8, 3), 'dependency.vpc');
    assert.match(text, /\*\*dependency\.vpc\*\*/);
    assert.match(
      text,
      /`\.\.\/\.\.\/network\/vpc` → \[terragrunt-live\/live\/prod\/network\/vpc\]\(file:\/\/\S+\/live\/prod\/network\/vpc\/terragrunt\.hcl#L1\) · level 0 · writes `s3:\/\/acme-tg-state\/live\/prod\/network\/vpc\/terraform\.tfstate`/,
    );
  });

  test('go to definition on a dependency block opens the unit’s terragrunt.hcl', async () => {
    const eks = file('live/prod/platform/eks/terragrunt.hcl');
    await vscode.window.showTextDocument(eks);
    const locations = await waitFor('a definition', async () => {
      const found = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
        'vscode.executeDefinitionProvider',
        eks,
        new vscode.Position(9, 4),
      );
      return found.length > 0 ? found : undefined;
    });
    assert.equal(locations.length, 1);
    const target = locations[0]!;
    const uri = 'targetUri' in target ? target.targetUri : target.uri;
    assert.equal(uri.fsPath, file('live/prod/network/vpc/terragrunt.hcl').fsPath);
  });

  test('the cycle of dependency blocks is an error on each of them; a dependency on no unit is an error on its line', async () => {
    const alpha = file('live/ops/alpha/terragrunt.hcl');
    const beta = file('live/ops/beta/terragrunt.hcl');
    const cycle = `Circular dependency: ${LIVE}/live/ops/alpha -> ${LIVE}/live/ops/beta -> ${LIVE}/live/ops/alpha`;
    for (const [uri, other] of [
      [alpha, 'beta'],
      [beta, 'alpha'],
    ] as const) {
      const error = await waitFor(`the cycle error on ${uri.path}`, () =>
        vscode.languages.getDiagnostics(uri).find((d) => d.code === 'cycle'),
      );
      assert.equal(error.severity, vscode.DiagnosticSeverity.Error);
      assert.equal(error.message, cycle);
      assert.equal(error.range.start.line, 5, `the dependency "${other}" block`);
      assert.equal(error.relatedInformation?.length, 1);
    }
    const worker = file('live/prod/apps/worker/terragrunt.hcl');
    const missing = await waitFor('the missing unit error', () =>
      vscode.languages.getDiagnostics(worker).find((d) => d.code === 'missing-unit'),
    );
    assert.equal(missing.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(missing.message, '../queue is not a Terragrunt unit of this workspace (no terragrunt.hcl there)');
    assert.equal(missing.range.start.line, 13);
  });

  test('an unsaved edit of a terragrunt.hcl that drops a dependency ends the cycle', async () => {
    const alpha = file('live/ops/alpha/terragrunt.hcl');
    const editor = await vscode.window.showTextDocument(alpha);
    const original = editor.document.getText();
    await editor.edit((edit) =>
      edit.replace(
        new vscode.Range(editor.document.positionAt(0), editor.document.positionAt(original.length)),
        original.replace(/dependency "beta" \{[^}]*\}/, ''),
      ),
    );
    await waitFor(
      'the cycle errors to be cleared',
      () =>
        !vscode.languages.getDiagnostics(alpha).some((d) => d.code === 'cycle') &&
        !vscode.languages.getDiagnostics(file('live/ops/beta/terragrunt.hcl')).some((d) => d.code === 'cycle'),
    );
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await waitFor('the cycle error back after the revert', () =>
      vscode.languages.getDiagnostics(alpha).some((d) => d.code === 'cycle'),
    );
  });

  test('Run Plans on a unit where terragrunt is not installed: one clear error naming the unit, nothing runs', async () => {
    const outcome = await vscode.commands.executeCommand<RunOutcome>('terrace.runPlans', {
      folderUri,
      modules: [`${LIVE}/live/prod/network/vpc`],
    });
    assert.equal(outcome.ran, false);
    assert.equal(outcome.reason, 'error');
    assert.equal(
      outcome.message,
      `terragrunt was not found on PATH, needed by the Terragrunt unit ${LIVE}/live/prod/network/vpc; install it or set terrace.terragruntPath (or execution.terragrunt in .terrace.yaml) to its path`,
    );
    assert.ok(!vscode.window.terminals.some((terminal) => terminal.name === 'Terrace: plan'), 'no terminal opened');
  });
});
