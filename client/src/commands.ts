import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { generatePipeline, type PipelineChoices } from './generatePipeline';
import { currentGraph } from './graphSource';
import { pickFromLevels, pickNeighbour } from './modulePicks';

/** What a command needs from the running extension. */
export interface CommandContext {
  readonly client: LanguageClient;
  readonly output: vscode.LogOutputChannel;
}

type Command = (ctx: CommandContext) => (...args: unknown[]) => unknown;

/** A command whose feature has not landed yet says so instead of failing. */
function notYet(feature: string): Command {
  return () => () => {
    const message = `Terrace: ${feature} is not available in this version yet.`;
    void vscode.window.showInformationMessage(message);
    return message;
  };
}

/** Every command of the extension, by id (without the `terrace.` prefix). */
export const commands: Record<string, Command> = {
  showGraph: notYet('the graph panel'),
  generatePipeline: (ctx) => (choices?: unknown) => generatePipeline(ctx.client, (choices ?? {}) as PipelineChoices),
  runPlans: notYet('running plans'),
  showLevels: (ctx) => async () => {
    const graph = await currentGraph(ctx.client);
    if (!graph) return undefined;
    return (await pickFromLevels(graph))?.id;
  },
  showModule: (ctx) => async (folderUri: unknown, id: unknown) => {
    if (typeof folderUri !== 'string' || typeof id !== 'string') return undefined;
    const graph = await currentGraph(ctx.client, folderUri);
    if (!graph) return undefined;
    return (await pickNeighbour(graph, id))?.id;
  },
  restartServer: (ctx) => async () => {
    await ctx.client.restart();
    return ctx.client.state;
  },
  showOutput: (ctx) => () => ctx.output.show(true),
};

export function registerCommands(ctx: CommandContext): vscode.Disposable[] {
  return Object.entries(commands).map(([name, factory]) =>
    vscode.commands.registerCommand(`terrace.${name}`, factory(ctx)),
  );
}
