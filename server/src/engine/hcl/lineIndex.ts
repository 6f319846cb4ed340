import type { Position } from './position';

/** Line starts after `\n`, `\r\n` and a lone `\r`, as LSP counts lines. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  if (!text.includes('\r')) return starts;
  const all = [0];
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10 || (ch === 13 && text.charCodeAt(i + 1) !== 10)) all.push(i + 1);
  }
  return all;
}

/** The line of a string offset, by binary search over `lineStarts`. */
export function findLine(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** The LSP position of a string offset (UTF-16 code units, as JavaScript strings count). */
export function positionAt(starts: readonly number[], offset: number): Position {
  const line = findLine(starts, offset);
  return { line, character: offset - starts[line]! };
}
