import { lineStarts, type Range } from '../hcl';

/** A file's text as the editor has it (the open buffer, else the file on disk); undefined when it cannot be read. */
export type TextOf = (file: string) => string | undefined;

/** What a completion's detail or a hover shows of a value: one line, cut at this many characters. */
const MAX_VALUE_CHARS = 120;

/**
 * The text of an output's `value` expression, on one line: the facts keep only its range, and the file
 * is read when a request shows it, so that the text is the one in the editor.
 */
export function outputValueText(file: string, range: Range | undefined, textOf: TextOf): string | undefined {
  return outputValueReader(textOf)(file, range);
}

/** The texts of many outputs' values, each file read and its lines found once: a completion lists every output of a writer. */
export function outputValueReader(textOf: TextOf): (file: string, range: Range | undefined) => string | undefined {
  const files = new Map<string, { text: string; starts: number[] } | undefined>();
  const read = (file: string) => {
    if (files.has(file)) return files.get(file);
    const text = textOf(file);
    const read = text === undefined ? undefined : { text, starts: lineStarts(text) };
    files.set(file, read);
    return read;
  };
  return (file, range) => {
    const source = range && read(file);
    if (!range || !source) return undefined;
    const from = offsetOf(source.starts, range.start);
    const to = offsetOf(source.starts, range.end);
    if (from === undefined || to === undefined || to < from) return undefined;
    const flat = source.text.slice(from, to).replace(/\s+/g, ' ').trim();
    return flat.length > MAX_VALUE_CHARS ? `${flat.slice(0, MAX_VALUE_CHARS - 1)}…` : flat;
  };
}

function offsetOf(starts: readonly number[], position: Range['start']): number | undefined {
  const start = starts[position.line];
  return start === undefined ? undefined : start + position.character;
}
