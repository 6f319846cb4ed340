import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { DidChangeConfigurationNotification, TextDocumentSyncKind } from 'vscode-languageserver-protocol/node';
import {
  GraphChangedNotification,
  type GraphModel,
  GraphRequest,
  ServerStatusNotification,
  StartupTimingsNotification,
} from '../../server/src/protocol';
import { fileUri, LspTestClient, latestDiagnostics, repoRoot } from './lspClient';

const VPC_TF = `terraform {
  backend "s3" {
    bucket = "acme-terraform-state"
    key    = "network/prod/eu-west-1/vpc/terraform.tfstate"
    region = "eu-west-1"
  }
}

output "vpc_id" {
  value = "vpc-123"
}
`;

describe('language server (node dist/server.js --stdio)', () => {
  let workspace: string;
  let vpcFile: string;
  const clients: LspTestClient[] = [];
  const start = () => {
    const client = LspTestClient.start();
    clients.push(client);
    return client;
  };

  before(() => {
    workspace = mkdtempSync(path.join(os.tmpdir(), 'terrace-lsp-'));
    vpcFile = path.join(workspace, 'network', 'prod', 'eu-west-1', 'vpc', 'main.tf');
    mkdirSync(path.dirname(vpcFile), { recursive: true });
    writeFileSync(vpcFile, VPC_TF);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.dispose()));
  });
  after(() => {
    rmSync(workspace, { recursive: true, force: true });
  });

  test('initialize names the server and asks for incremental document sync', async () => {
    const client = start();
    const result = await client.initialize(workspace);
    const version = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).version;
    assert.deepEqual(result.serverInfo, { name: 'terrace', version });
    const sync = result.capabilities.textDocumentSync;
    const change = typeof sync === 'object' ? sync.change : sync;
    assert.equal(change, TextDocumentSyncKind.Incremental);
  });

  test('after initialized the server reports its status', async () => {
    const client = start();
    await client.initialize(workspace);
    const status = await client.waitForNotification(ServerStatusNotification.type, (s) => s.health === 'ready');
    assert.equal(status.health, 'ready');
    assert.equal(typeof status.message, 'string');
    assert.ok(Number.isInteger(status.modules) && status.modules >= 0, `modules: ${status.modules}`);
    assert.ok(Number.isInteger(status.cycles) && status.cycles >= 0, `cycles: ${status.cycles}`);
  });

  test('once its first diagnostics are out, the server says when each start-up step happened, once', async () => {
    const spawned = Date.now();
    const client = start();
    await client.initialize(workspace);
    const timings = await client.waitForNotification(StartupTimingsNotification.type);
    const steps = [
      timings.processStartedAt,
      timings.initializedAt,
      timings.settingsAt,
      timings.readingAt,
      timings.indexedAt,
      timings.publishedAt,
    ];
    assert.ok(spawned <= timings.processStartedAt + 1, `the process started once spawned: ${spawned}, ${steps}`);
    assert.deepEqual(
      [...steps].sort((a, b) => a - b),
      steps,
      'in the order they happen',
    );
    assert.ok(timings.publishedAt <= Date.now());
    // An edit publishes again, but start-up is said once.
    const uri = await client.open(vpcFile, `${VPC_TF}\n# edited\n`);
    await client.change(uri, `${VPC_TF}\n# edited again\n`, 2);
    // Past the edits' debounce (150 ms): the folder analysed again, and published.
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.equal(client.notifications.filter((n) => n.method === StartupTimingsNotification.method).length, 1);
  });

  /** A folder of one root that reads a state nobody writes (one problem), removed after `body`. */
  const withUnmatchedRead = async (body: (folder: string, reader: string) => Promise<void>) => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'terrace-lsp-progress-'));
    try {
      const reader = path.join(folder, 'app', 'main.tf');
      mkdirSync(path.dirname(reader), { recursive: true });
      writeFileSync(
        reader,
        'terraform {\n  backend "s3" {\n    bucket = "acme"\n    key    = "app/terraform.tfstate"\n    region = "eu-west-1"\n  }\n}\n\n' +
          'data "terraform_remote_state" "net" {\n  backend = "s3"\n  config = {\n    bucket = "acme"\n    key    = "nobody/terraform.tfstate"\n    region = "eu-west-1"\n  }\n}\n',
      );
      await body(folder, reader);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  };
  const progressKinds = (client: LspTestClient) =>
    client.notifications
      .filter((n) => n.method === '$/progress')
      .map((n) => (n.params as { value: { kind: string } }).value.kind);

  test('the first problems do not wait for the editor to answer the indexing progress’s creation', () =>
    withUnmatchedRead(async (folder, reader) => {
      // A window still starting answers the server's requests late (0.1–0.3 s in code-server); this one, not at all.
      const client = start();
      client.hold('window/workDoneProgress/create');
      await client.initialize(folder);
      const problems = await latestDiagnostics(client, reader, (list) => list.length > 0);
      assert.match(String(problems[0]!.message), /nobody\/terraform\.tfstate/);
      assert.ok(client.requestsAsked.includes('window/workDoneProgress/create'), 'the progress was asked for');
      assert.deepEqual(progressKinds(client), [], 'no progress before the editor made it');
      // Once the editor answers, the progress it shows begins and ends.
      client.release('window/workDoneProgress/create');
      await client.waitForNotification<{ value: { kind: string } }>('$/progress', (p) => p.value.kind === 'end');
      assert.equal(progressKinds(client)[0], 'begin');
    }));

  test('a folder whose settings the client started the server with is indexed before the client says initialized', () =>
    withUnmatchedRead(async (folder, reader) => {
      const client = start();
      await client.initializeOnly(folder, {
        initializationOptions: { settings: { [fileUri(folder)]: {} } },
        // As VS Code's: code lenses asked for again, progress shown, settings asked for.
        capabilities: {
          workspace: { configuration: true, workspaceFolders: true, codeLens: { refreshSupport: true } },
          window: { workDoneProgress: true },
        },
      });
      const problems = await latestDiagnostics(client, reader, (list) => list.length > 0);
      assert.match(String(problems[0]!.message), /nobody\/terraform\.tfstate/);
      // Nothing asked of a client that has not said `initialized`: it has no handler for requests yet.
      assert.equal(client.requestsAsked.join(), '');
      await client.initialized();
      const statuses = () => client.notifications.filter((n) => n.method === ServerStatusNotification.method).length;
      const before = statuses();
      await client.waitForNotification(ServerStatusNotification.type, () => statuses() > before);
      assert.ok(!client.requestsAsked.includes('window/workDoneProgress/create'), 'indexed already: no progress shown');
      assert.equal(client.configurationAsked, 0, 'its settings were not asked for');
    }));

  test('a folder whose settings must be asked for waits for the client to say initialized', () =>
    withUnmatchedRead(async (folder, reader) => {
      const client = start();
      await client.initializeOnly(folder);
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(client.requestsAsked.join(), '', 'nothing asked before initialized');
      assert.equal(client.notifications.filter((n) => n.method === 'textDocument/publishDiagnostics').length, 0);
      await client.initialized();
      await latestDiagnostics(client, reader, (list) => list.length > 0);
      assert.equal(client.configurationAsked, 1, 'its settings asked once the client said initialized');
    }));

  /** Runs `body` with a code-cache folder of its own, removed after; `serve` starts a server given that folder. */
  const withCodeCache = async (body: (folder: string, serve: () => LspTestClient) => Promise<void>) => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'terrace-lsp-code-cache-'));
    const serve = () => {
      const client = LspTestClient.start({ args: [`--code-cache=${folder}`] });
      clients.push(client);
      return client;
    };
    try {
      await body(folder, serve);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  };

  test('started with a code-cache folder, the server writes its compiled code after its first diagnostics; the next compiles from it', () =>
    withCodeCache(async (cacheFolder, serve) => {
      const serverWith = async () => {
        const client = serve();
        await client.initialize(workspace);
        const timings = await client.waitForNotification(StartupTimingsNotification.type);
        // A quiet moment (3 s) after the first diagnostics.
        const log = await client.waitForNotification<{ message: string }>(
          'window/logMessage',
          (params) => params.message.startsWith('code cache of languageServer'),
          20_000,
        );
        const graph = (await client.connection.sendRequest(GraphRequest.type, {})) as GraphModel | null;
        return { timings, log: log.message, graph, client };
      };
      const first = await serverWith();
      assert.equal(first.timings.fromCodeCache, false);
      assert.match(first.log, /^code cache of languageServer written \(\d+ ms\)$/);
      const written = readdirSync(cacheFolder);
      assert.equal(written.length, 1);
      assert.match(written[0]!, /^languageServer-[0-9a-f]{24}\.bin$/);
      await first.client.shutdown();
      const next = await serverWith();
      assert.equal(next.timings.fromCodeCache, true, 'V8 took the cache the first server wrote');
      assert.match(next.log, /^code cache of languageServer used/);
      assert.deepEqual(next.graph, first.graph);
      assert.deepEqual(readdirSync(cacheFolder), written);
    }));

  test('a server shut down before its quiet moment writes its code cache as it shuts down', () =>
    withCodeCache(async (cacheFolder, serve) => {
      const client = serve();
      await client.initialize(workspace);
      await client.waitForNotification(StartupTimingsNotification.type);
      assert.deepEqual(readdirSync(cacheFolder), [], 'not yet: the quiet moment is 3 s after the first diagnostics');
      assert.deepEqual(await client.shutdown(), { code: 0, signal: null });
      const logs = client.notifications
        .filter((n) => n.method === 'window/logMessage')
        .map((n) => (n.params as { message: string }).message)
        .filter((message) => message.startsWith('code cache'));
      assert.equal(logs.length, 1);
      assert.match(logs[0]!, /^code cache of languageServer written \(\d+ ms\)$/);
      assert.match(readdirSync(cacheFolder).join(), /^languageServer-[0-9a-f]{24}\.bin$/);
    }));

  test('a server shut down before its first diagnostics writes no code cache', () =>
    withCodeCache(async (cacheFolder, serve) => {
      const client = serve();
      // Initialized with no folder: no analysis, so no first diagnostics.
      await client.initialize(workspace, { rootUri: null, workspaceFolders: [] });
      assert.deepEqual(await client.shutdown(), { code: 0, signal: null });
      assert.deepEqual(readdirSync(cacheFolder), []);
    }));

  test('without a code-cache folder, the server writes no cache', async () => {
    const client = start();
    await client.initialize(workspace);
    const timings = await client.waitForNotification(StartupTimingsNotification.type);
    assert.equal(timings.fromCodeCache, false);
    const log = await client.waitForNotification<{ message: string }>(
      'window/logMessage',
      (params) => params.message.startsWith('code cache'),
      20_000,
    );
    assert.match(log.message, /^code cache of languageServer not kept: no folder for it/);
  });

  test('the settings the server starts with serve its first indexing; once they change, it asks for them', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'terrace-lsp-settings-'));
    try {
      for (const module of ['network/vpc', 'legacy/vpc']) {
        mkdirSync(path.join(folder, module), { recursive: true });
        writeFileSync(path.join(folder, module, 'main.tf'), VPC_TF.replace('network/prod/eu-west-1/vpc', module));
      }
      const client = start();
      const atStart = { discovery: { exclude: ['legacy/**'] } };
      client.settings = atStart;
      const uri = pathToFileURL(folder).href;
      await client.initialize(folder, { initializationOptions: { settings: { [uri]: atStart } } });
      const first = await client.waitForNotification(ServerStatusNotification.type, (s) => s.health === 'ready');
      assert.equal(first.modules, 1, 'legacy/ left out, as the settings at start say');
      assert.equal(client.configurationAsked, 0, 'nothing asked before the first diagnostics');

      // VS Code's client says the settings changed as it starts, with those it started the server with: nothing to do.
      const analysed = () => client.notifications.filter((n) => n.method === GraphChangedNotification.method).length;
      await client.waitForNotification(GraphChangedNotification.type);
      const before = analysed();
      await client.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
      for (const deadline = Date.now() + 5000; client.configurationAsked < 1; ) {
        assert.ok(Date.now() < deadline, 'the settings were asked for');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await new Promise((resolve) => setTimeout(resolve, 400));
      assert.equal(analysed(), before, 'the same settings: the folder is not indexed again');

      // VS Code's client says it twice, at once (its `synchronize` option and the server’s registration): one change.
      client.settings = { discovery: { exclude: [] } };
      const since = client.notifications.length;
      const unchanged = analysed();
      await client.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
      await client.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
      await client.waitForNotification(
        ServerStatusNotification.type,
        (s) => s.health === 'ready' && s.modules === 2 && client.notifications.length > since,
      );
      assert.ok(client.configurationAsked >= 1, 'the changed settings were asked for');
      await new Promise((resolve) => setTimeout(resolve, 600));
      assert.equal(analysed() - unchanged, 1, 'the folder is indexed again once');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('one edit after a quiet moment is analysed at once; the edits that follow it, once typing pauses', async () => {
    const client = start();
    await client.initialize(workspace);
    await client.waitForNotification(StartupTimingsNotification.type);
    const analysed = () => client.notifications.filter((n) => n.method === GraphChangedNotification.method).length;
    const uri = await client.open(vpcFile, VPC_TF);
    // Quiet for longer than the debounce (150 ms): the next edit is not held back.
    await new Promise((resolve) => setTimeout(resolve, 400));
    // A document opened with the text on disk is no edit: its folder's graph is not made again.
    const before = analysed();
    assert.equal(before, 1);
    const keys = ['a', 'b', 'c', 'd'].map((k) => VPC_TF.replace('vpc/terraform', `vpc-${k}/terraform`));
    for (const [n, text] of keys.entries()) await client.change(uri, text, n + 2);
    await new Promise((resolve) => setTimeout(resolve, 800));
    // The first edit at once, the three typed after it together: two analyses, not four and not one.
    assert.equal(analysed() - before, 2);
    const hover = (await client.connection.sendRequest('textDocument/hover', {
      textDocument: { uri },
      position: { line: 1, character: 4 },
    })) as { contents: { value: string } } | null;
    assert.match(hover?.contents.value ?? '', /vpc-d\/terraform\.tfstate/);
  });

  test('opening and editing a .tf document keeps the server healthy', async () => {
    const client = start();
    await client.initialize(workspace);
    const uri = await client.open(vpcFile, VPC_TF);
    await client.change(uri, VPC_TF.replace('vpc-123', 'vpc-456'), 2);
    const exit = await client.shutdown();
    assert.deepEqual(exit, { code: 0, signal: null });
    const errors = client.notifications.filter(
      (n) => n.method === 'window/logMessage' && (n.params as { type: number }).type === 1,
    );
    assert.deepEqual(errors, [], 'no error messages logged');
  });

  test('in a folder whose path has a +, an unsaved edit is analysed and its problems come under the editor’s URI', async () => {
    // VS Code writes the + as %2B, Node's pathToFileURL as it is: the server must know the document by the editor's URI.
    const folder = mkdtempSync(path.join(os.tmpdir(), 'terrace-lsp+'));
    try {
      const file = path.join(folder, 'network', 'vpc', 'main.tf');
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, VPC_TF);
      const client = start();
      await client.initialize(folder);
      await client.waitForNotification(ServerStatusNotification.type, (s) => s.health === 'ready');
      const uri = await client.open(file, `${VPC_TF}\nlocals {\n  x = = 1\n}\n`);
      assert.match(uri, /terrace-lsp%2B/);
      const problems = await latestDiagnostics(client, file, (list) => list.some((d) => d.code === 'hcl-syntax'));
      const syntax = problems.find((d) => d.code === 'hcl-syntax');
      assert.equal(syntax?.range.start.line, 13);
      const published = client.notifications.filter((n) => n.method === 'textDocument/publishDiagnostics');
      assert.ok(
        published.every((n) => (n.params as { uri: string }).uri.includes('terrace-lsp%2B')),
        'every problem is published under the URI VS Code writes',
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('shutdown then exit ends the process with code 0', async () => {
    const client = start();
    await client.initialize(workspace);
    const started = Date.now();
    assert.deepEqual(await client.shutdown(5000), { code: 0, signal: null });
    assert.ok(Date.now() - started < 5000);
  });

  test('exit without shutdown ends the process with code 1', async () => {
    const client = start();
    await client.initialize(workspace);
    assert.deepEqual(await client.exit(5000), { code: 1, signal: null });
  });
});
