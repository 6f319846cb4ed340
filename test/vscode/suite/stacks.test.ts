import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { GraphPanel } from '../../../client/src/graphPanel';
import type { RunOutcome } from '../../../client/src/runPlans';
import type { EnvironmentsResult, GraphModel } from '../../../server/src/protocol';
import { copyFixtureIntoWorkspace, hoverTextAt, runningApi, waitFor } from './helpers';

/**
 * Terraform Stacks in the real VS Code: the terraform-stacks fixture is copied into the workspace (a
 * scratch copy) as `terraform-stacks/`; the hover on a `component` block, and the cycle among components
 * and a reference to a component the Stack does not have in the Problems view. The folder is removed at
 * the end.
 */
const STACKS = 'terraform-stacks';

suite('Terraform Stacks', () => {
  let root: string;
  let folderUri: string;
  const file = (relative: string) => vscode.Uri.file(path.join(root, STACKS, relative));
  const graph = async () => {
    const api = await runningApi();
    return api.client.sendRequest<GraphModel | null>('terrace/graph', { folderUri });
  };

  suiteSetup(async function () {
    this.timeout(60_000);
    await runningApi();
    ({ root, folderUri } = await copyFixtureIntoWorkspace(STACKS, STACKS));
    await waitFor(
      'the components to be indexed',
      async () => {
        const model = await graph();
        const components = model?.modules.filter(
          (module) => module.kind === 'component' && module.id.startsWith(`${STACKS}/`),
        );
        return components?.length === 13;
      },
      30_000,
    );
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(path.join(root, STACKS), { recursive: true, force: true });
  });

  test('the hover on a component block names it, its level, what it waits for and its module', async () => {
    const components = file('platform/components.tfcomponent.hcl');
    await vscode.window.showTextDocument(components);
    const text = await hoverTextAt(components, new vscode.Position(16, 12), 'Stacks component');
    // network waits for the account root, whose state its module reads: cluster is a level further.
    assert.match(text, /\*\*Stacks component `terraform-stacks\/platform\/component\.cluster`\*\* · level 2/);
    assert.match(text, /Depends on \(1\): \[terraform-stacks\/platform\/component\.network\]/);
    assert.match(text, /Module `\.\/modules\/cluster`/);
    assert.match(text, /HCP Terraform, which plans it/);
  });

  test('the cycle among components is an error on each reference; a component the Stack lacks is an error on its line', async () => {
    const components = file('platform/components.tfcomponent.hcl');
    const cycle = `Circular dependency: ${STACKS}/platform/component.audit -> ${STACKS}/platform/component.logging -> ${STACKS}/platform/component.audit`;
    const errors = await waitFor('the cycle errors', () => {
      const found = vscode.languages.getDiagnostics(components).filter((d) => d.code === 'cycle');
      return found.length === 2 ? found : undefined;
    });
    assert.deepEqual(errors.map((error) => [error.range.start.line, error.severity, error.message]).sort(), [
      [68, vscode.DiagnosticSeverity.Error, cycle],
      [75, vscode.DiagnosticSeverity.Error, cycle],
    ]);
    const unknown = vscode.languages.getDiagnostics(components).find((d) => d.code === 'unknown-component');
    assert.equal(unknown?.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(unknown?.range.start.line, 76);
    assert.equal(unknown?.message, 'This Stack has no component "reports" (component.reports)');
  });

  test('Terrace: Select Environment lists the Stack’s deployments; one selected gives the component’s module its values', async () => {
    const select = (environment: string | null) =>
      vscode.commands.executeCommand<EnvironmentsResult>('terrace.selectEnvironment', environment, folderUri);
    const networkReads = async () =>
      (await graph())?.edges.filter((edge) => edge.from === `${STACKS}/platform/component.network`);
    try {
      // The workspace names prod by a tfvars file; stage is a deployment of the Stack alone.
      assert.deepEqual(await select('prod'), { environments: ['prod', 'stage'], selected: 'prod' });
      assert.deepEqual(
        (await networkReads())?.map((edge) => [edge.to, edge.match]),
        [[`${STACKS}/account`, 'exact']],
      );
      await select('stage');
      const moduleFile = file('platform/modules/network/main.tf');
      const warning = await waitFor('the stage read that no root writes, in the Problems view', () =>
        vscode.languages.getDiagnostics(moduleFile).find((d) => /account\/stage\/terraform\.tfstate/.test(d.message)),
      );
      assert.equal(warning.severity, vscode.DiagnosticSeverity.Warning);
      assert.equal(warning.range.start.line, 9);
      assert.deepEqual(await networkReads(), []);
    } finally {
      await select(null);
    }
  });

  test('Show Graph draws each Stack as a box around its components', async () => {
    // A new panel: one left open by another suite would keep the grouping its user chose.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.window.showTextDocument(file('platform/components.tfcomponent.hcl'));
    const panel = await vscode.commands.executeCommand<GraphPanel | undefined>('terrace.showGraph');
    assert.ok(panel);
    try {
      const drawn = await panel.reports.waitForRender((report) => report.boxes.length > 0);
      assert.deepEqual(drawn.boxes.sort(), [
        `${STACKS}/network`,
        `${STACKS}/platform`,
        `${STACKS}/platform/observability`,
      ]);
    } finally {
      panel.panel.dispose();
    }
  });

  test('Run Plans on a component alone runs nothing and says that HCP Terraform plans it', async () => {
    const outcome = await vscode.commands.executeCommand<RunOutcome>('terrace.runPlans', {
      folderUri,
      modules: [`${STACKS}/platform/component.cluster`],
    });
    assert.deepEqual([outcome.ran, outcome.reason], [false, 'nothing']);
    assert.equal(
      outcome.message,
      'Terrace: nothing to run: Terraform Stacks components are planned by HCP Terraform (terraform stacks plan), not by Terrace.',
    );
  });
});
