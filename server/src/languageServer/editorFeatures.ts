import {
  type CodeLens,
  type CompletionItem,
  CompletionItemKind,
  type Connection,
  type Hover,
  type Location,
  LSPErrorCodes,
  MarkupKind,
  type PrepareRenameResult,
  ResponseError,
  type TextDocuments,
  type WorkspaceEdit,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { AnalysisResult } from '../engine/analysis';
import {
  componentSourceAt,
  moduleById,
  moduleHover,
  moduleLensTitle,
  moduleLocation,
  modulesPlacedIn,
  moduleWithBackendAt,
  type OutputIndex,
  outputBlockHover,
  outputCompletions,
  outputDefinitions,
  outputIndex,
  outputLenses,
  outputReferences,
  outputRenameEdits,
  outputsReadLine,
  outputUseHover,
  prepareOutputRename,
  referenceHover,
  referenceOutcomesAt,
} from '../engine/features';
import { SHOW_MODULE_COMMAND, SHOW_REFERENCES_COMMAND } from '../protocol';
import { pathToUri } from './fileUris';
import { toCompletionItem, toLocation, toOutputLens, toWorkspaceEdit } from './lspShapes';
import type { RunStateCache } from './runStateCache';
import type { FolderState } from './workspaceFolders';

/** A document's folder, its file and the folder's analysis, once indexed and with every open document's text. */
export interface DocumentAnalysis {
  folder: FolderState;
  file: string;
  result: AnalysisResult;
}

/** What the editor's features read beside the engine. */
export interface EditorFeaturesContext {
  documents: TextDocuments<TextDocument>;
  runStates: RunStateCache;
  /** The analysis a document belongs to; none for a document of no folder. */
  analysisFor(uri: string): Promise<DocumentAnalysis | undefined>;
  /** A file's text for what a request shows of it (an output's value): the open buffer, else the file on disk. */
  textOf(file: string): string | undefined;
}

/** The editor's language features on the engine's results: hover, definition, references, code lenses, completion, rename. */
export function registerEditorFeatures(connection: Connection, context: EditorFeaturesContext): void {
  const { analysisFor, textOf, runStates } = context;

  connection.onHover(async (params): Promise<Hover | null> => {
    const found = await analysisFor(params.textDocument.uri);
    if (!found) return null;
    const { result, file } = found;
    const outputs = outputsAround(found);
    const use =
      outputUseHover(outputs, file, params.position, textOf) ?? outputBlockHover(outputs, file, params.position);
    if (use !== undefined) return markdown(use);
    const outcomes = referenceOutcomesAt(result, file, params.position);
    if (outcomes.length > 0) {
      const read = outputsReadLine(outputs, outcomes);
      return markdown(
        read === undefined ? referenceHover(result, outcomes) : `${referenceHover(result, outcomes)}\n\n${read}`,
      );
    }
    const module = moduleWithBackendAt(result, file, params.position);
    if (!module) return null;
    const runState = (await runStates.forFolder(found.folder))?.get(module.id);
    return markdown(moduleHover(result, module, runState));
  });

  connection.onDefinition(async (params): Promise<Location[]> => {
    const found = await analysisFor(params.textDocument.uri);
    if (!found) return [];
    const { result, file } = found;
    const declared = outputDefinitions(outputsAround(found), file, params.position);
    if (declared.length > 0) return declared.map((location) => toLocation(location.file, location.range));
    // A Stack's `source = "./modules/network"`: the module's file.
    const source = componentSourceAt(result, file, params.position);
    if (source !== undefined)
      return [toLocation(source, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } })];
    const writers = new Set<string>();
    for (const outcome of referenceOutcomesAt(result, file, params.position)) {
      if (outcome.kind === 'edge') writers.add(outcome.edge.to);
      if (outcome.kind === 'ambiguous') for (const writer of outcome.item.writers) writers.add(writer);
    }
    return [...writers].flatMap((id) => {
      const module = moduleById(result, id);
      if (!module) return [];
      const location = moduleLocation(module);
      return [toLocation(location.file, location.range)];
    });
  });

  connection.onReferences(async (params): Promise<Location[]> => {
    const found = await analysisFor(params.textDocument.uri);
    if (!found) return [];
    const { result, file } = found;
    const uses = outputReferences(outputsOf(found), file, params.position, params.context.includeDeclaration);
    if (uses) return uses.map((location) => toLocation(location.file, location.range));
    const module = moduleWithBackendAt(result, file, params.position);
    if (!module) return [];
    const readers = result.edges
      .filter((edge) => edge.to === module.id)
      .map((edge) => toLocation(edge.reference.file, edge.reference.headerRange));
    const unique = new Map(readers.map((location) => [`${location.uri}#${location.range.start.line}`, location]));
    const place = moduleLocation(module);
    const own = params.context.includeDeclaration ? [toLocation(place.file, place.range)] : [];
    return [...own, ...unique.values()];
  });

  connection.onCodeLens(async (params): Promise<CodeLens[]> => {
    const found = await analysisFor(params.textDocument.uri);
    if (!found) return [];
    const { result, file, folder } = found;
    const states = await runStates.forFolder(folder);
    const modules = modulesPlacedIn(result, file).map((module) => ({
      range: moduleLocation(module).range,
      command: {
        title: moduleLensTitle(result, module, states?.get(module.id)),
        command: SHOW_MODULE_COMMAND,
        arguments: [pathToUri(folder.root), module.id],
      },
    }));
    const outputs = outputLenses(outputsAround(found), file).map((lens) => toOutputLens(lens, SHOW_REFERENCES_COMMAND));
    return [...modules, ...outputs];
  });

  connection.onCompletion(async (params): Promise<CompletionItem[]> => {
    const document = context.documents.get(params.textDocument.uri);
    const found = document && (await analysisFor(params.textDocument.uri));
    if (!found) return [];
    const { line, character } = params.position;
    const linePrefix = document.getText({ start: { line, character: 0 }, end: { line, character } });
    return outputCompletions(outputsAround(found), found.file, linePrefix, textOf).map((item) =>
      toCompletionItem(item, CompletionItemKind.Property),
    );
  });

  connection.onPrepareRename(async (params): Promise<PrepareRenameResult | ResponseError | null> => {
    const found = await analysisFor(params.textDocument.uri);
    if (!found) return null;
    const start = prepareOutputRename(outputsOf(found), found.file, params.position, textOf);
    if (!start) return null;
    if ('refused' in start) return new ResponseError(LSPErrorCodes.RequestFailed, start.refused);
    return { range: start.range, placeholder: start.name };
  });

  connection.onRenameRequest(async (params): Promise<WorkspaceEdit | ResponseError | null> => {
    const found = await analysisFor(params.textDocument.uri);
    if (!found) return null;
    const rename = outputRenameEdits(outputsOf(found), found.file, params.position, params.newName, textOf);
    if ('refused' in rename) return new ResponseError(LSPErrorCodes.RequestFailed, rename.refused);
    return toWorkspaceEdit(rename.edits);
  });
}

/**
 * The contracts between the folder's states, indexed for the editor's requests (once per analysis): what finds
 * every reader of an output (references, rename) waits for all of them.
 */
function outputsOf(found: DocumentAnalysis): OutputIndex {
  return outputIndex(found.result, found.folder.analysis.contracts());
}

/**
 * The same as far as the requests about the document's own file need them (its uses, the readers of the outputs
 * it declares): until the workspace's contracts are worked out, a hover does not wait for every node's.
 */
function outputsAround(found: DocumentAnalysis): OutputIndex {
  return outputIndex(found.result, found.folder.analysis.contractsAround([found.file]));
}

function markdown(value: string): Hover {
  return { contents: { kind: MarkupKind.Markdown, value } };
}
