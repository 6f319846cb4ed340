import * as vscode from 'vscode';
import { type LanguageClient, type Location, type Position, State } from 'vscode-languageclient/node';
import type { EnvironmentPicker } from './environmentPicker';
import { generatePipeline, type PipelineChoices } from './generatePipeline';
import { GraphPanel } from './graphPanel';
import { currentGraph } from './graphSource';
import type { LayoutService } from './layoutService';
import { pickFromLevels } from './modulePicks';
import type { PanelAreas } from './panelAreas';
import type { RunPlans } from './runPlans';
import type { RunChoices } from './runScope';
import type { ServerReadiness, ServerUnavailable } from './serverReadiness';

/** What every command gets from the extension. */
export interface CommandContext {
  readonly client: LanguageClient;
  readonly server: ServerReadiness;
  readonly output: vscode.LogOutputChannel;
  readonly extensionUri: vscode.Uri;
  /** Run Plans, Apply Saved Plans, Check Drift, Stop Run. */
  readonly runs: RunPlans;
  /** The graph panel's layouts, in the extension host. */
  readonly layouts: LayoutService;
  /** The drawing areas of the last graph panels, for the layouts made ahead of the next. */
  readonly areas: PanelAreas;
  /** The environment each folder is analysed in. */
  readonly environments: EnvironmentPicker;
}

/** The context of a command that talks to the server: made only while the language client runs. */
export type ReadyContext = CommandContext & { readonly client: LanguageClient & { readonly state: State.Running } };

type Handler = (...args: unknown[]) => unknown;

/**
 * A command: its handler made from the context. One that needs the server (`server`) is made on
 * each call once the server runs: while it starts the call waits (with a progress notification,
 * at most 20 s), since the user asked for something the server will soon answer; while it is
 * stopped or crashed the call says so at once (with Restart Server and Show Output) and resolves
 * with a `ServerUnavailable`. One that does not (`local`) always runs.
 */
type Command =
  | { server: true; make: (ctx: ReadyContext) => Handler }
  | { server: false; make: (ctx: CommandContext) => Handler };

const server = (make: (ctx: ReadyContext) => Handler): Command => ({ server: true, make });
const local = (make: (ctx: CommandContext) => Handler): Command => ({ server: false, make });

/** Every command of the extension, by id (without the `terrace.` prefix). */
export const commands: Record<string, Command> = {
  /** The graph panel on a folder (a folder URI, a resource of it, or the folder the user works in). */
  showGraph: server((ctx) => async (target: unknown) => GraphPanel.createOrShow(ctx, folderOf(target))),
  // The panel's webview exports what it shows; no server needed.
  exportGraphSvg: local(() => () => GraphPanel.currentPanel?.runCommand('exportSvg')),
  exportGraphPng: local(() => () => GraphPanel.currentPanel?.runCommand('exportPng')),
  generatePipeline: server(
    (ctx) => (choices?: unknown) => generatePipeline(ctx.client, (choices ?? {}) as PipelineChoices),
  ),
  /** Choices (folder, modules, …) as the argument, or asked; resolves with what ran, once it is done. */
  runPlans: server((ctx) => (choices?: unknown) => ctx.runs.runPlans((choices ?? {}) as RunChoices)),
  applySavedPlans: server((ctx) => (choices?: unknown) => ctx.runs.applySavedPlans((choices ?? {}) as RunChoices)),
  checkDrift: server((ctx) => (choices?: unknown) => ctx.runs.checkDrift((choices ?? {}) as RunChoices)),
  // Stops this window's terraform processes: it must work when the server has crashed too.
  stopRun: local((ctx) => () => ctx.runs.stop()),
  /** An environment name (null: all of them) and a folder URI as arguments, or asked. */
  selectEnvironment: server(
    (ctx) => (environment?: unknown, folderUri?: unknown) =>
      ctx.environments.select(
        typeof environment === 'string' || environment === null ? environment : undefined,
        typeof folderUri === 'string' ? folderUri : undefined,
      ),
  ),
  showLevels: server((ctx) => async () => {
    const graph = await currentGraph(ctx.client);
    if (!graph) return undefined;
    return (await pickFromLevels(graph))?.id;
  }),
  /** The code lens above a backend block: the graph panel focused on that module. */
  showModule: server((ctx) => async (folderUri: unknown, id: unknown) => {
    if (typeof folderUri !== 'string' || typeof id !== 'string') return undefined;
    return GraphPanel.createOrShow(ctx, folderUri, id);
  }),
  /** The code lens above an `output` block: VS Code's references view on its uses, sent as LSP shapes. */
  showReferences: local((ctx) => (uri: unknown, position: unknown, locations: unknown) => {
    const converter = ctx.client.protocol2CodeConverter;
    if (typeof uri !== 'string' || !isPosition(position) || !Array.isArray(locations)) return undefined;
    return vscode.commands.executeCommand(
      'editor.action.showReferences',
      converter.asUri(uri),
      converter.asPosition(position),
      locations.filter(isLocation).map((location) => converter.asLocation(location)),
    );
  }),
  // The way out of a stopped or crashed server: it runs in every state.
  restartServer: local((ctx) => async () => {
    await ctx.server.restart();
    return ctx.client.state;
  }),
  showOutput: local((ctx) => () => ctx.output.show(true)),
};

/** The workspace folder a command argument names: a folder URI string, or a file or folder URI inside it. */
function folderOf(target: unknown): string | undefined {
  if (typeof target === 'string') return target;
  if (target instanceof vscode.Uri) return vscode.workspace.getWorkspaceFolder(target)?.uri.toString();
  return undefined;
}

function isPosition(value: unknown): value is Position {
  const position = value as Position | null | undefined;
  return typeof position?.line === 'number' && typeof position.character === 'number';
}

function isLocation(value: unknown): value is Location {
  const location = value as Location | null | undefined;
  return typeof location?.uri === 'string' && isPosition(location.range?.start) && isPosition(location.range.end);
}

function isReady(ctx: CommandContext): ctx is ReadyContext {
  return ctx.client.state === State.Running;
}

/** A server command's handler: waits for the server (or says why not), then makes and runs the command. */
function whenReady(ctx: CommandContext, make: (ctx: ReadyContext) => Handler): Handler {
  return async (...args: unknown[]): Promise<unknown> => {
    const unavailable: ServerUnavailable | undefined = await ctx.server.ensureReady();
    if (unavailable) return unavailable;
    if (!isReady(ctx)) return { serverUnavailable: 'stopped' } satisfies ServerUnavailable;
    return make(ctx)(...args);
  };
}

/** Registers every command once; a server command checks the server on each call. */
export function registerCommands(ctx: CommandContext): vscode.Disposable[] {
  return Object.entries(commands).map(([name, command]) =>
    vscode.commands.registerCommand(
      `terrace.${name}`,
      command.server ? whenReady(ctx, command.make) : command.make(ctx),
    ),
  );
}
