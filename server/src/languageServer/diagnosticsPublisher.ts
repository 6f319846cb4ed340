import type { PublishDiagnosticsParams } from 'vscode-languageserver/node';
import type { EngineDiagnostic } from '../engine/features';
import type { Range } from '../engine/hcl';
import { pathToUri } from './fileUris';
import { toDiagnostic } from './lspShapes';

/**
 * How many files' diagnostics go out before the server looks at what else waits: a workspace of 10,000 files
 * with problems took seconds to publish, and a hover or Show Graph asked meanwhile waited for all of it.
 */
const PUBLISH_SLICE = 200;

/**
 * What the client shows of each folder's files, and the publishing that changes it: only the files whose
 * diagnostics differ from those last published go out (an edit that alters one file's problems publishes that
 * file, not every file of a workspace whose problems are the same), in slices, so that requests are answered
 * in between (the connection writes its messages in turn: an answer waits for one slice, not for every file).
 */
export class DiagnosticsPublisher {
  /** Per folder, each file's diagnostics as last published. */
  private readonly shown = new Map<string, Map<string, readonly EngineDiagnostic[]>>();

  constructor(private readonly send: (params: PublishDiagnosticsParams) => Promise<void>) {}

  /**
   * The folder's diagnostics now, by file; the files not in `byFile` have none. `current` says whether this
   * publish is still the latest: a newer analysis publishes its own, and this one's rest is stale.
   */
  async publish(root: string, byFile: ReadonlyMap<string, EngineDiagnostic[]>, current: () => boolean): Promise<void> {
    const shown = this.shown.get(root) ?? new Map<string, readonly EngineDiagnostic[]>();
    this.shown.set(root, shown);
    // Compared as they are, and made LSP's only when they differ: at 11,000 files, each edit compares them all.
    const sends: { file: string; list: readonly EngineDiagnostic[] | undefined }[] = [];
    for (const [file, list] of byFile) {
      const before = shown.get(file);
      if (!before || !sameDiagnostics(before, list)) sends.push({ file, list: [...list] });
    }
    for (const file of shown.keys()) if (!byFile.has(file)) sends.push({ file, list: undefined });
    for (let start = 0; start < sends.length; start += PUBLISH_SLICE) {
      const slice = sends.slice(start, start + PUBLISH_SLICE);
      // Noted as shown once queued: the connection writes in turn, so a newer publish's messages come after these.
      for (const { file, list } of slice) {
        if (list === undefined) shown.delete(file);
        else shown.set(file, list);
      }
      await Promise.all(
        slice.map(({ file, list }) => this.send({ uri: pathToUri(file), diagnostics: list?.map(toDiagnostic) ?? [] })),
      );
      if (!current()) return;
    }
  }

  /** A folder gone from the workspace: its files' diagnostics cleared. */
  forget(root: string): void {
    for (const file of this.shown.get(root)?.keys() ?? []) void this.send({ uri: pathToUri(file), diagnostics: [] });
    this.shown.delete(root);
  }
}

function sameDiagnostics(a: readonly EngineDiagnostic[], b: readonly EngineDiagnostic[]): boolean {
  return a.length === b.length && a.every((diagnostic, n) => sameDiagnostic(diagnostic, b[n]!));
}

function sameDiagnostic(a: EngineDiagnostic, b: EngineDiagnostic): boolean {
  return (
    a.message === b.message &&
    a.code === b.code &&
    a.severity === b.severity &&
    sameRange(a.range, b.range) &&
    a.related.length === b.related.length &&
    a.related.every((related, n) => {
      const other = b.related[n]!;
      return (
        related.message === other.message &&
        related.location.file === other.location.file &&
        sameRange(related.location.range, other.location.range)
      );
    })
  );
}

function sameRange(a: Range, b: Range): boolean {
  const start = a.start;
  const end = a.end;
  const otherStart = b.start;
  const otherEnd = b.end;
  return (
    start.line === otherStart.line &&
    start.character === otherStart.character &&
    end.line === otherEnd.line &&
    end.character === otherEnd.character
  );
}
