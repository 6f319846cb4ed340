import * as vscode from 'vscode';
import type { GraphModel, GraphModule } from '../../server/src/protocol';
import { openModule } from './graphSource';
import { levelSections } from './levelSections';

interface ModuleItem extends vscode.QuickPickItem {
  module?: GraphModule;
}

/**
 * `Terrace: Show Execution Levels`: every module under a `Level N` separator, the modules in or behind a cycle
 * under separators of their own (they have no level); the chosen one opens.
 */
export async function pickFromLevels(graph: GraphModel): Promise<GraphModule | undefined> {
  const byId = new Map(graph.modules.map((module) => [module.id, module]));
  const items: ModuleItem[] = [];
  const sections = levelSections(graph);
  for (const section of sections) {
    items.push({ label: section.title, kind: vscode.QuickPickItemKind.Separator });
    for (const id of section.ids) items.push(moduleItem(graph, byId.get(id)!, section.noLevel));
  }
  const levels = sections.filter((section) => !section.noLevel).length;
  const cycles = graph.cycles.length;
  return pick(
    items,
    `${graph.modules.length} modules in ${levels} level${levels === 1 ? '' : 's'}${cycles ? `, ${cycles} cycle${cycles === 1 ? '' : 's'}` : ''} — pick one to open`,
  );
}

function moduleItem(graph: GraphModel, module: GraphModule, noLevel: boolean): ModuleItem {
  const dependencies = new Set(graph.edges.filter((edge) => edge.from === module.id).map((edge) => edge.to)).size;
  const where = module.inCycle
    ? 'in a cycle, no level'
    : noLevel
      ? 'waits for a cycle, no level'
      : `level ${module.level}`;
  return {
    label: `${module.inCycle ? '$(error)' : '$(folder)'} ${module.id}`,
    description: `${where} · ${dependencies} ${dependencies === 1 ? 'dependency' : 'dependencies'}${module.runState ? ` · ${module.runState.state}` : ''}`,
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
