import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ResolvedUse, UseWriter } from '../contracts';
import type { Position } from '../hcl';
import { relativeFile } from './graphJson';
import { levelLabel, moduleLink } from './hoverText';
import { markdownCode, markdownLink, markdownText } from './markdownText';
import type { ReferenceOutcome } from './navigation';
import { type OutputIndex, sourceKey } from './outputIndex';
import { outputAt, placeKey, targetUses } from './outputNavigation';
import { outputValueText, type TextOf } from './outputValue';

/**
 * The hover on a use of another state's output, as Markdown: for each writer it reads, the writer and its
 * level, the output's description, whether it is sensitive, its value and where it is declared. What files
 * say is text, never markup. Undefined where no use is.
 */
export function outputUseHover(
  index: OutputIndex,
  file: string,
  position: Position,
  textOf: TextOf,
): string | undefined {
  const at = outputAt(index, file, position);
  if (at?.kind !== 'use') return undefined;
  const use = at.uses[0]!;
  const writers = new Map(at.uses.flatMap((each) => each.writers.map((writer) => [writer.id, writer] as const)));
  return [...writers.values()]
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map((writer) => writerSection(index, use, writer, textOf))
    .join('\n\n');
}

function writerSection(index: OutputIndex, use: ResolvedUse, writer: UseWriter, textOf: TextOf): string {
  const module = index.modules.get(writer.id);
  const who = module ? `${moduleLink(module)} · ${levelLabel(index.result, module)}` : markdownText(writer.id);
  const edge = writer.match === 'exact' ? '' : ` · through an ${writer.match} edge`;
  if (use.output === undefined)
    return `**An output of ${who}**${edge}\n\nIts name is computed at plan time: not checked.`;
  const header = `**Output ${markdownCode(use.output)}** of ${who}${edge}`;
  const { declared } = writer;
  if (declared === null) return `${header}\n\nIts code is not in this repository: the output is not checked.`;
  if (declared === undefined) return `${header}\n\n${markdownText(`${writer.id} declares no output "${use.output}"`)}`;
  const lines = [header];
  if (declared.description !== undefined) lines.push(markdownText(declared.description));
  const value = outputValueText(declared.file, declared.valueRange, textOf);
  const sensitive = declared.sensitive ? 'sensitive' : 'not sensitive';
  lines.push(value === undefined ? capitalised(sensitive) : `Value ${markdownCode(value)} · ${sensitive}`);
  const line = declared.nameRange.start.line + 1;
  const place = `${relativeFile(index.result.root, declared.file)}:${line}`;
  lines.push(`Declared in ${markdownLink(place, `${pathToFileURL(declared.file).href}#L${line}`)}`);
  return lines.join('\n\n');
}

/** How many readers the hover on an `output` block names before it counts the rest. */
const NAMED_READERS = 10;

/**
 * The hover on an `output` block: who reads it, each reader with its reads' places, so that the person
 * who changes or removes it sees whom that breaks; or that no module of the workspace reads it.
 */
export function outputBlockHover(index: OutputIndex, file: string, position: Position): string | undefined {
  const at = outputAt(index, file, position);
  if (at?.kind !== 'declaration') return undefined;
  const { output, writers } = at.declaration;
  const uses = targetUses(index, { name: output.name, writers });
  const header = `**Output ${markdownCode(output.name)}** of ${writers.map((id) => markdownText(id)).join(', ')}`;
  if (uses.length === 0)
    return `${header}

Read by no module in this workspace.`;
  const byReader = new Map<string, ResolvedUse[]>();
  for (const use of uses) {
    const list = byReader.get(use.reader);
    if (list) list.push(use);
    else byReader.set(use.reader, [use]);
  }
  const readers = [...byReader].sort(([a], [b]) => (a < b ? -1 : 1));
  const lines = readers.slice(0, NAMED_READERS).map(([reader, reads]) => {
    const module = index.modules.get(reader);
    const who = module ? moduleLink(module) : markdownText(reader);
    const places = reads.map((use) => {
      const line = use.range.start.line + 1;
      return markdownLink(
        `${relativeFile(index.result.root, use.file)}:${line}`,
        `${pathToFileURL(use.file).href}#L${line}`,
      );
    });
    return `- ${who}: ${places.join(', ')}`;
  });
  const more = readers.length > NAMED_READERS ? [`- and ${readers.length - NAMED_READERS} more`] : [];
  const count = `Read by ${readers.length} module${readers.length === 1 ? '' : 's'}:`;
  return [header, count, [...lines, ...more].join('\n')].join('\n\n');
}

function capitalised(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/**
 * What the hover on a `terraform_remote_state` or `dependency` block adds: the outputs the module reads
 * through it (`Outputs read: \`azs\`, \`vpc_id\``), and how many reads name one by a computed name; nothing when
 * it reads none.
 */
export function outputsReadLine(index: OutputIndex, outcomes: readonly ReferenceOutcome[]): string | undefined {
  const first = outcomes[0];
  if (!first) return undefined;
  const reference = first.kind === 'edge' ? first.edge.reference : first.item.reference;
  const from = first.kind === 'edge' ? first.edge.from : first.item.from;
  const key =
    reference.block === undefined
      ? sourceKey('remote-state', path.dirname(reference.file), reference.name)
      : reference.block === 'dependency'
        ? sourceKey('dependency', index.modules.get(from)?.dir ?? path.dirname(reference.file), reference.name)
        : undefined;
  if (key === undefined) return undefined;
  const uses = index.usesBySource.get(key) ?? [];
  if (uses.length === 0) return undefined;
  const names = [...new Set(uses.flatMap((use) => (use.output === undefined ? [] : [use.output])))].sort();
  const computed = new Set(uses.filter((use) => use.output === undefined).map((use) => placeKey(use.file, use.range)))
    .size;
  const listed = names.length > 0 ? names.map(markdownCode).join(', ') : 'none by name';
  const dynamic = computed > 0 ? ` · ${computed} by a name computed at plan time` : '';
  return `Outputs read: ${listed}${dynamic}`;
}
