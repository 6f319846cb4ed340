import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Hover, PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { type ServerStatusParams, StartupTimingsNotification } from '../../server/src/protocol';
import { LspTestClient } from '../lsp/lspClient';
import { repeat, type Summary } from './samples';
import { type SyntheticMonorepo, withoutOutput, withUnwrittenKey } from './syntheticMonorepo';

/**
 * The server's debounce of edits (server/src/languageServer/workspaceFolders.ts): an edit after a quiet moment this
 * long is applied at once, so each measured edit waits this long (and a little more) first.
 */
const DEBOUNCE_MS = 150;

export interface LspFigures {
  indexMs: number;
  /** didChange → publishDiagnostics for that file, one edit after a quiet moment (not debounced). */
  editToDiagnostics: Summary;
  /** hover request → response on a remote_state block. */
  hover: Summary;
  /** didChange deleting the hub's output → publishDiagnostics with the error in a reader's file (not open). */
  outputDeleted: Summary;
  /** completion request → items after `.outputs.` in a reader's file, nothing edited in between. */
  completion: Summary;
  /** The same, right after an edit of that file (the request waits for the edit to be analysed). */
  completionAfterEdit: Summary;
  /** rename request on the hub's output → the workspace edit of every reader. */
  rename: Summary;
  /**
   * hover request → response on a use of the hub's output in a reader's file, asked as the first diagnostics come
   * out, while the workspace's contracts between states are still being worked out (one sample: the first).
   */
  hoverAtFirstDiagnosticsMs: number;
  /** Peak resident memory of the server process after indexing (VmHWM), in MB. */
  peakRssMb: number;
  rssMb: number;
}

/**
 * The language server as a process over a real LSP connection on a synthetic monorepo: indexing
 * time, edit → diagnostics published, hover round trips, and its memory.
 */
export async function measureLsp(
  root: string,
  repo: SyntheticMonorepo,
  runs: { edits: number; hovers: number },
): Promise<LspFigures> {
  const client = LspTestClient.start();
  try {
    const started = performance.now();
    await client.initialize(root);
    await client.waitForNotification<ServerStatusParams>('terrace/serverStatus', (s) => s.health === 'ready', 600_000);
    const indexMs = performance.now() - started;
    await client.waitForNotification(StartupTimingsNotification.method, () => true, 600_000);
    const hoverAtFirstDiagnosticsMs = await hoverOnHubUse(client, repo.hub);
    const memory = processMemory(client.process.pid!);

    const { file, keyLine } = repo.sampleReference;
    const uri = pathToFileURL(file).href;
    const original = readFileSync(file, 'utf8');
    const broken = withUnwrittenKey(original, keyLine);
    await client.open(file, original);
    let version = 1;
    const published = () =>
      client.notifications.filter(
        (n) => n.method === 'textDocument/publishDiagnostics' && (n.params as PublishDiagnosticsParams).uri === uri,
      ).length;
    const edit = async (text: string, expectWarning: boolean): Promise<number> => {
      await new Promise((resolve) => setTimeout(resolve, DEBOUNCE_MS + 50));
      const before = published();
      const sent = performance.now();
      await client.change(uri, text, ++version);
      await client.waitForNotification<PublishDiagnosticsParams>(
        'textDocument/publishDiagnostics',
        (p) =>
          p.uri === uri &&
          p.diagnostics.some((d) => d.code === 'unwritten-state') === expectWarning &&
          published() > before,
        30_000,
      );
      return performance.now() - sent;
    };
    // The first edit also loads Terraform's own parser for exact syntax messages: not measured.
    await edit(broken, true);
    await edit(original, false);
    const editToDiagnostics = await repeat(runs.edits, (run) => edit(run % 2 === 0 ? broken : original, run % 2 === 0));
    if (runs.edits % 2 === 1) await edit(original, false);

    const position = { line: keyLine, character: 6 };
    const hover = await repeat(runs.hovers, async () => {
      const sent = performance.now();
      const answer = await client.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position });
      if (!answer) throw new Error('no hover on the remote_state block');
      return performance.now() - sent;
    });
    const outputDeleted = await measureOutputDeleted(client, repo.hub, runs.edits);
    const completions = await measureCompletion(client, repo.hub, runs);
    const rename = await measureRename(client, repo.hub, runs.hovers);
    return {
      indexMs,
      editToDiagnostics,
      hover,
      hoverAtFirstDiagnosticsMs,
      outputDeleted,
      ...completions,
      rename,
      ...memory,
    };
  } finally {
    await client.dispose();
  }
}

/** One hover on the reader's use of the hub's output, timed; it must name the output. */
async function hoverOnHubUse(client: LspTestClient, hub: SyntheticMonorepo['hub']): Promise<number> {
  const position = afterOutputs(hub.readerFile, hub.output);
  const started = performance.now();
  const answer = (await client.connection.sendRequest('textDocument/hover', {
    textDocument: { uri: pathToFileURL(hub.readerFile).href },
    position,
  })) as Hover | null;
  const ms = performance.now() - started;
  const text = answer && typeof answer.contents === 'object' && 'value' in answer.contents ? answer.contents.value : '';
  if (!text.includes(`Output \`${hub.output}\``)) throw new Error(`the hover on the hub's output says: ${text}`);
  return ms;
}

