import * as assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  type CodeLens,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  type Hover,
} from 'vscode-languageserver-protocol/node';
import { moduleFingerprint, updateModuleRecord } from '../../runner/src';
import {
  type GraphModel,
  GraphRequest,
  PanelGraphRequest,
  RunStateChangedNotification,
  RunTargetsRequest,
  type ServerStatusParams,
} from '../../server/src/protocol';
import { unpackGraph } from '../../webview/src/packedGraph';
import { panelOfModel } from '../webview/panelOfModel';
import { LspTestClient, repoRoot } from './lspClient';

/**
 * Run states over a real LSP connection: the server reads `.terrace/state.json` (as a run
 * leaves it) and shows each module's state in its hover, its code lens and the graph model, and
 * answers `terrace/runTargets` with the modules a run covers. No terraform runs here: the state
 * file is written as the runner writes it.
 */
const uri = (file: string) => pathToFileURL(file).href;
const EKS = 'platform/eks';

describe('run states in the language server', () => {
  let root: string;
  let client: LspTestClient;
  let eksFile: string;
  const graph = async () =>
    (await client.connection.sendRequest(GraphRequest.type, { folderUri: uri(root) })) as GraphModel;
  const runStateOf = async (id: string) => (await graph()).modules.find((module) => module.id === id)?.runState;

  before(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'terrace-lsp-run-'));
    cpSync(path.join(repoRoot, 'test', 'fixtures', 'run-levels'), root, { recursive: true });
    eksFile = path.join(root, EKS, 'main.tf');
    client = LspTestClient.start();
    await client.initialize(root);
    await client.waitForNotification<ServerStatusParams>('terrace/serverStatus', (s) => s.health === 'ready', 20_000);
  });

  after(async () => {
    await client.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  test('no run yet: no run state anywhere', async () => {
    assert.ok((await graph()).modules.every((module) => module.runState === undefined));
    const lenses = (await client.connection.sendRequest('textDocument/codeLens', {
      textDocument: { uri: uri(eksFile) },
    })) as CodeLens[];
    assert.equal(lenses[0]!.command!.title, 'level 1 · 1 dependency · 1 dependent');
  });

  test('after a plan with changes: ApplyNeeded in the hover, the code lens and the graph', async () => {
    const time = new Date().toISOString();
    updateModuleRecord(root, EKS, (record) => {
      record.lastPlan = {
        time,
        runId: 'r1',
        kind: 'plan',
        exitCode: 2,
        planFile: '.terrace/runs/r1/platform/eks/plan.tfplan',
        checksum: 'c'.repeat(64),
        counts: { add: 1, change: 0, destroy: 0, import: 0, outputs: 0 },
        fingerprint: moduleFingerprint(path.join(root, EKS)),
        logFile: '.terrace/runs/r1/platform/eks/terraform.log',
      };
    });
    await client.connection.sendNotification(RunStateChangedNotification.type, { folderUri: uri(root) });
    assert.deepEqual(await runStateOf(EKS), {
      state: 'ApplyNeeded',
      reason: '1 to add, 0 to change, 0 to destroy',
      plannedAt: time,
      counts: { add: 1, change: 0, destroy: 0, import: 0, outputs: 0 },
    });
    assert.deepEqual(await runStateOf('app/api'), { state: 'PlanNeeded', reason: 'never planned' });

    const lenses = (await client.connection.sendRequest('textDocument/codeLens', {
      textDocument: { uri: uri(eksFile) },
    })) as CodeLens[];
    assert.equal(lenses[0]!.command!.title, 'level 1 · 1 dependency · 1 dependent · ApplyNeeded');

    const hover = (await client.connection.sendRequest('textDocument/hover', {
      textDocument: { uri: uri(eksFile) },
      position: { line: 2, character: 4 },
    })) as Hover;
    const text = (hover.contents as { value: string }).value;
    assert.match(text, /\n\nRun state: \*\*ApplyNeeded\*\* — 1 to add, 0 to change, 0 to destroy · planned just now$/);
  });

  test("the panel's graph, packed by the server, is the graph model as the page draws it, run states too", async () => {
    const whole = await graph();
    const packed = (await client.connection.sendRequest(PanelGraphRequest.type, { folderUri: uri(root) }))!;
    assert.ok(
      packed.strings.suffixes.length > 0 && packed.edges.count === whole.edges.length && packed.edges.count > 0,
    );
    const drawn = unpackGraph(packed);
    assert.deepEqual(drawn, panelOfModel(whole));
    assert.equal(drawn.modules.find((module) => module.id === EKS)?.runState?.state, 'ApplyNeeded');
    // Each read names its file from its reader's folder, as the host opens it.
    const read = drawn.edges.find((edge) => edge.from === EKS)!;
    const wholeRead = whole.edges.find((edge) => edge.from === EKS)!;
    assert.equal(uri(path.join(root, EKS, read.file)), wholeRead.location.uri);
    assert.equal(
      await client.connection.sendRequest(PanelGraphRequest.type, {
        folderUri: uri(path.join(root, 'no-such-folder')),
      }),
      null,
    );
  });

  test('an edit of the module makes it PlanNeeded', async () => {
    appendFileSync(eksFile, '\n# edited\n');
    // What VS Code's file watcher sends for a saved file.
    await client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: uri(eksFile), type: FileChangeType.Changed }],
    });
    const state = await runStateOf(EKS);
    assert.deepEqual([state?.state, state?.reason], ['PlanNeeded', 'files changed since the last plan']);
  });

  test('terrace/runTargets: the selected modules with their folders, child module folders and dependencies', async () => {
    const result = await client.connection.sendRequest(RunTargetsRequest.type, {
      folderUri: uri(root),
      modules: ['data/db'],
      withDependents: true,
    });
    assert.equal(result.kind, 'targets');
    if (result.kind !== 'targets') return;
    assert.equal(result.root, root);
    assert.deepEqual(result.targets, [
      {
        id: 'app/api',
        kind: 'module',
        dir: path.join(root, 'app/api'),
        sourceDirs: [],
        dependencies: ['data/db', 'platform/eks'],
      },
      {
        id: 'data/db',
        kind: 'module',
        dir: path.join(root, 'data/db'),
        sourceDirs: [path.join(root, 'modules/labels')],
        dependencies: ['network/vpc'],
      },
    ]);
    assert.deepEqual(result.execution, {
      binary: 'terraform',
      binaryChosen: false,
      varFiles: [],
      terragrunt: 'terragrunt',
      parallelism: 0,
      initArgs: [],
      planArgs: [],
      env: {},
      retries: 0,
      init: 'auto',
    });
    const unknown = await client.connection.sendRequest(RunTargetsRequest.type, {
      folderUri: uri(root),
      modules: ['nope'],
    });
    assert.deepEqual(unknown, { kind: 'error', message: "no such module: 'nope'" });
  });
});
