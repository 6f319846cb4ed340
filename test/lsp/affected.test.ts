import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Hover } from 'vscode-languageserver-protocol';
import { parse } from 'yaml';
import {
  AffectedRequest,
  FileReadersRequest,
  type GraphModel,
  GraphRequest,
  PipelineRequest,
  RunTargetsRequest,
  ServerStatusNotification,
} from '../../server/src/protocol';
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
    assert.equal(result.why[changed], 'its own file main.tf');
    for (const id of downstream) if (id !== changed) assert.match(result.why[id]!, /^depends on /, id);
    execFileSync('git', ['checkout', '-q', '--', '.'], { cwd: workspace });
  });

  test('a file read from outside a module: the modules it reaches say how, the file says who reads it', async () => {
    const client = await ready(workspace);
    const folderUri = pathToFileURL(workspace).href;
    const shared = path.join(workspace, 'modules', 'stack-outputs', 'main.tf');
    appendFileSync(shared, '\n# a change to the shared child module\n');
    const result = await client.connection.sendRequest(AffectedRequest.type, { folderUri, baseRef: 'HEAD' });
    assert.equal(result.kind, 'affected');
    if (result.kind !== 'affected') return;
    const callers = ['app/prod/eu-central-1/api', 'app/prod/eu-central-1/worker', 'app/stage/eu-central-1/api'];
    for (const id of callers) assert.ok(result.changed.includes(id), `${id} calls the module`);
    assert.match(
      result.why['app/prod/eu-central-1/api']!,
      /^reads modules\/stack-outputs\/main\.tf \(module\.\w+, main\.tf:\d+\)$/,
    );

    const readers = await client.connection.sendRequest(FileReadersRequest.type, { uri: pathToFileURL(shared).href });
    assert.deepEqual(
      readers.map((reader) => reader.id),
      result.changed,
    );
    assert.ok(readers.every((reader) => !reader.own));
    const api = readers.find((reader) => reader.id === 'app/prod/eu-central-1/api')!;
    assert.equal(api.location.uri, pathToFileURL(path.join(workspace, 'app/prod/eu-central-1/api/main.tf')).href);
    const own = await client.connection.sendRequest(FileReadersRequest.type, {
      uri: pathToFileURL(path.join(workspace, 'app/prod/eu-central-1/api/main.tf')).href,
    });
    assert.deepEqual(
      own.map((reader) => [reader.id, reader.own, reader.why]),
      [['app/prod/eu-central-1/api', true, 'its own file main.tf']],
    );
    assert.deepEqual(
      await client.connection.sendRequest(FileReadersRequest.type, {
        uri: pathToFileURL(path.join(workspace, 'README.md')).href,
      }),
      [],
    );

    // A data file read through file(), and the hover on the module that reads it.
    const apiFile = path.join(workspace, 'app/prod/eu-central-1/api/main.tf');
    writeFileSync(path.join(workspace, 'policy.json'), '{}\n');
    appendFileSync(
      apiFile,
      '\nresource "terraform_data" "policy" {\n  input = file("${path.module}/../../../../policy.json")\n}\n',
    );
    await client.open(apiFile, readFileSync(apiFile, 'utf8'));
    const policy = await client.connection.sendRequest(FileReadersRequest.type, {
      uri: pathToFileURL(path.join(workspace, 'policy.json')).href,
    });
    assert.deepEqual(
      policy.map((reader) => reader.id),
      ['app/prod/eu-central-1/api'],
    );
    assert.match(policy[0]!.why, /^reads policy\.json \(file\(\), main\.tf:\d+\)$/);
    const hover = (await client.connection.sendRequest('textDocument/hover', {
      textDocument: { uri: pathToFileURL(apiFile).href },
      position: { line: 1, character: 4 },
    })) as Hover;
    const text = (hover.contents as { value: string }).value;
    assert.match(
      text,
      /\n\nReads outside its folder \(2\): \[policy\.json\]\(file:\/\/[^)]+\/policy\.json\) \(file\\\(\\\)\), \[modules\/stack-outputs\/\]\(file:\/\/[^)]+\/api\/main\.tf#L\d+\) \(module\.\w+\)$/,
    );
    execFileSync('git', ['checkout', '-q', '--', '.'], { cwd: workspace });
    rmSync(path.join(workspace, 'policy.json'));
  });

  test('Run Plans of the changes: each target says whether the change reaches it and what it reads upstream', async () => {
    const client = await ready(workspace);
    const folderUri = pathToFileURL(workspace).href;
    const vpc = 'network/prod/eu-central-1/vpc';
    appendFileSync(path.join(workspace, vpc, 'main.tf'), '\n# a change not committed yet\n');
    const result = await client.connection.sendRequest(RunTargetsRequest.type, {
      folderUri,
      changedOnly: true,
      baseRef: 'HEAD',
    });
    assert.equal(result.kind, 'targets');
    if (result.kind !== 'targets') return;
    const byId = new Map(result.targets.map((target) => [target.id, target]));
    assert.deepEqual(byId.get(vpc)!.gate, { changed: true, reads: {} });
    assert.deepEqual(byId.get('platform/prod/eu-central-1/eks')!.gate, {
      changed: false,
      reads: { [vpc]: ['vpc_id'], 'network/prod/eu-central-1/dns': ['zone_id'] },
    });
    execFileSync('git', ['checkout', '-q', '--', '.'], { cwd: workspace });
  });

  test('Generate Pipeline of the changes: each dependent decides from the outputs it reads, as terrace generate writes it', async () => {
    const client = await ready(workspace);
    const folderUri = pathToFileURL(workspace).href;
    const vpc = 'network/prod/eu-central-1/vpc';
    appendFileSync(path.join(workspace, vpc, 'main.tf'), '\n# a change not committed yet\n');
    const result = await client.connection.sendRequest(PipelineRequest.type, {
      folderUri,
      ci: 'gitlab',
      changedOnly: true,
      baseRef: 'HEAD',
    });
    assert.equal(result.kind, 'pipeline');
    if (result.kind !== 'pipeline') return;
    const yaml = parse(result.text) as Record<string, { variables?: Record<string, string> }>;
    const spec = (id: string) => JSON.parse(yaml[`plan-${id.replaceAll('/', '-')}`]!.variables!['TERRACE_GATE']!);
    assert.equal(spec(vpc).changed, true);
    // What it reads of each module it depends on in the pipeline (dns reads the vpc too).
    assert.deepEqual(spec('platform/prod/eu-central-1/eks').reads, {
      [vpc]: '= vpc_id',
      'network/prod/eu-central-1/dns': '= zone_id',
    });
    assert.equal(spec('platform/prod/eu-central-1/eks').changed, false);
    assert.match(
      result.text,
      /^# regenerate with `terrace generate --ci gitlab --changed-only --base-ref HEAD --output \.gitlab-ci\.yml`/m,
    );
    execFileSync('git', ['checkout', '-q', '--', '.'], { cwd: workspace });
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
