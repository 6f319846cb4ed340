import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { GraphPanel } from '../../../client/src/graphPanel';
import type { RunOutcome } from '../../../client/src/runPlans';
import { type GraphModel, GraphRequest } from '../../../server/src/protocol';
import { startedPrograms } from '../../harness/programSpies.mjs';
import { hoverTextAt, runningApi, waitFor } from '../suite/helpers';

/**
 * Restricted Mode in the real VS Code: workspace trust on, this folder not trusted. The workspace is
 * examples/local (local backends, plannable offline) with examples/cycle under `cycle/`. The runner puts
 * spies named git, terraform, terragrunt and tofu first on the extension host's PATH, each writing its
 * arguments to TERRACE_SPY_LOG before running the real one (when there is one): what Terrace started,
 * seen from outside. Halfway, the suite asks the runner to trust the folder through the workbench
 * (`terrace-trust-workspace` on the console), as a user would with Manage Workspace Trust.
 */
const spyLog = () => process.env.TERRACE_SPY_LOG ?? '';
const started = (): string[] => startedPrograms(spyLog());

suite('Restricted Mode', () => {
  const folder = () => vscode.workspace.workspaceFolders![0]!.uri;
  const api = () => vscode.Uri.joinPath(folder(), 'app/api/main.tf');
  const cycleVpc = () => vscode.Uri.joinPath(folder(), 'cycle/network/vpc/main.tf');

  suiteSetup(async function () {
    this.timeout(60_000);
    assert.ok(spyLog(), 'the runner names the spies’ log');
    await runningApi();
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('the folder is not trusted, and the status item says what is off', async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    const status = await waitFor('the status item, indexed', async () => {
      const shown = (await runningApi()).status();
      return shown.text.includes('$(sync~spin)') ? undefined : shown;
    });
    assert.match(status.text, /\$\(shield\)$/);
    assert.match(status.tooltip, /\*\*Restricted Mode\*\*: Terrace reads the files only\. No process is started/);
    assert.match(status.tooltip, /`\.terrace\.yaml`'s `execution` section is ignored/);
    assert.match(status.tooltip, /\[Manage Workspace Trust\]\(command:workbench\.trust\.manage\)/);
  });

  test('hover, the Problems view and the graph panel work from the files alone', async function () {
    this.timeout(60_000);
    await vscode.window.showTextDocument(api());
    const hover = await hoverTextAt(api(), new vscode.Position(5, 5), 'terraform_remote_state');
    assert.match(hover, /`local:\/\/platform\/cluster\/terraform\.tfstate` → \[platform\/cluster\]/);

    const cycle = await waitFor('the cycle in the Problems view', () =>
      vscode.languages.getDiagnostics(cycleVpc()).find((diagnostic) => diagnostic.code === 'cycle'),
    );
    assert.match(cycle.message, /^Circular dependency: cycle\/network\/vpc -> cycle\/security\/firewall/);

    const panel = await vscode.commands.executeCommand<GraphPanel | undefined>('terrace.showGraph');
    assert.ok(panel, 'the graph panel opens');
    const drawn = await panel.reports.waitForRender();
    const graph = await (await runningApi()).client.sendRequest<GraphModel | null>(GraphRequest.method, {
      folderUri: folder().toString(),
    });
    assert.equal(graph?.modules.length, 10, 'six of examples/local, four of examples/cycle');
    assert.equal(drawn.nodes, graph.modules.length);
    assert.equal(drawn.edges, graph.edges.length);
  });

  test('Run Plans, Apply Saved Plans and Check Drift are refused with the way to trust; nothing was started', async () => {
    const runs: [string, RunOutcome][] = [];
    for (const command of ['terrace.runPlans', 'terrace.applySavedPlans', 'terrace.checkDrift'])
      runs.push([
        command,
        await vscode.commands.executeCommand<RunOutcome>(command, { folderUri: folder().toString() }),
      ]);
    for (const [command, outcome] of runs) {
      assert.equal(outcome.ran, false, command);
      assert.equal(outcome.reason, 'untrusted', command);
      assert.match(outcome.message ?? '', /runs only in a trusted workspace, and this one is in Restricted Mode\.$/);
    }
    // The affected view asks git: refused too, with the reason.
    const affected = await (await runningApi()).client.sendRequest<{ kind: string; message?: string }>(
      'terrace/affected',
      { folderUri: folder().toString(), baseRef: 'HEAD' },
    );
    assert.equal(affected.kind, 'error');
    assert.match(affected.message ?? '', /^Restricted Mode: /);
    assert.deepEqual(started(), [], 'no git, terraform, terragrunt or tofu was started');
  });

  test('trusted through the workbench: no reload, the status item clears, and Run Plans runs terraform', async function () {
    this.timeout(180_000);
    const granted = new Promise<void>((resolve) => vscode.workspace.onDidGrantWorkspaceTrust(() => resolve()));
    console.log('terrace-trust-workspace');
    await granted;
    assert.equal(vscode.workspace.isTrusted, true);
    const api = await runningApi();
    assert.doesNotMatch(api.status().text, /shield/);
    assert.doesNotMatch(api.status().tooltip, /Restricted Mode/);

    const outcome = await vscode.commands.executeCommand<RunOutcome>('terrace.runPlans', {
      folderUri: folder().toString(),
      modules: ['network/vpc'],
    });
    assert.ok(outcome.ran, JSON.stringify(outcome));
    assert.deepEqual(
      outcome.results?.map((result) => [result.id, result.status]),
      [['network/vpc', 'succeeded']],
    );
    assert.ok(
      started().some((call) => /^terraform .*plan/.test(call)),
      `terraform was started once trusted: ${started().join('; ')}`,
    );
  });
});
