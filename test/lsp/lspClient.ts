import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import path from 'node:path';
import {
  createProtocolConnection,
  type Diagnostic,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  type InitializeParams,
  InitializeRequest,
  type InitializeResult,
  type MessageConnection,
  type NotificationType,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node';
import { URI } from 'vscode-uri';
import type { ServerStatusParams } from '../../server/src/protocol';

export const repoRoot = path.resolve(__dirname, '..', '..');
export const serverModule = path.join(repoRoot, 'dist', 'server.js');

export interface Notification {
  method: string;
  params: unknown;
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * The built language server (`node dist/server.js --stdio`) as a child process, and the client side of a
 * real LSP connection to it (`connection`, for requests). Every notification the server sends is recorded, so a test can wait for one
 * that was sent before it asked. Requests from the server get empty answers: registrations, and the
 * configuration unless a test sets `settings`.
 */
export class LspTestClient {
  readonly notifications: Notification[] = [];
  /** The `terrace` section `workspace/configuration` answers with (null: none), and how often it was asked. */
  settings: unknown = null;
  configurationAsked = 0;
  /** What the server wrote to stderr. */
  stderr = '';
  /** Requests from the server answered only once `release` is called for their method, as a busy editor answers late. */
  private readonly held = new Map<string, Array<() => void>>();
  /** The methods of the requests the server sent, in order. */
  readonly requestsAsked: string[] = [];
  readonly exited: Promise<ProcessExit>;
  private readonly waiters = new Set<() => void>();

  private constructor(
    readonly process: ChildProcessWithoutNullStreams,
    readonly connection: ProtocolConnection,
  ) {
    this.exited = new Promise((resolve) => process.once('exit', (code, signal) => resolve({ code, signal })));
    process.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    // A protocol connection is a vscode-jsonrpc message connection, whose catch-all handlers its type hides.
    const anyMessage = connection as unknown as MessageConnection;
    anyMessage.onNotification((method, params) => {
      this.notifications.push({ method, params });
      for (const wake of this.waiters) wake();
    });
    // `$/progress` goes to progress handlers by token; none is registered here, so each arrives as unhandled.
    anyMessage.onUnhandledProgress((params) => {
      this.notifications.push({ method: '$/progress', params });
      for (const wake of this.waiters) wake();
    });
    anyMessage.onRequest((method, params) => {
      this.requestsAsked.push(method);
      const waiting = this.held.get(method);
      if (waiting) return new Promise<null>((resolve) => waiting.push(() => resolve(null)));
      if (method === 'workspace/configuration') {
        this.configurationAsked++;
        return (params as { items: unknown[] }).items.map(() => this.settings);
      }
      return null;
    });
    // The server going away closes the streams; the tests look at `exited` instead.
    connection.onError(() => undefined);
    connection.listen();
  }

  static start(options: { cwd?: string; env?: NodeJS.ProcessEnv; args?: string[] } = {}): LspTestClient {
    const child = spawn(process.execPath, [serverModule, '--stdio', ...(options.args ?? [])], {
      cwd: options.cwd ?? repoRoot,
      env: { ...process.env, ...options.env },
      stdio: 'pipe',
    });
    const reader = new StreamMessageReader(child.stdout);
    // A server killed mid-write leaves half a message; the reader would re-arm its 'partial message' timer
    // forever (even after dispose) and keep the test process alive.
    reader.partialMessageTimeout = 0;
    const connection = createProtocolConnection(reader, new StreamMessageWriter(child.stdin));
    return new LspTestClient(child, connection);
  }

  /** Holds the server's requests of `method` unanswered until `release(method)`. */
  hold(method: string): void {
    this.held.set(method, []);
  }

  /** Answers the held requests of `method`, and those that follow at once. */
  release(method: string): void {
    const waiting = this.held.get(method) ?? [];
    this.held.delete(method);
    for (const answer of waiting) answer();
  }

  /** `initialize` with the folder as the only workspace folder, then `initialized`. */
  async initialize(folder: string, overrides: Partial<InitializeParams> = {}): Promise<InitializeResult> {
    const result = await this.initializeOnly(folder, overrides);
    await this.initialized();
    return result;
  }

  /** `initialize` alone: the server has its answer out, and the client has not said `initialized` yet. */
  initializeOnly(folder: string, overrides: Partial<InitializeParams> = {}): Promise<InitializeResult> {
    const uri = fileUri(folder);
    return this.connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      clientInfo: { name: 'terrace-lsp-tests' },
      rootUri: uri,
      workspaceFolders: [{ uri, name: path.basename(folder) }],
      capabilities: {
        workspace: { configuration: true, workspaceFolders: true },
        textDocument: { publishDiagnostics: { relatedInformation: true }, hover: { contentFormat: ['markdown'] } },
        // As VS Code: server-made progress is shown.
        window: { workDoneProgress: true },
      },
      ...overrides,
    });
  }

  initialized(): Promise<void> {
    return this.connection.sendNotification(InitializedNotification.type, {});
  }

  async open(file: string, text: string, languageId = 'terraform', version = 1): Promise<string> {
    const uri = fileUri(file);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId, version, text },
    });
    return uri;
  }

  /** Replaces the whole text of an open document. */
  async change(uri: string, text: string, version: number): Promise<void> {
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    });
  }

  /**
   * The first notification of that type (by method name or typed) matching `accept`, including those that
   * arrived before the call.
   */
  waitForNotification<P>(
    type: NotificationType<P> | string,
    accept: (params: P) => boolean = () => true,
    timeoutMs = 5000,
  ): Promise<P> {
    const method = typeof type === 'string' ? type : type.method;
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.notifications.find((n) => n.method === method && accept(n.params as P));
        if (!found) return false;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(found.params as P);
        return true;
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        const seen = this.notifications.map((n) => n.method).join(', ') || 'none';
        reject(new Error(`no matching ${method} within ${timeoutMs} ms (notifications so far: ${seen})`));
      }, timeoutMs);
      if (!check()) this.waiters.add(check);
    });
  }

  /** `shutdown`, then `exit`; resolves with how the process ended, or rejects if it is still running after `timeoutMs`. */
  async shutdown(timeoutMs = 5000): Promise<ProcessExit> {
    await this.connection.sendRequest(ShutdownRequest.type);
    return this.exit(timeoutMs);
  }

  /** The `exit` notification alone (a server that was not shut down exits with code 1). */
  async exit(timeoutMs = 5000): Promise<ProcessExit> {
    await this.connection.sendNotification(ExitNotification.type);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the server did not exit within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
      this.connection.dispose();
    }
  }

  /** Ends the process if a test left it running. */
  async dispose(): Promise<void> {
    this.connection.dispose();
    if (this.process.exitCode === null && this.process.signalCode === null) {
      this.process.kill('SIGKILL');
      await this.exited;
    }
  }
}

/** A server started on `root`, once it has indexed it. */
export async function started(root: string): Promise<LspTestClient> {
  const client = LspTestClient.start();
  await client.initialize(root);
  await client.waitForNotification<ServerStatusParams>(
    'terrace/serverStatus',
    (status) => status.health === 'ready',
    20_000,
  );
  return client;
}

/** The last diagnostics published for `file`, once one matches `accept`. */
export async function latestDiagnostics(
  client: LspTestClient,
  file: string,
  accept: (list: Diagnostic[]) => boolean,
  timeoutMs = 10_000,
): Promise<Diagnostic[]> {
  const uri = fileUri(file);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const published = client.notifications.filter(
      (n) => n.method === 'textDocument/publishDiagnostics' && (n.params as PublishDiagnosticsParams).uri === uri,
    );
    const last = published.at(-1)?.params as PublishDiagnosticsParams | undefined;
    if (last && accept(last.diagnostics)) return last.diagnostics;
    if (Date.now() > deadline)
      throw new Error(`no matching diagnostics for ${file}; last: ${JSON.stringify(last?.diagnostics)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A file's URI as VS Code writes it (a '+' as '%2B'): the client the server serves. */
export function fileUri(file: string): string {
  return URI.file(file).toString();
}
