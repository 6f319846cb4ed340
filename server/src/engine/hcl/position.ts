/** A zero-based position, LSP-compatible (character counts UTF-16 code units). */
export interface Position {
  line: number;
  character: number;
}

/** A half-open range in one file, LSP-compatible. */
export interface Range {
  start: Position;
  end: Position;
}

/** A range in a named file; `file` is an absolute path. */
export interface Location {
  file: string;
  range: Range;
}

/** The start of a file: where a finding about a whole file or module is shown. */
export const FILE_START: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
