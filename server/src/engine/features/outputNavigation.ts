import type { ResolvedUse } from '../contracts';
import type { Location, Position, Range } from '../hcl';
import { contains } from './navigation';
import { type OutputDeclaration, type OutputIndex, outputKey } from './outputIndex';

/** One output of one or more writers, as a use or a declaration names it. */
export interface OutputTarget {
  name: string;
  writers: string[];
}

/** What is at a position: a use of an output (every reader's, for a child module's), or an `output` block. */
export type OutputAt =
  | { kind: 'use'; uses: ResolvedUse[] }
  | { kind: 'declaration'; declaration: OutputDeclaration }
  | undefined;

export function outputAt(index: OutputIndex, file: string, position: Position): OutputAt {
  const uses = (index.usesByFile.get(file) ?? []).filter((use) => contains(use.range, position));
  if (uses.length > 0) return { kind: 'use', uses };
  // The block's header, up to its name: `output "vpc_id"`.
  const declaration = (index.declarationsByFile.get(file) ?? []).find(({ output }) =>
    contains({ start: output.range.start, end: output.nameRange.end }, position),
  );
  return declaration ? { kind: 'declaration', declaration } : undefined;
}

/** The output a use or a declaration names; none for a use whose name is computed. */
export function targetOf(at: NonNullable<OutputAt>): OutputTarget | undefined {
  if (at.kind === 'declaration') return { name: at.declaration.output.name, writers: at.declaration.writers };
  const name = at.uses[0]!.output;
  if (name === undefined) return undefined;
  return { name, writers: [...new Set(at.uses.flatMap((use) => use.writers.map((writer) => writer.id)))] };
}

/** Go to definition from a use: each writer's `output` block it names. */
export function outputDefinitions(index: OutputIndex, file: string, position: Position): Location[] {
  const at = outputAt(index, file, position);
  if (at?.kind !== 'use') return [];
  const target = targetOf(at);
  return target ? targetDeclarations(index, target) : [];
}

/** The `output` blocks of a target, each once. */
export function targetDeclarations(index: OutputIndex, target: OutputTarget): Location[] {
  const found = target.writers.flatMap((writer) =>
    (index.contracts.outputs.get(writer) ?? [])
      .filter((output) => output.name === target.name)
      .map((output) => ({ file: output.file, range: output.nameRange })),
  );
  return uniqueLocations(found);
}

/** Every use of a target in every reader, each place once, in file and line order. */
export function targetUses(index: OutputIndex, target: OutputTarget): ResolvedUse[] {
  const seen = new Set<string>();
  const uses: ResolvedUse[] = [];
  for (const writer of target.writers) {
    for (const use of index.usesByOutput.get(outputKey(writer, target.name)) ?? []) {
      const place = placeKey(use.file, use.range);
      if (seen.has(place)) continue;
      seen.add(place);
      uses.push(use);
    }
  }
  return uses.sort(byPlace);
}

/** Find references on a use or an `output` block: every use in every reader (and the blocks, when asked). */
export function outputReferences(
  index: OutputIndex,
  file: string,
  position: Position,
  includeDeclaration: boolean,
): Location[] | undefined {
  const at = outputAt(index, file, position);
  const target = at && targetOf(at);
  if (!target) return undefined;
  const uses = targetUses(index, target).map((use) => ({ file: use.file, range: use.range }));
  return includeDeclaration ? [...targetDeclarations(index, target), ...uses] : uses;
}

/** A code lens above an `output` block: who reads it, and where. */
export interface OutputLens {
  range: Range;
  title: string;
  /** Where the lens's click goes: the block's name. */
  at: Location;
  uses: Location[];
}

/** `read by 3 modules` above each `output` block of a node's code in `file`; `read by no module in this workspace`. */
export function outputLenses(index: OutputIndex, file: string): OutputLens[] {
  return (index.declarationsByFile.get(file) ?? []).map(({ output, writers }) => {
    const uses = targetUses(index, { name: output.name, writers });
    const readers = new Set(uses.map((use) => use.reader)).size;
    const title =
      readers === 0 ? 'read by no module in this workspace' : `read by ${readers} module${readers === 1 ? '' : 's'}`;
    return {
      range: output.nameRange,
      title,
      at: { file, range: output.nameRange },
      uses: uses.map((use) => ({ file: use.file, range: use.range })),
    };
  });
}

function uniqueLocations(locations: readonly Location[]): Location[] {
  const unique = new Map(locations.map((location) => [placeKey(location.file, location.range), location]));
  return [...unique.values()].sort(byPlace);
}

export function placeKey(file: string, range: Range): string {
  return `${file}\0${range.start.line}\0${range.start.character}`;
}

function byPlace(a: Location, b: Location): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character;
}
