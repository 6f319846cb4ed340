import {
  type CodeLens,
  type CompletionItem,
  type CompletionItemKind,
  type Diagnostic,
  DiagnosticSeverity,
  type Location,
  MarkupKind,
  type TextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver/node';
import type { EngineDiagnostic, NameEdit, OutputCompletion, OutputLens } from '../engine/features';
import type { Range } from '../engine/hcl';
import { pathToUri } from './fileUris';

/** Engine results as LSP shapes; the engine's ranges are already LSP-compatible. */
const SEVERITY: Record<EngineDiagnostic['severity'], DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
};

export function toDiagnostic(diagnostic: EngineDiagnostic): Diagnostic {
  return {
    range: diagnostic.range,
    severity: SEVERITY[diagnostic.severity],
    code: diagnostic.code,
    source: 'terrace',
    message: diagnostic.message,
    relatedInformation:
      diagnostic.related.length > 0
        ? diagnostic.related.map((related) => ({
            location: toLocation(related.location.file, related.location.range),
            message: related.message,
          }))
        : undefined,
  };
}

export function toLocation(file: string, range: Range): Location {
  return { uri: pathToUri(file), range };
}

/** An output to complete: its value (and whether it is sensitive) as detail, its description as text. */
export function toCompletionItem(item: OutputCompletion, kind: CompletionItemKind): CompletionItem {
  const detail = [item.sensitive ? 'sensitive' : undefined, item.value]
    .filter((part) => part !== undefined)
    .join(' · ');
  return {
    label: item.name,
    kind,
    detail: detail || undefined,
    documentation: item.description === undefined ? undefined : { kind: MarkupKind.PlainText, value: item.description },
    // The writers' order: by name.
    sortText: item.name,
  };
}

/** An output's code lens; a click shows its uses (none to show: a title alone, which VS Code does not link). */
export function toOutputLens(lens: OutputLens, showReferences: string): CodeLens {
  const at = toLocation(lens.at.file, lens.at.range);
  return {
    range: lens.range,
    command: {
      title: lens.title,
      command: lens.uses.length > 0 ? showReferences : '',
      arguments:
        lens.uses.length > 0
          ? [at.uri, at.range.start, lens.uses.map((use) => toLocation(use.file, use.range))]
          : undefined,
    },
  };
}

/** A rename's edits, by file. */
export function toWorkspaceEdit(edits: readonly NameEdit[]): WorkspaceEdit {
  const changes: Record<string, TextEdit[]> = {};
  for (const edit of edits) {
    const uri = pathToUri(edit.file);
    const text: TextEdit = { range: edit.range, newText: edit.newText };
    const list = changes[uri];
    if (list) list.push(text);
    else changes[uri] = [text];
  }
  return { changes };
}
