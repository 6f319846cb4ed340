import type { ResolvedUse } from '../contracts';
import type { Location, Position, Range } from '../hcl';
import { relativeFile } from './graphJson';
import { type OutputIndex, outputKey } from './outputIndex';
import { type OutputTarget, outputAt, placeKey, targetOf, targetUses } from './outputNavigation';
import { rangeTexts, type TextOf } from './outputValue';

/** A text edit of a rename: the name, inside its quotes where it has them. */
export interface NameEdit {
  file: string;
  range: Range;
  newText: string;
}

/** Where a rename may start: the name under the cursor and its text; or why it may not. */
export type RenameStart = { range: Range; name: string } | { refused: string };

/** The edits of a rename, as one workspace edit; or why it may not be done. */
export type RenameEdits = { edits: NameEdit[] } | { refused: string };

/** Terraform's identifiers: what `outputs.<name>` and an `output` block's label accept alike. */
const OUTPUT_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * prepareRename: the output name under the cursor (a use's or an `output` block's), without its quotes,
 * if every place that names it can be renamed with it. Undefined where no output is.
 */
export function prepareOutputRename(
  index: OutputIndex,
  file: string,
  position: Position,
  textOf: TextOf,
): RenameStart | undefined {
  const at = outputAt(index, file, position);
  if (!at) return undefined;
  const target = targetOf(at);
  if (!target) return { refused: 'This output’s name is computed at plan time: there is no name to rename.' };
  const refused = whyNot(index, closure(index, target));
  if (refused) return { refused };
  const range = at.kind === 'declaration' ? at.declaration.output.nameRange : at.uses[0]!.range;
  const written = writtenName(index, rangeTexts(textOf), { file, range }, target.name);
  return 'refused' in written ? written : { range: written.range, name: target.name };
}

/**
 * The rename of an output: its `output` block in each writer that declares it and every use of it in
 * every reader, the blocks and uses of the other writers those uses read too (one name in a reader is
 * the same name in each state it reads), and the units' `mock_outputs` keys that stand for it. Each
 * edit changes the name where the file writes it, as the editor has the file now; if one place does
 * not write it as it reads (escaped, or the file changed since), nothing is renamed.
 */
export function outputRenameEdits(
  index: OutputIndex,
  file: string,
  position: Position,
  newName: string,
  textOf: TextOf,
): RenameEdits {
  const start = prepareOutputRename(index, file, position, textOf);
  if (!start) return { refused: 'No output here to rename.' };
  if ('refused' in start) return start;
  if (!OUTPUT_NAME.test(newName))
    return { refused: `"${newName}" is not a valid output name: a letter or _, then letters, digits, _ and -.` };
  const at = outputAt(index, file, position)!;
  const { writers, uses } = closure(index, targetOf(at)!);
  const places: Location[] = [];
  for (const writer of writers)
    for (const output of index.contracts.outputs.get(writer) ?? [])
      if (output.name === start.name) places.push({ file: output.file, range: output.nameRange });
  places.push(...uses);
  // A unit's `mock_outputs` key stands for the output in plans that run before its dependency's.
  for (const writer of writers) places.push(...(index.mocksByOutput.get(outputKey(writer, start.name)) ?? []));
  const texts = rangeTexts(textOf);
  const edits = new Map<string, NameEdit>();
  for (const place of places) {
    const written = writtenName(index, texts, place, start.name);
    if ('refused' in written) return written;
    edits.set(placeKey(place.file, written.range), { file: place.file, range: written.range, newText: newName });
  }
  return { edits: [...edits.values()] };
}

/**
 * Where a place writes an output's name: its whole range (`outputs.vpc_id`, `vpc_id = …`), or inside its
 * quotes (`"vpc_id"`, and `\"vpc_id\"` in a `.tf.json` string); refused where the text there is not the
 * name as it reads: written with escapes (`vpc\u005fid`), over several lines, or changed since.
 */
function writtenName(
  index: OutputIndex,
  texts: (file: string, range: Range) => string | undefined,
  place: Location,
  name: string,
): { range: Range } | { refused: string } {
  const { range } = place;
  const written = range.start.line === range.end.line ? texts(place.file, range) : undefined;
  if (written !== undefined) {
    // HCL reads names in NFC: one written in NFD is the same name.
    if (written.normalize('NFC') === name) return { range };
    for (const quote of ['"', '\\"']) {
      const inner =
        written.startsWith(quote) && written.endsWith(quote) ? written.slice(quote.length, -quote.length) : '';
      if (written.length >= 2 * quote.length && inner.normalize('NFC') === name)
        return {
          range: {
            start: { line: range.start.line, character: range.start.character + quote.length },
            end: { line: range.end.line, character: range.end.character - quote.length },
          },
        };
    }
  }
  const where = `${relativeFile(index.result.root, place.file)} line ${range.start.line + 1}`;
  const holds = written === undefined ? '' : ` (it holds ${JSON.stringify(written.slice(0, 80))})`;
  return {
    refused: `${where} does not write the output's name as "${name}"${holds}: written with escapes, over several lines or changed since, it cannot be renamed exactly, so nothing is.`,
  };
}

interface RenameSet {
  name: string;
  writers: Set<string>;
  uses: ResolvedUse[];
}

/**
 * The writers and uses a rename must change together: the uses of the output in each writer, the other
 * writers those uses read, the writers that share its `output` block, until none is added.
 */
function closure(index: OutputIndex, target: OutputTarget): RenameSet {
  const writers = new Set<string>();
  const queue = [...target.writers];
  while (queue.length > 0) {
    const writer = queue.pop()!;
    if (writers.has(writer)) continue;
    writers.add(writer);
    for (const output of index.contracts.outputs.get(writer) ?? []) {
      if (output.name !== target.name) continue;
      const shared = (index.declarationsByFile.get(output.file) ?? []).find((declaration) =>
        sameStart(declaration.output.nameRange, output.nameRange),
      );
      queue.push(...(shared?.writers ?? []));
    }
    for (const use of index.usesByOutput.get(outputKey(writer, target.name)) ?? [])
      queue.push(...use.writers.map((other) => other.id));
  }
  return { name: target.name, writers, uses: targetUses(index, { name: target.name, writers: [...writers] }) };
}

function sameStart(a: Range, b: Range): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character;
}

/**
 * Why a rename cannot follow every read of the output: a reader that names an output of one of its
 * writers by a computed name (it may read this one), a read through an edge that is not exact (the
 * state read may be another's), or a writer whose code is not in the repository.
 */
function whyNot(index: OutputIndex, set: RenameSet): string | undefined {
  for (const writer of [...set.writers].sort()) {
    if (!(index.contracts.outputs.get(writer) ?? []).some((output) => output.name === set.name)) continue;
    const computed = index.computedByWriter.get(writer)?.[0];
    if (computed)
      return `${computed.reader} reads an output of ${writer} by a name computed at plan time (${where(index, computed)}): it may read "${set.name}", and a rename cannot follow it.`;
  }
  for (const use of set.uses) {
    for (const writer of use.writers) {
      if (writer.declared === null)
        return `${use.reader} reads "${set.name}" from ${writer.id} too (${where(index, use)}), whose code is not in this repository: its output cannot be renamed.`;
      if (writer.match !== 'exact')
        return `${use.reader} reads ${writer.id} through an ${writer.match} edge (${where(index, use)}): the state it reads may be another module's, so a rename cannot tell that this use is one to change.`;
    }
  }
  return undefined;
}

function where(index: OutputIndex, use: ResolvedUse): string {
  return `${relativeFile(index.result.root, use.file)} line ${use.range.start.line + 1}`;
}
