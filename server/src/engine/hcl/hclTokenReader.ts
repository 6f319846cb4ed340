import type { Expr } from './expression';
import type { HclSyntaxError } from './hclBody';
import { HclLexer } from './hclLexer';
import { Token as LexerToken, type TokenKind } from './hclToken';
import { keptText } from './keptText';
import { findLine, lineStarts } from './lineIndex';
import { type Position, type Range, TextRange } from './position';

/**
 * What every part of the parser stands on (`HclSyntaxParser`): the lexer's tokens read one at a
 * time, the syntax errors reported at them and recovered from, the ranges of their offsets, and
 * whether what is read is built or only checked.
 */

type KeepBody = (type: string, labels: string[], depth: number) => boolean;

/** The token kinds, read once: an import read through a getter (as some module loaders make them) on every comparison shows in profiles. */
const Token = LexerToken;

/** Thrown at a syntax error and caught where parsing can resume (a body item, a template part). */
export class SyntaxFailure {
  constructor(
    readonly start: number,
    readonly end: number,
    readonly message: string,
  ) {}
}

/** The range of everything built while only checking a skipped body (all of it is discarded). */
const NO_RANGE: Range = Object.freeze({
  start: Object.freeze({ line: 0, character: 0 }),
  end: Object.freeze({ line: 0, character: 0 }),
}) as Range;

/** What a skipped body's expressions are built as: nothing reads them. */
export const UNUSED: Expr = Object.freeze({ kind: 'unsupported', text: '', range: NO_RANGE }) as Expr;

export abstract class HclTokenReader {
  protected readonly lexer: HclLexer;
  protected readonly errors: HclSyntaxError[] = [];
  /** The end of the last token consumed: where the expression just parsed ends. */
  protected prevEnd = 0;
  /** False while checking a body the caller skips. */
  protected building = true;
  /** In a skipped body with watched roots: the expressions found there that start at one. */
  protected found: Expr[] | undefined;
  /** Building a watched expression in a skipped body: what HCL rejects beyond syntax stays unreported there. */
  protected watching = false;
  private readonly lineStarts: number[];
  private lastLine = 0;
  /** The watched roots' first characters, by char code: most identifiers start with another. */
  protected readonly watchFirst: Uint8Array | undefined;

  constructor(
    protected readonly text: string,
    protected readonly keepBody: KeepBody,
    protected readonly watchRoots: ReadonlySet<string> | undefined,
    private readonly positionOf?: (offset: number) => Position,
  ) {
    this.lexer = new HclLexer(text);
    this.lineStarts = lineStarts(text);
    this.watchFirst = watchRoots && firstCharacters(watchRoots);
  }

  /** An expression (`HclSyntaxParser`): templates and bodies hold them. */
  protected abstract expression(): Expr;

  // ---- tokens and errors ----------------------------------------------------------------------

  /** The current token's kind, read through a call: TypeScript would keep narrowing `lexer.kind` across calls that move it. */
  protected at(kind: TokenKind): boolean {
    return this.lexer.kind === kind;
  }

  protected advance(): void {
    this.prevEnd = this.lexer.end;
    this.lexer.next();
  }

  protected expect(kind: TokenKind, what: string): void {
    if (this.lexer.kind !== kind) throw this.expected(what);
    this.advance();
  }

  /** The `}` closing a template part: left current, since the template scan goes on after it. */
  protected expectClosingBrace(): void {
    if (this.lexer.kind !== Token.RightBrace) throw this.expected("'}'");
  }

  /**
   * Something else than `what` is here: "missing" before a line break or the end, else
   * "unexpected". A missing bracket is reported where it would be inserted (before the next
   * token), anything else at the end of the line that lacks it, as the tree-sitter path did.
   */
  protected expected(what: string): SyntaxFailure {
    const lexer = this.lexer;
    if (lexer.kind !== Token.Eof && !lexer.newlineBefore) return this.unexpected();
    // A value missing before a body's closing brace: `b =` is the line to show; other tokens are the odd ones.
    if (what === 'expression' && lexer.kind !== Token.Eof && lexer.kind !== Token.RightBrace) return this.unexpected();
    const at = BRACKETS.has(what) ? lexer.start : this.prevEnd;
    return new SyntaxFailure(at, at, `syntax error: missing ${what}`);
  }

  /** The current token is out of place; a string is shown whole when it ends on its line. */
  protected unexpected(): SyntaxFailure {
    const { start, end, kind } = this.lexer;
    if (kind === Token.Eof) return new SyntaxFailure(start, end, 'syntax error: unexpected end of file');
    const stop = kind === Token.Quote ? stringEndOnLine(this.text, end) : end;
    const text = this.text.slice(start, stop);
    const snippet = text.length > 30 ? `${text.slice(0, 30)}…` : text;
    return new SyntaxFailure(start, stop, `syntax error: unexpected ${JSON.stringify(snippet)}`);
  }

  /**
   * Records a caught syntax failure. A stack overflow (absurdly deep nesting) is one too where
   * `overflow` says so: at a body item, where the stack is shallow again. Anything else is a bug.
   */
  protected fail(error: unknown, overflow = false): SyntaxFailure {
    let failure: SyntaxFailure;
    if (error instanceof SyntaxFailure) failure = error;
    else if (overflow && error instanceof RangeError) failure = this.tooDeep();
    else throw error;
    this.report(failure.start, failure.end, failure.message);
    return failure;
  }

