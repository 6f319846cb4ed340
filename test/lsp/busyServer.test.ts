import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Diagnostic, Hover } from 'vscode-languageserver-protocol/node';
import { LspTestClient } from './lspClient';

/** Roots that each read a state nobody writes: every one of their files has a problem to publish. */
const ROOTS = 2000;

function rootFile(index: number): string {
  return `terraform {
  backend "s3" {
    bucket = "acme-state"
    key    = "roots/r${index}/terraform.tfstate"
    region = "eu-west-1"
  }
}

data "terraform_remote_state" "gone" {
  backend = "s3"
  config = {
    bucket = "acme-state"
    key    = "retired/r${index}/terraform.tfstate"
    region = "eu-west-1"
  }
}
`;
}

describe('a server publishing the problems of thousands of files', () => {
  let workspace: string;

  before(() => {
    workspace = mkdtempSync(path.join(os.tmpdir(), 'terrace-busy-'));
    for (let index = 0; index < ROOTS; index++) {
      const dir = path.join(workspace, 'roots', `r${index}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'main.tf'), rootFile(index));
    }
  });
  after(() => rmSync(workspace, { recursive: true, force: true }));

  test('answers a hover asked at its first problems before it has published them all', async () => {
    const client = LspTestClient.start();
    try {
      const published = () =>
        client.notifications
          .filter((n) => n.method === 'textDocument/publishDiagnostics')
          .map((n) => n.params as { uri: string })
          .map((p) => p.uri);
      await client.initialize(workspace);
      await client.waitForNotification('textDocument/publishDiagnostics', () => true, 60_000);
      // The client stops reading while the server takes the hover, as a busy editor might: the server's
      // publishing then waits on the full pipe, and where the answer lands among the problems depends on
      // the server (does it take a request between its slices?), not on how fast each process happens to be.
      client.process.stdout.pause();
      const uri = pathToFileURL(path.join(workspace, 'roots', 'r7', 'main.tf')).href;
      const asked = client.connection.sendRequest('textDocument/hover', {
        textDocument: { uri },
        position: { line: 8, character: 10 },
      }) as Promise<Hover | null>;
      await new Promise((resolve) => setTimeout(resolve, 500));
      client.process.stdout.resume();
      const hover = await asked;
      const answeredAfter = published().length;
      assert.ok(hover, 'the hover answered');
      // Polled: a waiter's test over thousands of notifications, run at each one, would be quadratic.
      for (let waited = 0; new Set(published()).size < ROOTS && waited < 60_000; waited += 100)
        await new Promise((resolve) => setTimeout(resolve, 100));
      // Every root's file has its problem; the hover came while most were still to go.
      assert.equal(new Set(published()).size, ROOTS);
      assert.ok(
        answeredAfter < ROOTS / 2,
        `the hover answered after ${answeredAfter} files' problems were published, of ${ROOTS}`,
      );
    } finally {
      await client.dispose();
    }
  });

  test('publishes again only the files whose problems an edit changed', async () => {
    const client = LspTestClient.start();
    try {
      const publications = () =>
        client.notifications
          .filter((n) => n.method === 'textDocument/publishDiagnostics')
          .map((n) => n.params as { uri: string; diagnostics: unknown[] });
      await client.initialize(workspace);
      for (let waited = 0; new Set(publications().map((p) => p.uri)).size < ROOTS && waited < 60_000; waited += 100)
        await new Promise((resolve) => setTimeout(resolve, 100));
      // The contracts' publish follows the first: a quiet moment, then every file has its one problem.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const before = publications().length;
      const file = path.join(workspace, 'roots', 'r7', 'main.tf');
      const uri = await client.open(file, rootFile(7));
      // r7 now reads a state that r8 writes: its problem goes, and no other file's changes.
      await client.change(uri, rootFile(7).replace('retired/r7/', 'roots/r8/'), 2);
      await client.waitForNotification<{ uri: string; diagnostics: unknown[] }>(
        'textDocument/publishDiagnostics',
        (p) => p.uri === uri && p.diagnostics.length === 0,
        20_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const after = publications().slice(before);
      assert.deepEqual(
        after.map((p) => [p.uri, p.diagnostics.length]),
        [[uri, 0]],
      );
      // A problem that stays one problem but says another thing, or moves, goes out again too.
      const reworded = await client.open(path.join(workspace, 'roots', 'r9', 'main.tf'), rootFile(9));
      const moved = await client.open(path.join(workspace, 'roots', 'r10', 'main.tf'), rootFile(10));
      const beforeMore = publications().length;
      await client.change(reworded, rootFile(9).replace('retired/r9/', 'gone/r9/'), 2);
      await client.waitForNotification<{ uri: string; diagnostics: { message: string }[] }>(
        'textDocument/publishDiagnostics',
        (p) => p.uri === reworded && p.diagnostics.some((d) => d.message.includes('gone/r9/')),
        20_000,
      );
      await client.change(moved, `\n${rootFile(10)}`, 2);
      const shifted = await client.waitForNotification<{ uri: string; diagnostics: Diagnostic[] }>(
        'textDocument/publishDiagnostics',
        (p) => p.uri === moved && p.diagnostics[0]?.range.start.line === 9,
        20_000,
      );
      assert.equal(shifted.diagnostics.length, 1);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      assert.deepEqual(
        publications()
          .slice(beforeMore)
          .map((p) => [p.uri, p.diagnostics.length]),
        [
          [reworded, 1],
          [moved, 1],
        ],
      );
    } finally {
      await client.dispose();
    }
  });
});
