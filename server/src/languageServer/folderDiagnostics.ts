import path from 'node:path';
import { CONFIG_FILE } from '../engine/config';
import { addContractDiagnostics, type EngineDiagnostic, workspaceDiagnostics } from '../engine/features';
import { isConfigurationFile } from '../engine/workspace';
import { contractsInTurn } from './contractsInTurn';
import { messagesInTurn } from './messagesInTurn';
import type { FolderState, WorkspaceFolders } from './workspaceFolders';

/** The documents open in the editor, by file: their syntax is checked with Terraform's own messages. */
export interface OpenDocuments {
  files(): string[];
  textOf(file: string): string | undefined;
}

/**
 * Every file's diagnostics in the folder, open or not, by file; undefined when the folder changed meanwhile.
 * Syntax errors use Terraform's own messages (hcl2json) for open documents and for files the fast parser found
 * broken. The reads of outputs a writer does not declare are among them unless `withContracts` is false (a
 * fresh window's first diagnostics, which do not wait for them).
 */
export async function folderDiagnostics(
  folder: FolderState,
  folders: WorkspaceFolders,
  open: OpenDocuments,
  withContracts: boolean,
): Promise<Map<string, EngineDiagnostic[]> | undefined> {
  const version = folder.version;
  const byFile = new Map<string, EngineDiagnostic[]>();
  if (folder.error) {
    byFile.set(path.join(folder.root, CONFIG_FILE), [
      {
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        severity: 'error',
        code: 'module-problem',
        message: folder.error,
        related: [],
      },
    ]);
    return byFile;
  }
  const contracts = withContracts ? await contractsInTurn(folder.analysis) : undefined;
  // Each whole-workspace step goes after what was asked meanwhile (tens of ms each at 11,000 units).
  await messagesInTurn();
  if (folder.version !== version) return undefined;
  for (const [file, list] of workspaceDiagnostics(folder.analysis.result())) byFile.set(file, list);
  if (contracts) addContractDiagnostics(contracts, byFile);
  await messagesInTurn();
  await useTerraformSyntaxMessages(folder, folders, open, byFile);
  return folder.version === version ? byFile : undefined;
}

async function useTerraformSyntaxMessages(
  folder: FolderState,
  folders: WorkspaceFolders,
  open: OpenDocuments,
  byFile: Map<string, EngineDiagnostic[]>,
): Promise<void> {
  const opened = open
    .files()
    // Only the files the engine reads: not a `.tf` file its `.tofu` namesake replaces, nor `.tofu` files in Terraform's.
    .filter(
      (file) =>
        folders.forFile(file) === folder && isConfigurationFile(file) && folder.analysis.factsOf(file) !== undefined,
    );
  const broken = [...byFile].filter(([, list]) => list.some((d) => d.code === 'hcl-syntax')).map(([file]) => file);
  for (const file of new Set([...opened, ...broken])) {
    const exact = await folders.exactSyntaxErrors(file, open.textOf(file));
    if (exact === undefined) continue;
    const others = (byFile.get(file) ?? []).filter((d) => d.code !== 'hcl-syntax');
    const syntax = exact.map(
      (error): EngineDiagnostic => ({
        range: error.range,
        severity: 'error',
        code: 'hcl-syntax',
        message: error.message,
        related: [],
      }),
    );
    if (others.length + syntax.length > 0) byFile.set(file, [...others, ...syntax]);
    else byFile.delete(file);
  }
}
