import path from 'node:path';
import { type DeclaredOutput, type StateVia, sameInstance } from '../contracts';
import { type OutputIndex, type SourceWriter, sourceKey } from './outputIndex';
import { outputValueReader, type TextOf } from './outputValue';

/** An output to offer after `.outputs.`: what its writer declares of it. */
export interface OutputCompletion {
  name: string;
  description: string | undefined;
  sensitive: boolean;
  /** The value expression's text, on one line. */
  value: string | undefined;
  /** The nodes that declare it, of those the block reads. */
  writers: string[];
}

/** The block whose outputs are being written: its kind, name and literal instance key, if any. */
export interface CompletionSite {
  via: StateVia;
  name: string;
  instance: string | undefined;
}

const NAME = '([A-Za-z_][\\w-]*)';
/** `[0]`, `["prod"]`, `[each.key]`: the literal key captured, a computed one not. */
const INSTANCE = '(?:\\[\\s*(?:"([^"]*)"|(\\d+)|[^\\]]*)\\s*\\])?';
/** `.` or `["`, then the part of the name already typed. */
const MEMBER = '(?:\\.|\\[\\s*")[\\w-]*$';
const SITES: readonly { via: StateVia; pattern: RegExp }[] = [
  {
    via: 'remote-state',
    pattern: new RegExp(`(?<![\\w.])data\\.terraform_remote_state\\.${NAME}${INSTANCE}\\.outputs${MEMBER}`),
  },
  { via: 'dependency', pattern: new RegExp(`(?<![\\w.])dependency\\.${NAME}\\.outputs${MEMBER}`) },
  { via: 'component', pattern: new RegExp(`(?<![\\w.])component\\.${NAME}${INSTANCE}${MEMBER}`) },
];

/** The block whose output the text before the cursor starts to name (`data.terraform_remote_state.vpc.outputs.`), if any. */
export function completionSite(linePrefix: string): CompletionSite | undefined {
  for (const { via, pattern } of SITES) {
    const match = pattern.exec(linePrefix);
    if (match) return { via, name: match[1]!, instance: match[2] ?? match[3] };
  }
  return undefined;
}

/**
 * The outputs the block named before the cursor can read, sorted by name: those its writers declare
 * (the writers of the instance it names, when it names one). Empty where the text names no block.
 */
export function outputCompletions(
  index: OutputIndex,
  file: string,
  linePrefix: string,
  textOf: TextOf,
): OutputCompletion[] {
  const site = completionSite(linePrefix);
  const writers = site
    ? siteWriters(index.writersBySource.get(sourceKey(site.via, path.dirname(file), site.name)) ?? [], site)
    : carriedWriters(index, file, linePrefix);
  if (writers.length === 0) return [];
  const byName = new Map<string, { output: DeclaredOutput; writers: string[] }>();
  for (const writer of writers) {
    for (const output of index.contracts.outputs.get(writer) ?? []) {
      const known = byName.get(output.name);
      if (known) known.writers.push(writer);
      else byName.set(output.name, { output, writers: [writer] });
    }
  }
  // Each file read once for all its outputs' values: at 10,000 outputs, a read each took seconds.
  const valueText = outputValueReader(textOf);
  return [...byName.values()]
    .sort((a, b) => (a.output.name < b.output.name ? -1 : a.output.name > b.output.name ? 1 : 0))
    .map(({ output, writers: declaring }) => ({
      name: output.name,
      description: output.description,
      sensitive: output.sensitive,
      value: valueText(output.file, output.valueRange),
      writers: declaring,
    }));
}

/** `local.remote.network.`, `var.network.`, `module.reader.outputs.`: a name and the keys typed after it. */
const CARRIED = /(?<![\w.])((?:local|var|module)\.[A-Za-z_][\w-]*)((?:\.[A-Za-z_][\w-]*)*)\.[\w-]*$/;

/**
 * The writers whose outputs a local, a variable or a child module's output holds where the text before
 * the cursor names it (the outputs passed on whole), in the file's folder; none elsewhere.
 */
function carriedWriters(index: OutputIndex, file: string, linePrefix: string): string[] {
  const match = CARRIED.exec(linePrefix);
  if (!match) return [];
  const name = match[1]!;
  const keys = match[2]!.split('.').slice(1);
  const found = new Set<string>();
  for (const place of index.carriedByDir.get(path.dirname(file)) ?? []) {
    if (place.name !== name || place.path.length !== keys.length) continue;
    if (!place.path.every((key, i) => key === keys[i])) continue;
    const { source } = place;
    const writers = index.writersBySource.get(sourceKey(source.via, source.dir, source.name)) ?? [];
    for (const writer of writers) if (sameInstance(writer.instance, source)) found.add(writer.id);
  }
  return [...found].sort();
}

/** The writers of the instance the site names, or of every instance; sorted, each once. */
function siteWriters(writers: readonly SourceWriter[], site: CompletionSite): string[] {
  const own =
    site.instance === undefined
      ? writers
      : writers.filter((writer) => writer.instance === null || writer.instance === site.instance);
  return [...new Set((own.length > 0 ? own : writers).map((writer) => writer.id))].sort();
}
