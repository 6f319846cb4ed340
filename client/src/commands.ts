import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { generatePipeline, type PipelineChoices } from './generatePipeline';
import { GraphPanel } from './graphPanel';
import { currentGraph } from './graphSource';
import { pickFromLevels } from './modulePicks';
import type { RunChoices, RunPlans } from './runPlans';

/** What a command needs from the running extension. */
export interface CommandContext {
  readonly client: LanguageClient;
  readonly output: vscode.LogOutputChannel;
  readonly extensionUri: vscode.Uri;
  /** Run Plans, Apply Saved Plans, Check Drift, Stop Run. */
  readonly runs: RunPlans;
}

type Command = (ctx: CommandContext) => (...args: unknown[]) => unknown;

/** Every command of the extension, by id (without the `terrace.` prefix). */
export const commands: Record<string, Command> = {
  /** The graph panel on a folder (a folder URI, a resource of it, or the folder the user works in). */
  showGraph: (ctx) => async (target: unknown) => GraphPanel.createOrShow(ctx, folderOf(target)),
  exportGraphSvg: () => () => GraphPanel.currentPanel?.runCommand('exportSvg'),
  exportGraphPng: () => () => GraphPanel.currentPanel?.runCommand('exportPng'),
  generatePipeline: (ctx) => (choices?: unknown) => generatePipeline(ctx.client, (choices ?? {}) as PipelineChoices),
  /** Choices (folder, modules, …) as the argument, or asked; resolves with what ran, once it is done. */
  runPlans: (ctx) => (choices?: unknown) => ctx.runs.runPlans((choices ?? {}) as RunChoices),
  applySavedPlans: (ctx) => (choices?: unknown) => ctx.runs.applySavedPlans((choices ?? {}) as RunChoices),
  checkDrift: (ctx) => (choices?: unknown) => ctx.runs.checkDrift((choices ?? {}) as RunChoices),
  stopRun: (ctx) => () => ctx.runs.stop(),
  showLevels: (ctx) => async () => {
    const graph = await currentGraph(ctx.client);
    if (!graph) return undefined;
    return (await pickFromLevels(graph))?.id;
  },
  /** The code lens above a backend block: the graph panel focused on that module. */
  showModule: (ctx) => async (folderUri: unknown, id: unknown) => {
    if (typeof folderUri !== 'string' || typeof id !== 'string') return undefined;
    return GraphPanel.createOrShow(ctx, folderUri, id);
  },
  restartServer: (ctx) => async () => {
    await ctx.client.restart();
    return ctx.client.state;
  },
  showOutput: (ctx) => () => ctx.output.show(true),
};

/** The workspace folder a command argument names: a folder URI string, or a file or folder URI inside it. */
function folderOf(target: unknown): string | undefined {
  if (typeof target === 'string') return target;
  if (target instanceof vscode.Uri) return vscode.workspace.getWorkspaceFolder(target)?.uri.toString();
  return undefined;
}

export function registerCommands(ctx: CommandContext): vscode.Disposable[] {
  return Object.entries(commands).map(([name, factory]) =>
    vscode.commands.registerCommand(`terrace.${name}`, factory(ctx)),
  );
}
