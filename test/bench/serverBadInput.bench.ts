// The built language server (dist/server.js) over LSP on the hostile inputs of issue 44 that froze it: a
// large .tf opened and edited, many files deleted at once, a folder deleted (one event for it). Prints
// each figure with its sizes. Run: node --import tsx test/bench/serverBadInput.bench.ts [big MB] [roots] [deletions]
// (defaults 52 5000 2000, the sizes the issue measured; 0 MB or 0 roots leaves that part out)
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import {
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  FileChangeType,
  type FileEvent,
} from 'vscode-languageserver-protocol/node';
import { type GraphModel, GraphRequest, type ServerStatusParams } from '../../server/src/protocol';
import { LspTestClient, repoRoot } from '../lsp/lspClient';
import { generateMonorepo } from './syntheticMonorepo';

const bigMb = Number(process.argv[2] ?? 52);
const roots = Number(process.argv[3] ?? 5000);
const deletions = Number(process.argv[4] ?? 2000);
const EDITS = 5;

/** Resident memory of a process now and at its peak (VmRSS, VmHWM), in MB, from /proc (Linux). */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

const mb = (value: number) => `${value.toFixed(0)} MB`;
const ms = (value: number) => `${value.toFixed(0)} ms`;

async function started(root: string, timeoutMs: number): Promise<{ client: LspTestClient; indexMs: number }> {
  const client = LspTestClient.start();
  const start = performance.now();
  await client.initialize(root);
  await client.waitForNotification<ServerStatusParams>('terrace/serverStatus', (s) => s.health === 'ready', timeoutMs);
  return { client, indexMs: performance.now() - start };
}

/** The graph as the server has it once it answers: the time it took stands for how long it was busy. */
async function graph(client: LspTestClient): Promise<{ model: GraphModel; ms: number }> {
  const start = performance.now();
  const model = (await client.connection.sendRequest(GraphRequest.type, {})) as GraphModel;
  return { model, ms: performance.now() - start };
}

/**
 * A .tf of `megabytes` (resources, with one remote-state read) in examples/local's network/vpc: opened in the
 * editor, then edited five times as VS Code sends an edit (one character, incremental); each edit is timed to
 * the answer of a hover on the read, which waits for the edit to be analysed.
 */
async function bigBuffer(megabytes: number): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'terrace-bench-big-'));
  try {
    cpSync(path.join(repoRoot, 'examples', 'local'), dir, { recursive: true });
    const file = path.join(dir, 'network', 'vpc', 'generated.tf');
    const read =
      'data "terraform_remote_state" "legacy" {\n  backend = "local"\n  config  = { path = "../legacy/terraform.tfstate" }\n}\n';
    const resource = (i: number) =>
      `resource "aws_s3_bucket" "b${i}" {\n  bucket = "x-${i}"\n  tags   = { a = "b", c = [1, 2, 3] }\n}\n`;
    const count = Math.ceil((megabytes * 1024 * 1024) / resource(100_000).length);
    const text = `${read}variable "size" {\n  default = 1\n}\n${Array.from({ length: count }, (_, i) => resource(i)).join('')}`;
    writeFileSync(file, text);
    const { client, indexMs } = await started(dir, 600_000);
    try {
      const pid = client.process.pid!;
      const indexed = memory(pid);
      const uri = pathToFileURL(file).href;
      const hover = async () => {
        const start = performance.now();
        await client.connection.sendRequest('textDocument/hover', {
          textDocument: { uri },
          position: { line: 0, character: 1 },
        });
        return performance.now() - start;
      };
      let start = performance.now();
      await client.open(file, text);
      const openMs = performance.now() - start + (await hover());
      const edits: number[] = [];
      // `default = 1` on line 5, its digit at character 12: typed over, one character each.
      for (let version = 2; version <= EDITS + 1; version++) {
        start = performance.now();
        await client.connection.sendNotification(DidChangeTextDocumentNotification.type, {
          textDocument: { uri, version },
          contentChanges: [
            { range: { start: { line: 5, character: 12 }, end: { line: 5, character: 13 } }, text: String(version) },
          ],
        });
        await new Promise((resolve) => setTimeout(resolve, 200));
        edits.push(performance.now() - start - 200 + (await hover()));
      }
      const after = memory(pid);
      const size = (text.length / 1024 / 1024).toFixed(1);
      console.log(`a ${size} MB .tf (${count} resources) in examples/local: indexed in ${ms(indexMs)}`);
      console.log(`  server memory after indexing: ${mb(indexed.rss)} (peak ${mb(indexed.peak)})`);
      console.log(`  opened, to a hover's answer: ${ms(openMs)}`);
      console.log(`  ${EDITS} one-character edits, each to a hover's answer: ${edits.map(ms).join(', ')}`);
      console.log(`  server memory after the edits: ${mb(after.rss)} (peak ${mb(after.peak)})`);
    } finally {
      await client.dispose();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A synthetic monorepo of `count` roots: `removed` backend.tf files deleted on disk and said in one
 * didChangeWatchedFiles, then one folder holding an eighth of the roots deleted with one event for the
 * folder, as VS Code sends it; each timed to the graph's answer, with the modules left.
 */
async function deletedFiles(count: number, removed: number): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-bench-deleted-'));
  try {
    const repo = generateMonorepo(root, { modules: count });
    const { client, indexMs } = await started(root, 600_000);
    try {
      const before = await graph(client);
      console.log(`${count} roots: indexed in ${ms(indexMs)}, ${before.model.modules.length} modules`);
      // The last roots: none of the folder deleted next.
      const gone = repo.ids.filter((id) => !id.startsWith('network/')).slice(-removed);
      for (const id of gone) unlinkSync(path.join(root, id, 'backend.tf'));
      let start = performance.now();
      await client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
        changes: gone.map(
          (id): FileEvent => ({
            uri: pathToFileURL(path.join(root, id, 'backend.tf')).href,
            type: FileChangeType.Deleted,
          }),
        ),
      });
      let after = await graph(client);
      let took = performance.now() - start;
      console.log(
        `  ${gone.length} backend.tf files deleted, one notification: the graph answered in ${ms(took)}, ${after.model.modules.length} modules`,
      );
      const folder = path.join(root, 'network');
      const inFolder = after.model.modules.filter((module) => module.id.startsWith('network/')).length;
      rmSync(folder, { recursive: true, force: true });
      start = performance.now();
      await client.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
        changes: [{ uri: pathToFileURL(folder).href, type: FileChangeType.Deleted }],
      });
      after = await graph(client);
      took = performance.now() - start;
      const left = after.model.modules.filter((module) => module.id.startsWith('network/')).length;
      const edges = after.model.edges.filter(
        (edge) => edge.from.startsWith('network/') || edge.to.startsWith('network/'),
      );
      console.log(
        `  the folder network/ (${inFolder} roots) deleted, one event for it: the graph answered in ${ms(took)}, ` +
          `${left} of its modules and ${edges.length} of their edges left`,
      );
    } finally {
      await client.dispose();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  // 0 leaves a part out.
  if (bigMb > 0) await bigBuffer(bigMb);
  if (roots > 0) await deletedFiles(roots, deletions);
}

void main();
