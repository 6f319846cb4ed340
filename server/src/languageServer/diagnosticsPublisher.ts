import { pathToFileURL } from 'node:url';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver/node';
import type { EngineDiagnostic } from '../engine/features';
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
  /** Per folder, each file's diagnostics as last published, as JSON. */
  private readonly shown = new Map<string, Map<string, string>>();

  constructor(private readonly send: (params: PublishDiagnosticsParams) => Promise<void>) {}

  /**
   * The folder's diagnostics now, by file; the files not in `byFile` have none. `current` says whether this
   * publish is still the latest: a newer analysis publishes its own, and this one's rest is stale.
   */
  async publish(root: string, byFile: ReadonlyMap<string, EngineDiagnostic[]>, current: () => boolean): Promise<void> {
    const shown = this.shown.get(root) ?? new Map<string, string>();
    this.shown.set(root, shown);
    const sends: { file: string; diagnostics: Diagnostic[]; json: string | undefined }[] = [];
    for (const [file, list] of byFile) {
      const diagnostics = list.map(toDiagnostic);
      const json = JSON.stringify(diagnostics);
      if (shown.get(file) !== json) sends.push({ file, diagnostics, json });
    }
    for (const file of shown.keys()) if (!byFile.has(file)) sends.push({ file, diagnostics: [], json: undefined });
    for (let start = 0; start < sends.length; start += PUBLISH_SLICE) {
      const slice = sends.slice(start, start + PUBLISH_SLICE);
      // Noted as shown once queued: the connection writes in turn, so a newer publish's messages come after these.
      for (const { file, json } of slice) {
        if (json === undefined) shown.delete(file);
        else shown.set(file, json);
      }
      await Promise.all(
        slice.map(({ file, diagnostics }) => this.send({ uri: pathToFileURL(file).href, diagnostics })),
      );
      if (!current()) return;
    }
  }

  /** A folder gone from the workspace: its files' diagnostics cleared. */
  forget(root: string): void {
    for (const file of this.shown.get(root)?.keys() ?? [])
      void this.send({ uri: pathToFileURL(file).href, diagnostics: [] });
    this.shown.delete(root);
  }
}
