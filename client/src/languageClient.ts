import path from 'node:path';
import * as vscode from 'vscode';
import {
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';
import type { TerraceInitializationOptions } from '../../server/src/protocol';
import type { DiagnosticsBatch } from './diagnosticsBatch';

/** Builds (does not start) the client for the Terrace server bundled at `dist/server.js`, over node IPC. */
export function createLanguageClient(
  context: vscode.ExtensionContext,
  output: vscode.LogOutputChannel,
  /** Where the diagnostics the server publishes go, to be handed to VS Code together. */
  diagnostics: DiagnosticsBatch,
): LanguageClient {
  const serverModule = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    // Not when debugged: `--nolazy` compiles other code, which a cache of this would not fit.
    run: { module: serverModule, transport: TransportKind.ipc, args: [`--code-cache=${codeCacheFolder(context)}`] },
    debug: {
      module: serverModule,
      transport: TransportKind.ipc,
      options: { execArgv: ['--nolazy', '--inspect=6019'] },
    },
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
  return new LanguageClient('terrace', 'Terrace', serverOptions, clientOptions);
}

/** Where the server and the layout thread keep their bundles' code caches (`codeCache.ts`): the extension's own. */
export function codeCacheFolder(context: vscode.ExtensionContext): string {
  return path.join(context.globalStorageUri.fsPath, 'code-cache');
}
