import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { RunOutcome } from '../../../client/src/runPlans';
import type { GraphModel } from '../../../server/src/protocol';
import { hoverTextAt, runningApi, terraceExtension, waitFor } from './helpers';

/**
 * Run Plans in the real VS Code, with the real terraform. The tier's workspace uses s3 backends,
 * which cannot run offline, so the run-levels fixture (local backends only) is copied into the
 * workspace (itself a scratch copy) as `local-run/`, applied there, and only its modules are run.
 * The folder is removed at the end, so the suites before see the workspace as it was.
 */
const LOCAL = 'local-run';
const VPC = `${LOCAL}/network/vpc`;
const AUDIT = `${LOCAL}/tools/audit`;
const EKS = `${LOCAL}/platform/eks`;
const DB = `${LOCAL}/data/db`;
const API = `${LOCAL}/app/api`;
const MODULES = [VPC, AUDIT, EKS, DB, API];

suite('run plans', () => {
  let root: string;
  let dir: string;
  let folderUri: string;
  const graph = async () => {
    const api = await runningApi();
    return api.client.sendRequest<GraphModel | null>('terrace/graph', { folderUri });
  };
  const runStateOf = async (id: string) => (await graph())?.modules.find((module) => module.id === id)?.runState;

  suiteSetup(async function () {
    this.timeout(120_000);
    await runningApi();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'a workspace folder is open');
    root = folder.uri.fsPath;
    folderUri = folder.uri.toString();
    dir = path.join(root, LOCAL);
    cpSync(path.join(terraceExtension().extensionPath, 'test', 'fixtures', 'run-levels'), dir, { recursive: true });
    const env = { ...process.env, TF_IN_AUTOMATION: '1', TF_INPUT: '0' };
    for (const module of MODULES) {
      const cwd = path.join(root, module);
      execFileSync('terraform', ['init', '-input=false', '-no-color'], { cwd, env, stdio: 'ignore' });
      execFileSync('terraform', ['apply', '-auto-approve', '-input=false', '-no-color'], { cwd, env, stdio: 'ignore' });
    }
    appendFileSync(path.join(root, EKS, 'main.tf'), '\nresource "terraform_data" "extra" {\n  input = "extra"\n}\n');
    // The server sees new files through the file watcher; opening them makes sure, whatever the watcher's delay.
    for (const module of MODULES) await vscode.workspace.openTextDocument(path.join(root, module, 'main.tf'));
    await waitFor(
      'the local-run modules to be indexed',
      async () => {
        const ids = new Set((await graph())?.modules.map((module) => module.id));
        return MODULES.every((id) => ids.has(id));
      },
      30_000,
    );
  });

  suiteTeardown(async () => {
    for (const terminal of vscode.window.terminals) if (terminal.name.startsWith('Terrace: ')) terminal.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (root) rmSync(path.join(root, '.terrace'), { recursive: true, force: true });
  });

  test('Terrace: Run Plans opens the Terrace: plan terminal, plans in dependency order and shows the summary', async function () {
    this.timeout(120_000);
    const outcome = await vscode.commands.executeCommand<RunOutcome>('terrace.runPlans', {
      folderUri,
      modules: MODULES,
      parallelism: 4,
    });
    assert.ok(outcome.ran, JSON.stringify(outcome));
    assert.equal(outcome.terminalName, 'Terrace: plan');
    assert.ok(
      vscode.window.terminals.some((terminal) => terminal.name === 'Terrace: plan'),
      'the terminal is open',
    );
    assert.deepEqual(
      Object.fromEntries(outcome.results!.map((result) => [result.id, [result.status, result.summary]])),
      {
        [VPC]: ['succeeded', 'no changes'],
        [AUDIT]: ['succeeded', 'no changes'],
        [EKS]: ['succeeded', '1 to add, 0 to change, 0 to destroy'],
        [DB]: ['succeeded', 'no changes'],
        [API]: ['succeeded', 'no changes'],
      },
    );
    const text = outcome.terminalText!;
    assert.match(text, /^Terrace plan: 5 modules, parallelism 4, Terraform v/);
    assert.match(text, /^local-run\/platform\/eks │ Plan: 1 to add, 0 to change, 0 to destroy\.$/m);
    assert.match(text, /^± local-run\/platform\/eks: 1 to add, 0 to change, 0 to destroy \(\d+\.\ds\)$/m);
    const table = text.slice(text.indexOf('  Module'));
    assert.deepEqual(
      table
        .split('\n')
        .slice(1, 6)
        .map((line) => line.trim().split(/ {2,}/)[0]),
      [VPC, AUDIT, DB, EKS, API],
    );
    assert.match(text, /\n5 modules: 1 with changes, 4 without changes in \d+\.\ds\n/);
    // The saved plan and the full log, where the summary's links point.
    const log = path.join(outcome.runDir!, LOCAL, 'platform', 'eks', 'terraform.log');
    assert.match(readFileSync(log, 'utf8'), /Plan: 1 to add, 0 to change, 0 to destroy\./);
    // The server shows the new run states (the graph panel draws them; hovers and code lenses say them).
    const eks = await waitFor('eks to need an apply', async () => {
      const state = await runStateOf(EKS);
      return state?.state === 'ApplyNeeded' ? state : undefined;
    });
    assert.equal(eks.reason, '1 to add, 0 to change, 0 to destroy');
    assert.equal((await runStateOf(API))?.state, 'Idle');
  });

  test('Terrace: Apply Saved Plans applies the current saved plan; a dependent whose reads it leaves alone is unaffected', async function () {
    this.timeout(120_000);
    const outcome = await vscode.commands.executeCommand<RunOutcome>('terrace.applySavedPlans', {
      folderUri,
      confirmed: true,
    });
    assert.ok(outcome.ran, JSON.stringify(outcome));
    assert.equal(outcome.terminalName, 'Terrace: apply');
    // api reads eks's cluster_name, which the apply leaves as it was: terraform is not started in it.
    assert.deepEqual(
      outcome.results!.map((result) => [result.id, result.status, result.message]),
      [
        [EKS, 'succeeded', undefined],
        [API, 'unaffected', `reads cluster_name of ${EKS}: unchanged by its apply`],
      ],
    );
    assert.deepEqual(outcome.refused, []);
    assert.match(outcome.terminalText!, /^✔ local-run\/platform\/eks: applied: 1 added, 0 changed, 0 destroyed \(/m);
    const state = JSON.parse(readFileSync(path.join(root, EKS, 'terraform.tfstate'), 'utf8'));
    assert.ok(state.resources.some((resource: { name: string }) => resource.name === 'extra'));
    await waitFor('eks to be Idle', async () => (await runStateOf(EKS))?.state === 'Idle');
    // Its plan stays current: the apply upstream changed nothing it reads. The hover says why.
    const api = await runStateOf(API);
    assert.deepEqual([api?.state, api?.reason, api?.decided?.status], ['Idle', 'no changes', 'unaffected']);
    const hover = await hoverTextAt(
      vscode.Uri.file(path.join(root, API, 'main.tf')),
      new vscode.Position(2, 5),
      'not run: reads',
    );
    // The hover's Markdown escapes the punctuation of ids.
    assert.ok(
      hover
        .replace(/\\(.)/g, '$1')
        .includes(`Unaffected just now, not run: reads cluster_name of ${EKS}: unchanged by its apply`),
      hover,
    );
    // Nothing left to apply.
    const again = await vscode.commands.executeCommand<RunOutcome>('terrace.applySavedPlans', {
      folderUri,
      confirmed: true,
    });
    assert.deepEqual([again.ran, again.reason], [false, 'nothing']);
  });

  test('Apply Saved Plans: an apply that changes an output plans and applies what reads it, on the new value', async function () {
    this.timeout(180_000);
    const vpcFile = path.join(root, VPC, 'main.tf');
    writeFileSync(vpcFile, readFileSync(vpcFile, 'utf8').replace('10.20.0.0/16', '10.21.0.0/16'));
    await vscode.workspace.openTextDocument(vpcFile);
    const planned = await vscode.commands.executeCommand<RunOutcome>('terrace.runPlans', { folderUri, modules: [VPC] });
    assert.deepEqual(
      planned.results!.map((result) => [result.id, result.summary]),
      [[VPC, '0 to add, 1 to change, 0 to destroy']],
    );
    const outcome = await vscode.commands.executeCommand<RunOutcome>('terrace.applySavedPlans', {
      folderUri,
      confirmed: true,
    });
    assert.ok(outcome.ran, JSON.stringify(outcome));
    // eks and db read vpc_cidr: planned afresh and applied; api reads neither's changed outputs.
    assert.deepEqual(Object.fromEntries(outcome.results!.map((result) => [result.id, result.status])), {
      [VPC]: 'succeeded',
      [EKS]: 'succeeded',
      [DB]: 'succeeded',
      [API]: 'unaffected',
    });
    const text = outcome.terminalText!;
    assert.match(
      text,
      /^✔ local-run\/network\/vpc: applied: 0 added, 1 changed, 0 destroyed; outputs changed: vpc_cidr/m,
    );
    assert.match(text, new RegExp(`^▶ ${EKS}: planning and applying, as ${VPC}'s apply changed vpc_cidr$`, 'm'));
    assert.match(text, /^✔ local-run\/data\/db: applied: 0 added, 1 changed, 0 destroyed/m);
    const cluster = JSON.parse(readFileSync(path.join(root, EKS, 'terraform.tfstate'), 'utf8'));
    assert.ok(JSON.stringify(cluster.resources).includes('eks in 10.21.0.0/16'), 'eks applied on the new cidr');
    const states = async () => Promise.all([VPC, EKS, DB, API].map(async (id) => [id, (await runStateOf(id))?.reason]));
    await waitFor('the four to be Idle', async () =>
      (await Promise.all([VPC, EKS, DB, API].map(runStateOf))).every((state) => state?.state === 'Idle'),
    ).catch(async () => assert.fail(JSON.stringify(await states())));
  });

  suite('stopping a run', () => {
    let wrapper: string;
    const sleepers = () =>
      readdirSync('/proc')
        .filter((name) => /^\d+$/.test(name))
        .filter((name) => {
          try {
            return readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim() === 'sleep 37';
          } catch {
            return false;
          }
        });

    suiteSetup(async () => {
      // A terraform whose plans take 37 s: long enough to be stopped.
      const real = execFileSync('sh', ['-c', 'command -v terraform'], { encoding: 'utf8' }).trim();
      wrapper = path.join(root, '.slow-terraform');
      writeFileSync(wrapper, `#!/bin/sh\nif [ "$1" = plan ]; then sleep 37; fi\nexec ${real} "$@"\n`);
      chmodSync(wrapper, 0o755);
      await vscode.workspace
        .getConfiguration('terrace')
        .update('terraformPath', wrapper, vscode.ConfigurationTarget.Workspace);
    });

    suiteTeardown(async () => {
      await vscode.workspace
        .getConfiguration('terrace')
        .update('terraformPath', undefined, vscode.ConfigurationTarget.Workspace);
      rmSync(wrapper, { force: true });
    });

    test('Terrace: Stop Run cancels the run and leaves no terraform process', async function () {
      this.timeout(60_000);
      const running = vscode.commands.executeCommand<RunOutcome>('terrace.runPlans', {
        folderUri,
        modules: [VPC, AUDIT, EKS],
      });
      await waitFor('two slow plans', () => sleepers().length === 2);
      assert.equal(await vscode.commands.executeCommand('terrace.stopRun'), true);
      const outcome = await running;
      assert.ok(outcome.ran && outcome.cancelled, JSON.stringify(outcome));
      assert.deepEqual(
        outcome.results!.map((result) => [result.id, result.status]).sort(),
        [
          [VPC, 'cancelled'],
          [EKS, 'cancelled'],
          [AUDIT, 'cancelled'],
        ].sort(),
      );
      assert.match(outcome.terminalText!, /^■ local-run\/platform\/eks: cancelled$/m);
      await waitFor('the plans to be gone', () => sleepers().length === 0, 10_000);
      assert.equal(await vscode.commands.executeCommand('terrace.stopRun'), false, 'nothing left to stop');
    });

    test('Ctrl+C in the Terrace: plan terminal stops the run', async function () {
      this.timeout(60_000);
      const running = vscode.commands.executeCommand<RunOutcome>('terrace.runPlans', {
        folderUri,
        modules: [AUDIT],
      });
      await waitFor('the slow plan', () => sleepers().length === 1);
      // The newest: the terminal of an earlier run may still be listed while it goes away.
      const terminal = vscode.window.terminals.findLast((candidate) => candidate.name === 'Terrace: plan');
      assert.ok(terminal, 'the run has its terminal');
      terminal.sendText('\x03', false);
      const outcome = await running;
      assert.ok(outcome.cancelled, JSON.stringify(outcome));
      assert.match(outcome.terminalText!, /\^C\n/);
      assert.match(outcome.terminalText!, /^■ local-run\/tools\/audit: cancelled \(\d+\.\ds\)$/m);
      await waitFor('the plan to be gone', () => sleepers().length === 0, 10_000);
    });

    test('closing the Terrace: plan terminal stops the run', async function () {
      this.timeout(60_000);
      const running = vscode.commands.executeCommand<RunOutcome>('terrace.runPlans', {
        folderUri,
        modules: [VPC],
      });
      await waitFor('the slow plan', () => sleepers().length === 1);
      // The newest: the terminal of an earlier run may still be listed while it goes away.
      const terminal = vscode.window.terminals.findLast((candidate) => candidate.name === 'Terrace: plan');
      assert.ok(terminal, 'the run has its terminal');
      terminal.dispose();
      const outcome = await running;
      assert.ok(outcome.cancelled, JSON.stringify(outcome));
      assert.deepEqual(
        outcome.results!.map((result) => result.status),
        ['cancelled'],
      );
      await waitFor('the plan to be gone', () => sleepers().length === 0, 10_000);
    });
  });
});
