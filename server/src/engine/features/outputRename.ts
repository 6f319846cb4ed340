import type { MockOutput, ResolvedUse } from '../contracts';
import type { Location, Position, Range } from '../hcl';
import { relativeFile } from './graphJson';
import { type OutputIndex, outputKey } from './outputIndex';
import { type OutputTarget, outputAt, placeKey, targetOf, targetUses } from './outputNavigation';

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
export function prepareOutputRename(index: OutputIndex, file: string, position: Position): RenameStart | undefined {
  const at = outputAt(index, file, position);
  if (!at) return undefined;
  const target = targetOf(at);
  if (!target) return { refused: 'This output’s name is computed at plan time: there is no name to rename.' };
  const refused = whyNot(index, closure(index, target));
  if (refused) return { refused };
  const range = at.kind === 'declaration' ? at.declaration.output.nameRange : at.uses[0]!.range;
  const quoted = at.kind === 'declaration' || at.uses[0]!.quoted;
  return { range: quoted ? inside(range) : range, name: target.name };
}

/**
 * The rename of an output: its `output` block in each writer that declares it and every use of it in
 * every reader, the blocks and uses of the other writers those uses read too (one name in a reader is
 * the same name in each state it reads), and the units' `mock_outputs` keys that stand for it.
 */
export function outputRenameEdits(index: OutputIndex, file: string, position: Position, newName: string): RenameEdits {
  const start = prepareOutputRename(index, file, position);
  if (!start) return { refused: 'No output here to rename.' };
  if ('refused' in start) return start;
  if (!OUTPUT_NAME.test(newName))
    return { refused: `"${newName}" is not a valid output name: a letter or _, then letters, digits, _ and -.` };
  const at = outputAt(index, file, position)!;
  const { writers, uses } = closure(index, targetOf(at)!);
  const edits = new Map<string, NameEdit>();
  const add = (location: Location, quoted: boolean) => {
    const range = quoted ? inside(location.range) : location.range;
    edits.set(placeKey(location.file, range), { file: location.file, range, newText: newName });
  };
  for (const writer of writers)
    for (const output of index.contracts.outputs.get(writer) ?? [])
      if (output.name === start.name) add({ file: output.file, range: output.nameRange }, true);
  for (const use of uses) add(use, use.quoted);
  // A unit's `mock_outputs` key stands for the output in plans that run before its dependency's.
  for (const writer of writers)
    for (const mock of index.mocksByOutput.get(outputKey(writer, start.name)) ?? []) add(mock, isQuoted(mock));
  return { edits: [...edits.values()] };
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

/** A `mock_outputs` key written as a string: its range holds the quotes too. */
function isQuoted(mock: MockOutput): boolean {
  const { start, end } = mock.range;
  return start.line === end.line && end.character - start.character === mock.name.length + 2;
}

/** A quoted name's range without its quotes. */
function inside(range: Range): Range {
  return {
    start: { line: range.start.line, character: range.start.character + 1 },
    end: { line: range.end.line, character: range.end.character - 1 },
  };
}
