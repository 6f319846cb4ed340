import * as vscode from 'vscode';
import type { GraphModel, GraphModule } from '../../server/src/protocol';
import { openModule } from './graphSource';

interface ModuleItem extends vscode.QuickPickItem {
  module?: GraphModule;
}

/** `Terrace: Show Execution Levels`: every module under a `Level N` separator; the chosen one opens. */
export async function pickFromLevels(graph: GraphModel): Promise<GraphModule | undefined> {
  const byId = new Map(graph.modules.map((module) => [module.id, module]));
  const items: ModuleItem[] = [];
  graph.levels.forEach((ids, level) => {
    items.push({ label: `Level ${level}`, kind: vscode.QuickPickItemKind.Separator });
    for (const id of ids) items.push(moduleItem(graph, byId.get(id)!));
  });
  const cycles = graph.cycles.length;
  return pick(
    items,
    `${graph.modules.length} modules in ${graph.levels.length} levels${cycles ? `, ${cycles} cycle${cycles === 1 ? '' : 's'}` : ''} — pick one to open`,
  );
}

function moduleItem(graph: GraphModel, module: GraphModule): ModuleItem {
  const dependencies = new Set(graph.edges.filter((edge) => edge.from === module.id).map((edge) => edge.to)).size;
  return {
    label: `${module.inCycle ? '$(error)' : '$(folder)'} ${module.id}`,
    description: `level ${module.level} · ${dependencies} ${dependencies === 1 ? 'dependency' : 'dependencies'}${module.inCycle ? ' · in a cycle' : ''}${module.runState ? ` · ${module.runState.state}` : ''}`,
    detail: module.backend?.address || undefined,
    module,
  };
}

async function pick(items: ModuleItem[], placeHolder: string): Promise<GraphModule | undefined> {
  const chosen = await vscode.window.showQuickPick(items, {
    placeHolder,
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (chosen?.module) await openModule(chosen.module);
  return chosen?.module;
}
