import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';

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
  generatePipeline: notYet('pipeline generation'),
  runPlans: notYet('running plans'),
  showLevels: notYet('the execution levels view'),
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
