import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { AffectedRequest, type GraphModel, GraphRequest, ServerStatusNotification } from '../../server/src/protocol';
import { LspTestClient, repoRoot } from './lspClient';

/** The graph panel's "affected by my changes": the server's answer on a real git repository. */
describe('terrace/affected (real git)', () => {
  let workspace: string;
  const clients: LspTestClient[] = [];
  const ready = async (folder: string) => {
    const client = LspTestClient.start();
    clients.push(client);
    await client.initialize(folder);
    await client.waitForNotification(ServerStatusNotification.type, (s) => s.health === 'ready');
    return client;
  };
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Terrace', '-c', 'user.email=terrace@example.test', ...args], {
      cwd: workspace,
      stdio: 'ignore',
    });

  before(() => {
    workspace = mkdtempSync(path.join(os.tmpdir(), 'terrace-affected-'));
    cpSync(path.join(repoRoot, 'examples', 'monorepo'), workspace, { recursive: true });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'the monorepo');
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.dispose()));
  });
  after(() => {
    rmSync(workspace, { recursive: true, force: true });
  });

  test('an uncommitted change of one module: it, and everything downstream of it', async () => {
    const client = await ready(workspace);
    const folderUri = pathToFileURL(workspace).href;
    const graph = (await client.connection.sendRequest(GraphRequest.type, { folderUri })) as GraphModel;
    const changed = graph.modules.find((m) => m.id.endsWith('/vpc'))!.id;
    appendFileSync(path.join(workspace, changed, 'main.tf'), '\n# a change not committed yet\n');

    const result = await client.connection.sendRequest(AffectedRequest.type, { folderUri, baseRef: 'HEAD' });
    assert.equal(result.kind, 'affected');
    if (result.kind !== 'affected') return;
    assert.equal(result.baseRef, 'HEAD');
    assert.deepEqual(result.changed, [changed]);
    // Downstream: every module that reads, directly or not, the changed one's state.
    const downstream = new Set([changed]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const edge of graph.edges) {
        if (downstream.has(edge.to) && !downstream.has(edge.from)) {
          downstream.add(edge.from);
          grew = true;
        }
      }
    }
    assert.ok(downstream.size > 2, `${changed} has dependents`);
    assert.deepEqual(result.affected, [...downstream].sort());
  });

  test('outside git, or an unknown ref: a message, not a failure', async () => {
    const client = await ready(workspace);
    const folderUri = pathToFileURL(workspace).href;
    const unknown = await client.connection.sendRequest(AffectedRequest.type, { folderUri, baseRef: 'no-such-ref' });
    assert.equal(unknown.kind, 'error');
    assert.match(unknown.kind === 'error' ? unknown.message : '', /no-such-ref/);
    const empty = await client.connection.sendRequest(AffectedRequest.type, { folderUri, baseRef: '  ' });
    assert.deepEqual(empty, { kind: 'error', message: 'affected modules need a base ref, e.g. origin/main' });
  });
});
