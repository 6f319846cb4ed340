import type { ChildProcess } from 'node:child_process';
import * as vscode from 'vscode';
import { type LanguageClient, State } from 'vscode-languageclient/node';
import type { CachedBundle } from '../../server/src/codeCache';
import {
  ServerStatusNotification,
  StartupTimingsNotification,
  WorkspaceTrustedNotification,
} from '../../server/src/protocol';
import { registerCommands } from './commands';
import { Config, offerRestartOnChange } from './config';
import { DiagnosticsBatch, type DiagnosticsHandedOver } from './diagnosticsBatch';
import { DriftSchedule } from './driftSchedule';
import { EnvironmentPicker } from './environmentPicker';
import { GraphPanel } from './graphPanel';
import { createLanguageClient } from './languageClient';
import { LayoutService } from './layoutService';
import { layOutPanelsAhead } from './panelAhead';
import { PanelAreas } from './panelAreas';
import { PlanTerminalLinks } from './planTerminal';
import { ReadersLens } from './readersLens';
import { RunPlans } from './runPlans';
import { codeCacheFolder } from './serverProcess';
import { ServerReadiness } from './serverReadiness';
import { StartupTimes } from './startupTimes';
import { StatusItem } from './statusItem';

/** What `activate` returns: used by the extension's own tests, and by other extensions. */
export interface TerraceApi {
  readonly client: LanguageClient;
  /** 'running' once the language server answered `initialize`. */
  clientState(): 'starting' | 'running' | 'stopped';
  /** The `terrace.*` settings, typed: of a folder (a URI string), or of the workspace. */
  config(folderUri?: string): Config;
  /** What the status item shows: its text and its tooltip's Markdown. */
  status(): { text: string; tooltip: string };
  /** When the start-up steps happened, for what a new window's first diagnostics wait for. */
  readonly startup: StartupTimes;
  /** How many batches of diagnostics went to VS Code, with how many files' diagnostics. */
  diagnosticsHandedOver(): DiagnosticsHandedOver;
  /** Where the server and the layout thread keep their code caches (`codeCache.ts`). */
  readonly codeCacheFolder: string;
  /** The drawing areas of the last graph panels, beside an editor and alone (`panelAreas.ts`). */
  readonly panelAreas: PanelAreas;
}

let client: LanguageClient | undefined;

/** How long after the client runs its bundle's code cache is written. */
const CODE_CACHE_AFTER_MS = 2000;

/** What the extension's entry (`main.ts`) did before it loaded this bundle. */
export interface EntryStart {
  /** The language server's process, forked already. */
  server: ChildProcess;
  /** When VS Code called the entry's `activate`. */
  activatedAt: number;
  /** This bundle, loaded with its code cache (not when debugged): written once the client runs, if it came from none. */
  bundle: CachedBundle | undefined;
}

/**
 * Activates the extension, after its entry (`main.ts`) forked the server and loaded this bundle; without it (a host
 * that loads this bundle itself) the client forks the server.
 */
export async function activate(context: vscode.ExtensionContext, entry?: EntryStart): Promise<TerraceApi> {
  const startup = new StartupTimes(entry?.activatedAt ?? Date.now());
  const output = vscode.window.createOutputChannel('Terrace', { log: true });
  const status = new StatusItem();
  const diagnostics = new DiagnosticsBatch(
    () => client?.diagnostics,
    () => startup.diagnosticsArrived(),
  );
  client = createLanguageClient(context, output, diagnostics, entry?.server);
  const running = client;
  // Started first: the server's start and its reading are what a window's first problems wait for, and what
  // follows only registers (its notification handlers wait in the client until the server is initialized).
  const started = running.start();
  const runs = new RunPlans(running, output);
  const server = new ServerReadiness(running);
  const environments = new EnvironmentPicker(running, context.workspaceState);
  // The graph panel's layouts, made in a thread of the extension host started with the client, kept for the next window.
  const layouts = LayoutService.forExtension(
    context.extensionPath,
    context.storageUri?.fsPath,
    codeCacheFolder(context),
    (message) => output.warn(message),
  );
  const areas = new PanelAreas(context.globalState);
  const readersLens = new ReadersLens(running);
  /** The modules the server last said it knows, in every folder. */
  let modules = 0;
  context.subscriptions.push(
    { dispose: () => layouts.dispose() },
    environments,
    output,
    status,
    runs,
    server,
    new DriftSchedule(runs, server),
    offerRestartOnChange(),
    vscode.window.registerTerminalLinkProvider(new PlanTerminalLinks()),
    readersLens,
    // Any file a module may read: a yaml, a template, a child module's `.tf`, a root `terragrunt.hcl`.
    vscode.languages.registerCodeLensProvider({ scheme: 'file' }, readersLens),
    ...registerCommands({
      client: running,
      server,
      output,
      extensionUri: context.extensionUri,
      runs,
      environments,
      layouts,
      areas,
    }),
    GraphPanel.registerSerializer({ client: running, output, extensionUri: context.extensionUri, layouts, areas }),
    running.onNotification(ServerStatusNotification.type, (params) => {
      modules = params.modules;
      status.show(params);
    }),
    layOutPanelsAhead(running, layouts, areas, () => modules, output),
    running.onNotification(StartupTimingsNotification.type, (timings) => {
      startup.server = timings;
    }),
    // Restricted Mode ends without a reload: the server may start git again, and runs are allowed.
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      status.trusted();
      // A stopped server is told at its next start (its initialization options are asked then).
      if (running.state !== State.Stopped)
        void running.sendNotification(WorkspaceTrustedNotification.type).catch(() => undefined);
    }),
    running.onDidChangeState((event) => {
      if (event.newState === State.Stopped) {
        status.show({ health: 'error', message: 'server stopped', modules: 0, cycles: 0 });
      }
    }),
  );
  await started;
  startup.clientRunningAt = Date.now();
  // Written once what the start runs is compiled, and not in its way: a next window's client loads it compiled.
  const bundle = entry?.bundle;
  if (bundle) setTimeout(() => output.info(bundle.save()), CODE_CACHE_AFTER_MS).unref();
  // The layout thread starts, elkjs loaded, while the server reads, not when the first panel waits for it.
  void layouts.startSoon().then((ready) => {
    if (ready) startup.layoutThreadReadyAt = Date.now();
  });
  void environments.restore();
  return {
    client: running,
    clientState: () =>
      running.state === State.Running ? 'running' : running.state === State.Starting ? 'starting' : 'stopped',
    config: (folderUri) => Config.of(folderUri),
    status: () => status.shown,
    startup,
    diagnosticsHandedOver: () => diagnostics.counts(),
    codeCacheFolder: codeCacheFolder(context),
    panelAreas: areas,
  };
}

export function deactivate(): Thenable<void> | undefined {
  return client?.stop();
}