/**
 * The hub's outputs file opened and its output deleted (unsaved), then restored: the time from the
 * change to the diagnostics of a reader's file, which is not open, saying (or no longer saying) so.
 */
async function measureOutputDeleted(
  client: LspTestClient,
  hub: SyntheticMonorepo['hub'],
  runs: number,
): Promise<Summary> {
  const uri = pathToFileURL(hub.outputsFile).href;
  const reader = pathToFileURL(hub.readerFile).href;
  const original = readFileSync(hub.outputsFile, 'utf8');
  const deleted = withoutOutput(original, hub.output);
  await client.open(hub.outputsFile, original);
  let version = 1;
  const erred = (p: PublishDiagnosticsParams) =>
    p.diagnostics.some((d) => d.code === 'missing-output' && String(d.message).includes(`"${hub.output}"`));
  const edit = async (text: string, expectError: boolean): Promise<number> => {
    await new Promise((resolve) => setTimeout(resolve, DEBOUNCE_MS + 50));
    const before = client.notifications.length;
    const sent = performance.now();
    await client.change(uri, text, ++version);
    await client.waitForNotification<PublishDiagnosticsParams>(
      'textDocument/publishDiagnostics',
      (p) => client.notifications.length > before && p.uri === reader && erred(p) === expectError,
      30_000,
    );
    return performance.now() - sent;
  };
  const timed = await repeat(runs, (run) => edit(run % 2 === 0 ? deleted : original, run % 2 === 0));
  if (runs % 2 === 1) await edit(original, false);
  return timed;
}

/** Where a reader's file reads the hub's output: just after its `.outputs.`. */
function afterOutputs(file: string, output: string): { line: number; character: number } {
  const lines = readFileSync(file, 'utf8').split('\n');
  const line = lines.findIndex((text) => text.includes(`hub.outputs.${output}`));
  if (line < 0) throw new Error(`no read of the hub's ${output} in ${file}`);
  return { line, character: lines[line]!.indexOf(`.outputs.${output}`) + '.outputs.'.length };
}

/** Completion after `.outputs.` in a reader of the hub: alone, and right after an edit of the reader's file. */
async function measureCompletion(
  client: LspTestClient,
  hub: SyntheticMonorepo['hub'],
  runs: { edits: number; hovers: number },
): Promise<{ completion: Summary; completionAfterEdit: Summary }> {
  const uri = pathToFileURL(hub.readerFile).href;
  const original = readFileSync(hub.readerFile, 'utf8');
  const position = afterOutputs(hub.readerFile, hub.output);
  await client.open(hub.readerFile, original);
  const complete = async (): Promise<number> => {
    const sent = performance.now();
    const items = await client.connection.sendRequest<{ label: string }[]>('textDocument/completion', {
      textDocument: { uri },
      position,
    });
    if (!items?.some((item) => item.label === hub.output)) throw new Error('no completion of the hub’s outputs');
    return performance.now() - sent;
  };
  const completion = await repeat(runs.hovers, complete);
  let version = 1;
  const completionAfterEdit = await repeat(runs.edits, async (run) => {
    await new Promise((resolve) => setTimeout(resolve, DEBOUNCE_MS + 50));
    await client.change(uri, run % 2 === 0 ? `${original}\n# edited\n` : original, ++version);
    return complete();
  });
  return { completion, completionAfterEdit };
}

/** Rename of the hub's output from its `output` block: every reader's read in one workspace edit. */
async function measureRename(client: LspTestClient, hub: SyntheticMonorepo['hub'], runs: number): Promise<Summary> {
  const uri = pathToFileURL(hub.outputsFile).href;
  const line = readFileSync(hub.outputsFile, 'utf8')
    .split('\n')
    .findIndex((text) => text.startsWith(`output "${hub.output}"`));
  return repeat(runs, async () => {
    const sent = performance.now();
    const edit = await client.connection.sendRequest<{ changes?: Record<string, unknown[]> }>('textDocument/rename', {
      textDocument: { uri },
      position: { line, character: 9 },
      newName: `${hub.output}_renamed`,
    });
    const elapsed = performance.now() - sent;
    const edits = Object.values(edit?.changes ?? {}).reduce((total, list) => total + list.length, 0);
    if (edits < hub.readers) throw new Error(`the rename edits ${edits} places, fewer than the ${hub.readers} readers`);
    return elapsed;
  });
}

/** Peak and current resident memory of a process, from /proc (Linux). */
function processMemory(pid: number): { peakRssMb: number; rssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? Number.NaN);
  return { peakRssMb: kb('VmHWM') / 1024, rssMb: kb('VmRSS') / 1024 };
}
