import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';

/**
 * The language server's process, forked as vscode-languageclient forks a Node module over IPC (its
 * `TransportKind.ipc`: `--node-ipc`, the client's process id, Node's mode in Electron, silent). Forked by the
 * extension's entry (`main.ts`) before the client's bundle loads, so that the server's start and the client's
 * load share the machine's cores instead of following each other; later starts (a restart) fork again.
 * Knows nothing of the language client: only Node's and VS Code's APIs, to keep the entry small.
 */
export function forkServer(context: vscode.ExtensionContext): ChildProcess {
  const cwd = rootPath();
  const debug = startedInDebugMode();
  const args = [
    // Not when debugged: `--nolazy` compiles other code, which a cache of this would not fit.
    ...(debug ? [] : [`--code-cache=${codeCacheFolder(context)}`]),
    '--node-ipc',
    `--clientProcessId=${process.pid}`,
  ];
  const server = fork(context.asAbsolutePath('dist/server.js'), args, {
    cwd: cwd !== undefined && existsSync(cwd) ? cwd : undefined,
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', ELECTRON_NO_ASAR: '1' },
    execArgv: debug ? ['--nolazy', '--inspect=6019'] : [],
    silent: true,
  });
  // A process that could not start is the client's to report (its connection's reader hears the error too); until
  // the client has one, the error must not end the extension host.
  server.on('error', () => undefined);
  return server;
}

/** Where the server, the layout thread and the client keep their bundles' code caches (`codeCache.ts`). */
export function codeCacheFolder(context: vscode.ExtensionContext): string {
  return path.join(context.globalStorageUri.fsPath, 'code-cache');
}

/** The folder the server runs in, as the language client picks it: the first workspace folder, if on disk. */
function rootPath(): string | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder?.uri.scheme === 'file' ? folder.uri.fsPath : undefined;
}

/** Whether the extension host is being debugged: the server is then too, on a port of its own (as the client does). */
export function startedInDebugMode(): boolean {
  return process.execArgv.some((arg) => /^--(debug|debug-brk|inspect|inspect-brk)(=|$)/.test(arg));
}
