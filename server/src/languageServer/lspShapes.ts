import { pathToFileURL } from 'node:url';
import { type Diagnostic, DiagnosticSeverity, type Location } from 'vscode-languageserver/node';
import type { EngineDiagnostic } from '../engine/features';
import type { Range } from '../engine/hcl';

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
  return { uri: pathToFileURL(file).href, range };
}
