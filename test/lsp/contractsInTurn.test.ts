import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  EdgeOutputsRequest,
  GraphChangedNotification,
  type GraphChangedParams,
  type GraphModel,
  GraphRequest,
  PanelGraphRequest,
} from '../../server/src/protocol';
import { unpackGraph } from '../../webview/src/packedGraph';
import { LspTestClient } from './lspClient';

/** Roots that each read the three before them and use all of their outputs: contracts of 135,000 uses. */
const ROOTS = 1500;
const OUTPUTS = 30;

function backend(key: string): string {
  return `backend = "s3"\n  config = {\n    bucket = "acme-state"\n    key    = "${key}"\n    region = "eu-west-1"\n  }`;
}

function rootFile(index: number): string {
  const outputs = Array.from({ length: OUTPUTS }, (_, n) => `output "o${n}" {\n  value = "${index}-${n}"\n}\n`);
  const readers = [index - 1, index - 2, index - 3].filter((read) => read >= 0);
  const reads = readers.map(
    (read) => `data "terraform_remote_state" "r${read}" {\n  ${backend(`roots/r${read}.tfstate`)}\n}\n`,
  );
  const uses = readers.flatMap((read) =>
    Array.from({ length: OUTPUTS }, (_, n) => `  v${read}_${n} = data.terraform_remote_state.r${read}.outputs.o${n}`),
  );
  // One read of an output its writer does not declare: the contracts' one problem.
  if (index === 7) uses.push('  gone = data.terraform_remote_state.r6.outputs.retired');
  return [
    `terraform {\n  ${backend(`roots/r${index}.tfstate`).replace('backend = "s3"\n  config = {', 'backend "s3" {')}\n}\n`,
    ...outputs,
    ...reads,
    `locals {\n${uses.join('\n')}\n}\n`,
  ].join('\n');
}

/** How many times the server published the file's diagnostics with a read of an output its writer lacks. */
function contractProblemsIn(client: LspTestClient, uri: string): number {
  return client.notifications.filter(
    (n) =>
      n.method === 'textDocument/publishDiagnostics' &&
      (n.params as { uri: string; diagnostics: { code?: string }[] }).uri === uri &&
      (n.params as { diagnostics: { code?: string }[] }).diagnostics.some((d) => d.code === 'missing-output'),
  ).length;
}

describe('the contracts between states, worked out between requests', () => {
  let workspace: string;

  before(() => {
    workspace = mkdtempSync(path.join(os.tmpdir(), 'terrace-contracts-'));
    for (let index = 0; index < ROOTS; index++) {
      const dir = path.join(workspace, 'roots', `r${index}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'main.tf'), rootFile(index));
    }
  });
  after(() => rmSync(workspace, { recursive: true, force: true }));

  test('the graph asked as it changes is answered before the contracts’ problems, its edges’ outputs after', async () => {
    const client = LspTestClient.start();
    try {
      const reader = pathToFileURL(path.join(workspace, 'roots', 'r7', 'main.tf')).href;
      const contractProblems = () => contractProblemsIn(client, reader);
      await client.initialize(workspace);
      // As the editor asks: when the server says the graph changed, right after the first problems.
      const changed = await client.waitForNotification<GraphChangedParams>(
        GraphChangedNotification.type,
        () => true,
        60_000,
      );
      const graph = unpackGraph(
        (await client.connection.sendRequest(PanelGraphRequest.type, { folderUri: changed.folderUri }))!,
      );
      const problemsBeforeGraph = contractProblems();
      assert.equal(graph.modules.length, ROOTS);
      assert.equal(graph.edges.length, 3 * ROOTS - 6);
      assert.equal(problemsBeforeGraph, 0, 'the graph waited for the contracts between states');
      assert.ok(
        graph.edges.every((edge) => edge.outputs.length === 0),
        'the graph’s edges carry no outputs: they come apart',
      );
      const whole = (await client.connection.sendRequest(GraphRequest.type, {
        folderUri: changed.folderUri,
      })) as GraphModel;
      assert.ok(!('outputs' in whole.edges[0]!), 'nor do the whole model’s');

      const outputs = await client.connection.sendRequest(EdgeOutputsRequest.type, {
        folderUri: changed.folderUri,
        version: graph.version,
      });
      assert.ok(outputs, 'the outputs of the graph’s version');
      assert.equal(outputs.length, graph.edges.length);
      const along = (from: string, to: string) => outputs[graph.edges.findIndex((e) => e.from === from && e.to === to)];
      const all = Array.from({ length: OUTPUTS }, (_, n) => `o${n}`).sort();
      assert.deepEqual(along('roots/r10', 'roots/r9'), all);
      assert.deepEqual(along('roots/r10', 'roots/r7'), all);
      assert.deepEqual(along('roots/r7', 'roots/r6'), [...all, 'retired'].sort());
      // The contracts' problems are published too.
      await client.waitForNotification('textDocument/publishDiagnostics', () => contractProblems() > 0, 30_000);
      // A graph's outputs asked once it has changed: none, the client asks for the new graph.
      assert.equal(
        await client.connection.sendRequest(EdgeOutputsRequest.type, {
          folderUri: changed.folderUri,
          version: graph.version - 1,
        }),
        null,
      );
    } finally {
      await client.dispose();
    }
  });

  test('hovers asked at the first problems answer from the contracts around their file, as they do once all are out', async () => {
    const client = LspTestClient.start();
    try {
      const file = path.join(workspace, 'roots', 'r7', 'main.tf');
      const uri = pathToFileURL(file).href;
      const contractProblems = () => contractProblemsIn(client, uri);
      const lines = rootFile(7).split('\n');
      // A read of an output r6 lacks, one r6 has, and r7's own `output "o0"`, which r8, r9 and r10 read.
      const at = (text: string, after: string) => {
        const line = lines.findIndex((each) => each.includes(text));
        return { line, character: lines[line]!.indexOf(after) + after.length };
      };
      const positions = [
        at('gone = ', 'outputs.'),
        at('v6_3 = ', 'outputs.'),
        { line: lines.indexOf('output "o0" {'), character: 2 },
      ];
      const hovers = () =>
        Promise.all(
          positions.map(async (position) => {
            const hover = (await client.connection.sendRequest('textDocument/hover', {
              textDocument: { uri },
              position,
            })) as { contents: { value: string } } | null;
            return hover?.contents.value;
          }),
        );
      await client.initialize(workspace);
      await client.waitForNotification(GraphChangedNotification.type, () => true, 60_000);
      const early = await hovers();
      const problemsThen = contractProblems();
      await client.waitForNotification('textDocument/publishDiagnostics', () => contractProblems() > 0, 30_000);
      const later = await hovers();
      assert.equal(problemsThen, 0, 'asked while the contracts were being worked out');
      assert.match(early[0]!, /roots\/r6 declares no output "retired"/);
      assert.match(early[1]!, /\*\*Output `o3`\*\* of .*roots\/r6/);
      assert.match(early[2]!, /Read by 3 modules/);
      assert.deepEqual(early, later);
    } finally {
      await client.dispose();
    }
  });
});