  private tooDeep(): SyntaxFailure {
    return new SyntaxFailure(this.lexer.start, this.lexer.end, 'syntax error: nesting too deep');
  }

  protected report(start: number, end: number, message: string): void {
    const range = { start: this.position(start), end: this.position(end) };
    const last = this.errors[this.errors.length - 1];
    // Nested constructs left open at the end all miss their brace at the same spot: once is enough.
    if (last && last.message === message && sameRange(last.range, range)) return;
    this.errors.push({ range, message });
  }

  /** What HCL rejects beyond syntax; like the tree-sitter path, only in the bodies that are built. */
  protected problem(start: number, end: number, message: string): void {
    // Not deduplicated: the tree-sitter path reports a split template once per literal that has a line break.
    if (this.building && !this.watching)
      this.errors.push({ range: { start: this.position(start), end: this.position(end) }, message });
  }

  /**
   * After a syntax error, skips to where the body can go on: an identifier first on its line at
   * the body's depth, the body's closing brace, or the end of the text.
   */
  protected recover(bodyDepth: number, nested: boolean): void {
    const lexer = this.lexer;
    for (;;) {
      const kind = lexer.kind;
      if (kind === Token.Eof) return;
      if (kind === Token.Identifier && lexer.newlineBefore && lexer.depth <= bodyDepth) return;
      if (kind === Token.RightBrace && nested && lexer.depth < bodyDepth) return;
      this.skipToken();
    }
  }

  /** Skips one token; a template as a whole, so that its text is not read as tokens. */
  protected skipToken(): void {
    const lexer = this.lexer;
    if (lexer.kind === Token.Quote) this.skipTemplate(true, '');
    else if (lexer.kind === Token.Heredoc) this.skipTemplate(false, lexer.heredocMarker);
    this.advance();
  }

  /** Scans to the end of a template (from its opening or one of its parts); the lexer ends on its last token. */
  private skipTemplate(quoted: boolean, marker: string): void {
    const lexer = this.lexer;
    for (;;) {
      if (lexer.kind === Token.InterpolationStart || lexer.kind === Token.DirectiveStart) {
        const depth = lexer.depth;
        lexer.next();
        while (!this.at(Token.Eof) && !(this.at(Token.RightBrace) && lexer.depth < depth)) this.skipToken();
      }
      if (this.at(Token.Eof)) return;
      if (quoted) lexer.quotedPart();
      else lexer.heredocPart(marker, true);
      if (lexer.kind === Token.TemplateEnd || lexer.kind === Token.Eof) return;
    }
  }

  protected identifier(): string {
    const lexer = this.lexer;
    if (lexer.kind !== Token.Identifier) throw this.expected('identifier');
    const name = this.piece(lexer.start, lexer.end);
    this.advance();
    return name;
  }

  /** Keywords are identifiers with a meaning in one place: `for` after a bracket, `in`, `if`. */
  protected atKeyword(keyword: string): boolean {
    const lexer = this.lexer;
    return (
      lexer.kind === Token.Identifier &&
      lexer.end - lexer.start === keyword.length &&
      this.text.startsWith(keyword, lexer.start)
    );
  }

  // ---- positions ------------------------------------------------------------------------------

  /** The text from `start` to `end`, for the document to keep (see `keptText`). */
  protected piece(start: number, end: number): string {
    return keptText(this.text, start, end);
  }

  protected range(start: number, end: number): Range {
    if (!this.building) return NO_RANGE;
    if (this.positionOf) {
      const from = this.positionOf(start);
      const to = this.positionOf(end);
      return new TextRange(from.line, from.character, to.line, to.character);
    }
    const startLine = this.lineOf(start);
    const endLine = this.lineOf(end);
    const starts = this.lineStarts;
    return new TextRange(startLine, start - starts[startLine]!, endLine, end - starts[endLine]!);
  }

  /** Syntax errors' ranges stay plain objects: few, and compared as such. */
  private position(offset: number): Position {
    if (this.positionOf) return this.positionOf(offset);
    const line = this.lineOf(offset);
    return { line, character: offset - this.lineStarts[line]! };
  }

  /** An offset's line (LSP positions: UTF-16 columns, as JS strings index). Offsets come mostly in order. */
  private lineOf(offset: number): number {
    const starts = this.lineStarts;
    let line = this.lastLine;
    if (offset < starts[line]! || (line + 1 < starts.length && offset >= starts[line + 1]!)) {
      line = findLine(starts, offset);
      this.lastLine = line;
    }
    return line;
  }
}

const BRACKETS: ReadonlySet<string> = new Set(["'{'", "'}'", "']'", "')'"]);

/** Each watch set's first characters (see `HclTokenReader.watchFirst`), made once per set. */
const firstCharactersOf = new WeakMap<ReadonlySet<string>, Uint8Array>();

function firstCharacters(roots: ReadonlySet<string>): Uint8Array {
  let found = firstCharactersOf.get(roots);
  if (!found) {
    found = new Uint8Array(128);
    for (const root of roots) found[root.charCodeAt(0) & 127] = 1;
    firstCharactersOf.set(roots, found);
  }
  return found;
}

function sameRange(a: Range, b: Range): boolean {
  return (
    a.start.line === b.start.line &&
    a.start.character === b.start.character &&
    a.end.line === b.end.line &&
    a.end.character === b.end.character
  );
}

/** Where a quoted string starting before `from` ends if it closes on its line, else `from` (for messages only). */
function stringEndOnLine(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) return from;
    if (c === 34) return i + 1;
    if (c === 92) i++;
  }
  return from;
}
