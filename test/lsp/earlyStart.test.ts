import * as assert from 'node:assert/strict';
import path from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { EARLY_START_ENV, type EarlyStart } from '../../server/src/earlyStart';
import { type GraphModel, GraphRequest, StartupTimingsNotification } from '../../server/src/protocol';
import { fileUri, LspTestClient, repoRoot } from './lspClient';

const folder = path.join(repoRoot, 'examples', 'monorepo');
const uri = fileUri(folder);

describe('a server told the window’s folders as it starts (the extension’s entry)', () => {
  const clients: LspTestClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.shutdown();
  });

  /** A server started with `early` (or none), initialized with `settings` for the folder: its start-up and its graph. */
  const serve = async (early: EarlyStart | string | undefined, settings: unknown) => {
    const env =
      early === undefined ? {} : { [EARLY_START_ENV]: typeof early === 'string' ? early : JSON.stringify(early) };
    const client = LspTestClient.start({ env });
    clients.push(client);
    await client.initialize(folder, { initializationOptions: { trusted: true, settings: { [uri]: settings } } });
    const timings = await client.waitForNotification(StartupTimingsNotification.type);
    const graph = (await client.connection.sendRequest(GraphRequest.type, {})) as GraphModel | null;
    assert.ok(graph, 'the server answers terrace/graph');
    return { timings, graph };
  };
  const told = (settings: unknown): EarlyStart => ({ folders: [uri], trusted: true, settings: { [uri]: settings } });

  test('reads them before `initialize`, and the first indexing takes that reading: the graph as without', async () => {
    const plain = await serve(undefined, {});
    assert.equal(plain.timings.readEarly, false);
    const early = await serve(told({}), {});
    assert.equal(early.timings.readEarly, true, 'the indexing took the reading started with the process');
    assert.ok(
      early.timings.readingAt <= early.timings.initializedAt,
      `read from ${early.timings.readingAt}, initialized at ${early.timings.initializedAt}`,
    );
    assert.ok(early.graph.modules.length >= 10, `the example's roots: ${early.graph.modules.length}`);
    assert.deepEqual(early.graph, plain.graph);
  });

  test('started with settings other than those `initialize` brings, the reading is not taken: the graph is of the latter', async () => {
    const excluding = { discovery: { exclude: ['app/**'] } };
    const plain = await serve(undefined, {});
    const early = await serve(told(excluding), {});
    assert.equal(early.timings.readEarly, false);
    assert.deepEqual(early.graph, plain.graph);
    // And the other way round: the settings `initialize` brings are the ones analysed.
    const excluded = await serve(told({}), excluding);
    assert.equal(excluded.timings.readEarly, false);
    assert.ok(excluded.graph.modules.length < plain.graph.modules.length, 'the excluded folder’s roots are left out');
  });

  test('a folder `initialize` does not name is not analysed, and what cannot be read starts nothing', async () => {
    const other = fileUri(path.join(repoRoot, 'examples', 'local'));
    const elsewhere = await serve({ folders: [other], trusted: true, settings: {} }, {});
    assert.equal(elsewhere.timings.readEarly, false);
    const broken = await serve('{"folders": [', {});
    assert.equal(broken.timings.readEarly, false);
    assert.deepEqual(broken.graph, elsewhere.graph);
  });
});
