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

/** The texts of many outputs' values, each file read once: a completion lists every output of a writer. */
export function outputValueReader(textOf: TextOf): (file: string, range: Range | undefined) => string | undefined {
  const slice = rangeTexts(textOf);
  return (file, range) => {
    const text = range && slice(file, range);
    if (text === undefined) return undefined;
    const flat = text.replace(/\s+/g, ' ').trim();
    return flat.length > MAX_VALUE_CHARS ? `${flat.slice(0, MAX_VALUE_CHARS - 1)}…` : flat;
  };
}

/**
 * The text of a range of a file as the editor has it, each file read and its lines found once for the
 * request that asks; undefined when the file cannot be read or no longer holds the range.
 */
export function rangeTexts(textOf: TextOf): (file: string, range: Range) => string | undefined {
  const files = new Map<string, { text: string; starts: number[] } | undefined>();
  const read = (file: string) => {
    if (files.has(file)) return files.get(file);
    const text = textOf(file);
    const found = text === undefined ? undefined : { text, starts: lineStarts(text) };
    files.set(file, found);
    return found;
  };
  return (file, range) => {
    const source = read(file);
    if (!source) return undefined;
    const from = offsetOf(source.starts, range.start);
    const to = offsetOf(source.starts, range.end);
    if (from === undefined || to === undefined || to < from || to > source.text.length) return undefined;
    return source.text.slice(from, to);
  };
}

function offsetOf(starts: readonly number[], position: Range['start']): number | undefined {
  const start = starts[position.line];
  return start === undefined ? undefined : start + position.character;
}
