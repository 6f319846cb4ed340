import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { ModuleForUriRequest, type RunTargetsParams } from '../../server/src/protocol';

const DEFAULT_BASE_REF = 'origin/main';

/** What to run; each choice left out is asked (tests and other extensions pass them). */
export interface RunChoices {
  folderUri?: string;
  /** All modules, the ones changed since `baseRef` (+ dependents), or `modules`. */
  scope?: 'all' | 'changed' | 'modules';
  modules?: string[];
  withDependencies?: boolean;
  withDependents?: boolean;
  baseRef?: string;
  /** Overrides `terrace.parallelism` / `execution.parallelism`. */
  parallelism?: number;
  /** Apply Saved Plans: true skips the confirmation (tests); false answers it with no. */
  confirmed?: boolean;
}

/** Which modules a run covers: from the choices, or asked with a quick pick (all, changed, the current module). */
export async function runScope(
  client: LanguageClient,
  folderUri: string,
  choices: RunChoices,
): Promise<RunTargetsParams | undefined> {
  const base = {
    folderUri,
    ...(choices.withDependencies ? { withDependencies: true } : {}),
    ...(choices.withDependents ? { withDependents: true } : {}),
  };
  if (choices.scope === 'all') return { folderUri };
  if (choices.scope === 'modules' || (choices.scope === undefined && choices.modules))
    return { ...base, modules: choices.modules ?? [] };
  if (choices.scope === 'changed') {
    const baseRef = choices.baseRef ?? (await askBaseRef());
    return baseRef ? { folderUri, changedOnly: true, baseRef } : undefined;
  }
  const current = await currentModule(client, folderUri);
  type Item = vscode.QuickPickItem & { params?: () => Promise<RunTargetsParams | undefined> };
  const items: Item[] = [
    {
      label: '$(list-flat) All modules',
      detail: 'Every module, each after the modules it depends on',
      params: async () => ({ folderUri }),
    },
    {
      label: '$(git-compare) Changed modules',
      detail: 'Modules changed since a ref (committed or not), and what depends on them',
      params: async () => {
        const baseRef = await askBaseRef();
        return baseRef ? { folderUri, changedOnly: true, baseRef } : undefined;
      },
    },
  ];
  if (current) {
    items.push(
      {
        label: `$(file) ${current}`,
        detail: 'This module only',
        params: async () => ({ folderUri, modules: [current] }),
      },
      {
        label: `$(arrow-up) ${current} and its dependencies`,
        detail: 'With everything it reads state from, transitively',
        params: async () => ({ folderUri, modules: [current], withDependencies: true }),
      },
      {
        label: `$(arrow-down) ${current} and its dependents`,
        detail: 'With everything that reads its state, transitively',
        params: async () => ({ folderUri, modules: [current], withDependents: true }),
      },
    );
  }
  const chosen = await vscode.window.showQuickPick(items, { placeHolder: 'Which modules?' });
  return chosen?.params?.();
}

async function currentModule(client: LanguageClient, folderUri: string): Promise<string | undefined> {
  const uri = vscode.window.activeTextEditor?.document.uri;
  if (uri?.scheme !== 'file') return undefined;
  if (vscode.workspace.getWorkspaceFolder(uri)?.uri.toString() !== folderUri) return undefined;
  const module = await client.sendRequest(ModuleForUriRequest.type, { uri: uri.toString() });
  return module?.id;
}

async function askBaseRef(): Promise<string | undefined> {
  return vscode.window.showInputBox({
    title: 'Terrace: changed since which ref?',
    prompt: 'Modules changed since the merge base with this ref (and uncommitted changes), plus their dependents',
    value: DEFAULT_BASE_REF,
    validateInput: (value) => (value.trim() ? undefined : 'a branch, tag or commit, e.g. origin/main'),
  });
}
