import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { marked } from 'marked';
import type { Hover, MarkupContent } from 'vscode-languageserver-protocol/node';
import {
  AffectedRequest,
  type GraphModel,
  GraphRequest,
  RunTargetsRequest,
  ServerStatusNotification,
  type TerraceInitializationOptions,
  WorkspaceTrustedNotification,
} from '../../server/src/protocol';
import { programSpies, startedPrograms } from '../harness/programSpies.mjs';
import { type HostileRepository, hostileRepository } from '../hostileRepository';
import { LspTestClient } from './lspClient';

const uri = (file: string) => pathToFileURL(file).href;

async function ready(folder: string, options: { env?: NodeJS.ProcessEnv; trusted?: boolean } = {}) {
  const client = LspTestClient.start({ env: options.env });
  const initializationOptions: TerraceInitializationOptions | undefined =
    options.trusted === undefined ? undefined : { trusted: options.trusted };
  await client.initialize(folder, { initializationOptions });
  await client.waitForNotification(ServerStatusNotification.type, (s) => s.health === 'ready', 20_000);
  return client;
}

const moduleIds = (graph: GraphModel | null) => graph?.modules.map((module) => module.id).sort();

describe('an untrusted repository in the language server', () => {
  let hostile: HostileRepository;
  const clients: LspTestClient[] = [];
  before(() => {
    hostile = hostileRepository();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.dispose()));
  });
  after(() => hostile.dispose());

  test("trusted: the scan and what changed ask git, and nothing the repository's config names runs", async () => {
    const client = await ready(hostile.root);
    clients.push(client);
    const folderUri = uri(hostile.root);
    const graph = await client.connection.sendRequest(GraphRequest.type, { folderUri });
    assert.deepEqual(moduleIds(graph), ['app', 'network', 'oidc'], 'oidc: its lock file is ignored, and tracked');
    const affected = await client.connection.sendRequest(AffectedRequest.type, { folderUri, baseRef: 'main' });
    assert.deepEqual(affected.kind === 'affected' && affected.changed, ['app', 'network']);
    assert.deepEqual(hostile.ran(), []);
  });

  test('Restricted Mode: no process at all; what needs git or terraform refused; trusting brings it back', async () => {
    const spies = mkdtempSync(path.join(os.tmpdir(), 'terrace-git-spy-'));
    const spy = programSpies(spies, ['git']);
    const calls = () => startedPrograms(spy.TERRACE_SPY_LOG);
    try {
      const client = await ready(hostile.root, { env: { PATH: spy.PATH }, trusted: false });
      clients.push(client);
      const folderUri = uri(hostile.root);
      // The files alone: the ignore rules decide, so the lock file Git tracks is not seen.
      assert.deepEqual(moduleIds(await client.connection.sendRequest(GraphRequest.type, { folderUri })), [
        'app',
        'network',
      ]);
      const affected = await client.connection.sendRequest(AffectedRequest.type, { folderUri, baseRef: 'main' });
      assert.equal(affected.kind, 'error');
      assert.match(affected.kind === 'error' ? affected.message : '', /^Restricted Mode: .*trusted workspace/);
      const targets = await client.connection.sendRequest(RunTargetsRequest.type, { folderUri });
      assert.deepEqual(targets, {
        kind: 'error',
        message: 'Restricted Mode: Terrace runs terraform only in a trusted workspace',
      });
      assert.deepEqual(calls(), [], 'no git started');

      const versionBefore = client.notifications.length;
      await client.connection.sendNotification(WorkspaceTrustedNotification.type);
      await client.waitForNotification(
        ServerStatusNotification.type,
        (s) => s.health === 'ready' && client.notifications.length > versionBefore,
        20_000,
      );
      assert.deepEqual(moduleIds(await client.connection.sendRequest(GraphRequest.type, { folderUri })), [
        'app',
        'network',
        'oidc',
      ]);
      assert.ok(
        calls().some((call) => call.includes('ls-files')),
        `git asked once trusted: ${calls().join('; ')}`,
      );
      const changed = await client.connection.sendRequest(AffectedRequest.type, { folderUri, baseRef: 'main' });
      assert.equal(changed.kind, 'affected');
      assert.deepEqual(hostile.ran(), []);
    } finally {
      rmSync(spies, { recursive: true, force: true });
    }
  });
});

/** Markdown the server makes from what files say, rendered as VS Code renders hovers (marked). */
describe('text from files in hovers', () => {
  let root: string;
  let client: LspTestClient;
  // A folder name and a state path that are Markdown: a command link, emphasis, an image, a code span's backtick.
  const writer = 'net[run](command:workbench.action.quit)_*x*_`y';
  const statePath = 'st`ate ![i](https://example.invalid/p.png) <b>x</b>.tfstate';
  before(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'terrace-markdown-'));
    mkdirSync(path.join(root, writer));
    mkdirSync(path.join(root, 'app'));
    const hcl = (text: string) => text.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
    writeFileSync(
      path.join(root, writer, 'main.tf'),
      `terraform {\n  backend "local" {\n    path = "${hcl(statePath)}"\n  }\n}\n`,
    );
    writeFileSync(
      path.join(root, 'app', 'main.tf'),
      `terraform {\n  backend "local" {}\n}\n\ndata "terraform_remote_state" "net" {\n  backend = "local"\n  config = {\n    path = "../${hcl(writer)}/${hcl(statePath)}"\n  }\n}\n`,
    );
    client = await ready(root);
  });
  after(async () => {
    await client.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  async function rendered(file: string, line: number, character: number): Promise<string> {
    const hover = (await client.connection.sendRequest('textDocument/hover', {
      textDocument: { uri: uri(file) },
      position: { line, character },
    })) as Hover | null;
    assert.ok(hover, `a hover at ${file}:${line}`);
    return marked.parse((hover.contents as MarkupContent).value, { async: false });
  }

  /** The text a reader sees: the HTML without its tags, entities decoded. */
  const seen = (html: string) =>
    html
      .replace(/<[^>]+>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');

  test("the writer's hover: its folder and its state path shown as text, no link or image of theirs", async () => {
    const html = await rendered(path.join(root, writer, 'main.tf'), 1, 4);
    assert.doesNotMatch(html, /<img|<b>|<em>|href="(?!file:)/);
    assert.ok(seen(html).includes(`Module ${writer} · level 0`), seen(html));
    // The local backend's address: the state's path from the workspace, normalized (`https://` loses a slash).
    assert.ok(seen(html).includes(`Writes local://${writer}/${path.posix.normalize(statePath)}`), seen(html));
  });

  test("the reader's hover: a link that opens the writer's file, its text the folder name", async () => {
    const html = await rendered(path.join(root, 'app', 'main.tf'), 4, 8);
    const links = [...html.matchAll(/<a href="([^"]*)">(.*?)<\/a>/g)];
    assert.deepEqual(
      links.map((link) => seen(link[2]!)),
      [writer],
    );
    assert.equal(decodeURIComponent(links[0]![1]!), `file://${path.join(root, writer, 'main.tf')}#L2`);
    assert.doesNotMatch(html, /<img|<b>|<em>/);
  });
});
