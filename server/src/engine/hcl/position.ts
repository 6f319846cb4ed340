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

/**
 * A range as the parser makes it: its four numbers in one object, each position made when asked for. A
 * workspace's facts keep hundreds of thousands of ranges (640,000 at 10,000 modules), and as three objects each
 * they were a quarter of the heap, copied by every young-generation collection while a cold analysis ran.
 * JSON (the protocol, `terrace graph`) writes it as any other range.
 */
export class TextRange implements Range {
  constructor(
    readonly startLine: number,
    readonly startCharacter: number,
    readonly endLine: number,
    readonly endCharacter: number,
  ) {}

  get start(): Position {
    return { line: this.startLine, character: this.startCharacter };
  }

  get end(): Position {
    return { line: this.endLine, character: this.endCharacter };
  }

  toJSON(): Range {
    return plainRange(this);
  }
}

/** A range as two plain positions: how syntax errors keep theirs, and how JSON writes a `TextRange`. */
export function plainRange(range: Range): Range {
  return { start: range.start, end: range.end };
}

/** A range in a named file; `file` is an absolute path. */
export interface Location {
  file: string;
  range: Range;
}

/** The start of a file: where a finding about a whole file or module is shown. */
export const FILE_START: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
