import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import * as vscode from 'vscode';
import {
  IPCMessageReader,
  IPCMessageWriter,
  LanguageClient,
  type LanguageClientOptions,
  type MessageTransports,
  type ServerOptions,
  State,
} from 'vscode-languageclient/node';
import type { TerraceInitializationOptions } from '../../server/src/protocol';
import type { DiagnosticsBatch } from './diagnosticsBatch';
import { forkServer } from './serverProcess';

/**
 * Builds (does not start) the client for the Terrace server bundled at `dist/server.js`, over node IPC: its first
 * start talks to the process the extension's entry forked (`main.ts`), each later start forks another.
 */
export function createLanguageClient(
  context: vscode.ExtensionContext,
  output: vscode.LogOutputChannel,
  /** Where the diagnostics the server publishes go, to be handed to VS Code together. */
  diagnostics: DiagnosticsBatch,
  /** The server's process, forked already; a new one is forked when none is given. */
  forked: ChildProcess | undefined,
): LanguageClient {
  let next = forked;
  let current: ChildProcess | undefined;
  const serverOptions: ServerOptions = async () => {
    current = next ?? forkServer(context);
    next = undefined;
    return transports(current, output);
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', pattern: '**/*.tf' },
      { scheme: 'file', pattern: '**/*.tf.json' },
      // OpenTofu's own files.
      { scheme: 'file', pattern: '**/*.tofu' },
      { scheme: 'file', pattern: '**/*.tofu.json' },
      { scheme: 'file', pattern: '**/*.tfvars' },
      // Terragrunt configurations (terragrunt.hcl, root.hcl, env.hcl, …) and backend files.
      { scheme: 'file', pattern: '**/*.hcl' },
    ],
    outputChannel: output,
    middleware: {
      handleDiagnostics: (uri, list) => diagnostics.set(uri, list),
    },
    // Asked at each start: a server restarted after the workspace was trusted may run git, or the settings changed.
    initializationOptions: (): TerraceInitializationOptions => ({
      trusted: vscode.workspace.isTrusted,
      settings: Object.fromEntries(
        (vscode.workspace.workspaceFolders ?? []).map((folder) => [
          folder.uri.toString(),
          vscode.workspace.getConfiguration(undefined, folder.uri).get('terrace'),
        ]),
      ),
    }),
    // No `synchronize.configurationSection`: the server registers for the `terrace` section's changes itself and
    // asks for the settings (`workspace/configuration`); both together told it of each change twice.
  };
  const client = new LanguageClient('terrace', 'Terrace', serverOptions, clientOptions);
  // The client ends only the processes it forks itself: this one is ended here, when it has not exited two seconds
  // after the client stopped (the client's own wait for a server asked to exit).
  client.onDidChangeState(({ newState }) => {
    const server = current;
    if (newState !== State.Stopped || server === undefined) return;
    setTimeout(() => {
      if (server.exitCode === null && server.signalCode === null) server.kill();
    }, 2000).unref();
  });
  return client;
}

/** The messages to and from a forked server, and its output's lines in the log, as the client does with its own. */
function transports(server: ChildProcess, output: vscode.LogOutputChannel): MessageTransports {
  if (server.stdout)
    createInterface({ input: server.stdout, crlfDelay: Infinity }).on('line', (line) => output.info(line));
  if (server.stderr)
    createInterface({ input: server.stderr, crlfDelay: Infinity }).on('line', (line) => output.error(line));
  server.on('exit', (code, signal) => {
    if (code) output.error(`Server process exited with code ${code}.`);
    if (signal) output.error(`Server process exited with signal ${signal}.`);
  });
  return { reader: new IPCMessageReader(server), writer: new IPCMessageWriter(server) };
}
