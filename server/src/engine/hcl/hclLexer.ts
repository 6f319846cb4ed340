import type { TokenKind } from './hclToken';
import * as tokenTables from './hclToken';

/**
 * The tokens of HCL's native syntax, scanned on demand: the lexer holds one current token (kind
 * and UTF-16 offsets into the source string) and the parser asks for the next one. Templates have
 * their own scanning modes (quoted, heredoc); the parser switches to them because only it knows
 * when a template starts. No token objects are allocated.
 *
 * The token rules follow the tree-sitter HCL grammar (`parseHclDocument`), so that both parsers
 * accept the same files: line breaks are plain whitespace, a quoted string may span lines (the
 * parser reports it), `[*]` and `.*` are single tokens, a heredoc's closing marker must be
 * followed by a line break. One exception, where the grammar is wrong: a number's exponent may
 * follow its integer part alone (`1e7`), as HCL's specification and Terraform read it.
 */

/** The token kinds and tables, read once: an import read through a getter (as some module loaders make them) on every token shows in profiles. */
const { Token, SINGLE, DEPTH_CHANGE, LONG_TOKENS } = tokenTables;

const CH_TAB = 9;
const CH_LF = 10;
const CH_VT = 11;
const CH_FF = 12;
const CH_CR = 13;
const CH_SPACE = 32;
const CH_QUOTE = 34;
const CH_HASH = 35;
const CH_DOLLAR = 36;
const CH_PERCENT = 37;
const CH_STAR = 42;
const CH_PLUS = 43;
const CH_MINUS = 45;
const CH_DOT = 46;
const CH_SLASH = 47;
const CH_0 = 48;
const CH_9 = 57;
const CH_COLON = 58;
const CH_LESS = 60;
const CH_BACKSLASH = 92;
const CH_LBRACE = 123;
const CH_LOWER_X = 120;

/** ASCII character classes: bit 1 starts an identifier, bit 2 continues one, bit 4 is a heredoc marker character. */
const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  const digit = c >= CH_0 && c <= CH_9;
  if (letter || c === 95) ASCII_CLASS[c] |= 1;
  if (letter || digit || c === 95 || c === CH_MINUS) ASCII_CLASS[c] |= 2 | 4;
}

/** The identifier rule of the grammar, for identifiers with non-ASCII characters. */
const IDENTIFIER_AT = /[\p{ID_Start}_](?:[\p{ID_Continue}-]|::)*/uy;
/** The non-ASCII characters the C library's `iswspace` (in the grammar's heredoc scanner) counts as spaces. */
const UNICODE_SPACE = /[\u0085\u2000-\u2006\u2008-\u200a\u2028\u2029\u205f\u3000]/;
const UNICODE_ALNUM = /\p{L}/u;
const BYTE_ORDER_MARK = 0xfeff;

function isDigit(c: number): boolean {
  return c >= CH_0 && c <= CH_9;
}

function isHexDigit(c: number): boolean {
  return (c >= CH_0 && c <= CH_9) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

function isAlphanumeric(c: number): boolean {
  return (c >= CH_0 && c <= CH_9) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** Whitespace as the grammar's heredoc scanner sees it (ASCII fast path; NaN, past the end, is not). */
function isSpace(c: number): boolean {
  if (c === CH_SPACE || c === CH_TAB || c === CH_LF || c === CH_CR || c === CH_VT || c === CH_FF) return true;
  return c > 127 && UNICODE_SPACE.test(String.fromCharCode(c));
}

/** The width of the escape sequence at a backslash in a quoted template, 0 when it is invalid. */
function escapeWidth(text: string, at: number): number {
  const c = text.charCodeAt(at + 1);
  if (c === 110 || c === 114 || c === 116 || c === CH_QUOTE || c === CH_BACKSLASH) return 2; // n r t " \
  const digits = c === 117 ? 4 : c === 85 ? 8 : 0; // u U
  if (digits === 0) return 0;
  for (let i = 0; i < digits; i++) {
    if (!isHexDigit(text.charCodeAt(at + 2 + i))) return 0;
  }
  return 2 + digits;
}

export class HclLexer {
  kind: TokenKind = Token.Eof;
  start = 0;
  end = 0;
  /** Whether a line break lies between the previous token and this one (error recovery resumes at line starts). */
  newlineBefore = false;
  /** Brackets (`{ [ ( ${ %{`) open after the current token; recovery uses it to find the enclosing body again. */
  depth = 0;
  /** The current `Heredoc` token's marker (`EOT`) and whether it is `<<-`. */
  heredocMarker = '';
  heredocIndented = false;

  constructor(readonly text: string) {}

  /** Scans the next token after the current one, skipping whitespace and comments. */
  next(): void {
    const at = this.skipTrivia(this.end);
    this.start = at;
    if (at >= this.text.length) {
      this.set(Token.Eof, at);
      return;
    }
    const c = this.text.charCodeAt(at);
    if (c < 128 && (ASCII_CLASS[c] & 1) !== 0) this.set(Token.Identifier, this.identifierEnd(at));
    else if (isDigit(c)) this.set(Token.Number, this.numberEnd(at));
    else if (c > 127) this.nonAscii(at);
    else this.punctuation(c, at);
  }

  /**
   * The token after a `.`: a legacy index `a.0.1` takes only digits (never `0.1`); anything
   * else as usual.
   */
  nextAfterDot(): void {
    const at = this.skipTrivia(this.end);
    if (!isDigit(this.text.charCodeAt(at))) {
      this.next();
      return;
    }
    let end = at + 1;
    while (isDigit(this.text.charCodeAt(end))) end++;
    this.start = at;
    this.set(Token.Number, end);
  }

  /**
   * After a term, where the grammar expects an operator, `<<` is not a heredoc but `<` followed
   * by whatever comes next (`a <<<EOT` compares `a` with a heredoc): re-scans the current token so.
   */
  lessInsteadOfHeredoc(): void {
    if (this.text.charCodeAt(this.start) !== CH_LESS || this.text.charCodeAt(this.start + 1) !== CH_LESS) return;
    this.set(Token.Less, this.start + 1);
  }

  /**
   * The next part of a quoted template after the current token (the opening quote or the `}` of a
   * part): `InterpolationStart`, `DirectiveStart`, `TemplateEnd`, `BadEscape` or `Eof`. Literal
   * text is skipped: it is whatever lies between the parts. Line breaks are text, as in the grammar.
   * In a block label (`templates` false) `${` and `%{` are text too: the grammar allows no
   * template there, so its scanner never looks for one.
   */
  quotedPart(templates = true): void {
    const text = this.text;
    const length = text.length;
    let i = this.end;
    while (i < length) {
      const c = text.charCodeAt(i);
      if (c === CH_QUOTE) {
        this.part(Token.TemplateEnd, i, i + 1);
        return;
      }
      if (c === CH_BACKSLASH) {
        const width = escapeWidth(text, i);
        if (width === 0) {
          this.part(Token.BadEscape, i, i + 1);
          return;
        }
        i += width;
      } else if (templates && (c === CH_DOLLAR || c === CH_PERCENT)) {
        const skip = this.templateSign(c, i);
        if (skip === 0) return;
        i += skip;
      } else {
        i++;
      }
    }
    this.part(Token.Eof, length, length);
  }

  /**
   * The next part of a heredoc after the current token (its opening marker or the `}` of a part).
   * The closing marker is recognised only where the grammar's scanner looks for it: first on its
   * line after whitespace, followed by spaces and a line break; and not inside a directive
   * (`closable` false), where the grammar does not expect the heredoc to end.
   */
  heredocPart(marker: string, closable: boolean): void {
    const text = this.text;
    const length = text.length;
    let i = this.end;
    while (i < length) {
      // Each iteration is where the grammar's scanner starts a token: it skips whitespace first.
      let lineStart = false;
      let c = text.charCodeAt(i);
      while (isSpace(c)) {
        if (c === CH_LF) lineStart = true;
        c = text.charCodeAt(++i);
      }
      if (i >= length) break;
      if (c === CH_DOLLAR || c === CH_PERCENT) {
        const skip = this.templateSign(c, i);
        if (skip === 0) return;
        i += skip;
      } else if (lineStart && closable) {
        const matched = this.markerAt(marker, i);
        if (matched < 0) return;
        i += matched;
      } else {
        i++;
      }
    }
    this.part(Token.Eof, length, length);
  }

  /**
   * At a possible closing marker: sets `TemplateEnd` and returns -1 when it is one, else returns
   * how far the grammar's scanner goes before looking again (a partial match stops at the
   * mismatch; a full match without a line break after it swallows one more character).
   */
  private markerAt(marker: string, at: number): number {
    const text = this.text;
    for (let k = 0; k < marker.length; k++) {
      if (text.charCodeAt(at + k) !== marker.charCodeAt(k)) return k === 0 ? 1 : k;
    }
    let i = at + marker.length;
    while (isSpace(text.charCodeAt(i)) && text.charCodeAt(i) !== CH_LF) i++;
    if (text.charCodeAt(i) === CH_LF) {
      this.part(Token.TemplateEnd, at, at + marker.length);
      return -1;
    }
    return Math.min(i + 1, text.length) - at;
  }

  /**
   * `$` or `%` in a template: sets `InterpolationStart`/`DirectiveStart` and returns 0 at `${`/`%{`;
   * otherwise returns how many characters are text (`$${` is an escape, `$$` two characters).
   */
  private templateSign(c: number, at: number): number {
    const next = this.text.charCodeAt(at + 1);
    if (next === CH_LBRACE) {
      this.depth++;
      this.part(c === CH_DOLLAR ? Token.InterpolationStart : Token.DirectiveStart, at, at + 2);
      return 0;
    }
    if (next !== c) return 1;
    return this.text.charCodeAt(at + 2) === CH_LBRACE ? 3 : 2;
  }

  private part(kind: TokenKind, start: number, end: number): void {
    this.kind = kind;
    this.start = start;
    this.end = end;
    this.newlineBefore = false;
  }

  private set(kind: TokenKind, end: number): void {
    this.kind = kind;
    this.end = end;
  }

  /**
   * Skips whitespace and comments from `at`; records whether a line break was among them. Only
   * ASCII whitespace counts, as in the grammar, and a byte order mark at the very start.
   */
  private skipTrivia(at: number): number {
    const text = this.text;
    let i = at === 0 && text.charCodeAt(0) === BYTE_ORDER_MARK ? 1 : at;
    let newline = false;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === CH_SPACE || c === CH_TAB || c === CH_CR) {
        i++;
      } else if (c === CH_LF) {
        newline = true;
        i++;
      } else if (c === CH_HASH || (c === CH_SLASH && text.charCodeAt(i + 1) === CH_SLASH)) {
        const end = text.indexOf('\n', i);
        i = end < 0 ? text.length : end;
      } else if (c === CH_SLASH && text.charCodeAt(i + 1) === CH_STAR) {
        const close = text.indexOf('*/', i + 2);
        if (close < 0) break; // unterminated: the parser gets an Invalid token here
        const lineBreak = newline ? -1 : text.indexOf('\n', i);
        if (lineBreak >= 0 && lineBreak < close) newline = true;
        i = close + 2;
      } else if (c === CH_VT || c === CH_FF) {
        i++;
      } else {
        break;
      }
    }
    this.newlineBefore = newline;
    return i;
  }

  /** `[\p{ID_Start}_]([\p{ID_Continue}-]|::)*`, ASCII without a regular expression. */
  private identifierEnd(at: number): number {
    const text = this.text;
    let i = at + 1;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c < 128 && (ASCII_CLASS[c] & 2) !== 0) i++;
      else if (c === CH_COLON && text.charCodeAt(i + 1) === CH_COLON) i += 2;
      else if (c > 127) return this.unicodeIdentifierEnd(at);
      else return i;
    }
  }

  private unicodeIdentifierEnd(at: number): number {
    IDENTIFIER_AT.lastIndex = at;
    IDENTIFIER_AT.test(this.text);
    return IDENTIFIER_AT.lastIndex;
  }

  /** `[0-9]+(\.[0-9]+([eE][-+]?[0-9]+)?)?` or `0x[0-9a-zA-Z]+`, the longest that matches. */
  private numberEnd(at: number): number {
    const text = this.text;
    if (
      text.charCodeAt(at) === CH_0 &&
      text.charCodeAt(at + 1) === CH_LOWER_X &&
      isAlphanumeric(text.charCodeAt(at + 2))
    ) {
      let i = at + 3;
      while (isAlphanumeric(text.charCodeAt(i))) i++;
      return i;
    }
    let i = at + 1;
    while (isDigit(text.charCodeAt(i))) i++;
    if (text.charCodeAt(i) === CH_DOT && isDigit(text.charCodeAt(i + 1))) {
      i += 2;
      while (isDigit(text.charCodeAt(i))) i++;
    }
    // HCL's exponent may follow the integer part alone (`1e7`), as Terraform reads it.
    const e = text.charCodeAt(i);
    if (e !== 69 && e !== 101) return i;
    const sign = text.charCodeAt(i + 1);
    const first = sign === CH_PLUS || sign === CH_MINUS ? i + 2 : i + 1;
    if (!isDigit(text.charCodeAt(first))) return i;
    i = first + 1;
    while (isDigit(text.charCodeAt(i))) i++;
    return i;
  }

  /** An identifier starting with a non-ASCII letter, or an invalid character (a whole surrogate pair). */
  private nonAscii(at: number): void {
    IDENTIFIER_AT.lastIndex = at;
    if (IDENTIFIER_AT.test(this.text)) {
      this.set(Token.Identifier, IDENTIFIER_AT.lastIndex);
      return;
    }
    const code = this.text.codePointAt(at) ?? 0;
    this.set(Token.Invalid, at + (code > 0xffff ? 2 : 1));
  }

  /** Operators and brackets; a bracket changes `depth`. */
  private punctuation(c: number, at: number): void {
    const next = this.text.charCodeAt(at + 1);
    if (c === CH_LESS && next === CH_LESS) {
      this.heredoc(at);
    } else if (c === CH_SLASH && next === CH_STAR) {
      // A `/*` reaches here only when the comment is unterminated: invalid to the end.
      this.set(Token.Invalid, this.text.length);
    } else if (!this.longToken(c, at)) {
      this.depth += DEPTH_CHANGE[c];
      this.set(SINGLE[c] ?? Token.Invalid, at + 1);
    }
  }

  /** A token of two or three characters at `at`, if one starts there. */
  private longToken(c: number, at: number): boolean {
    const candidates = LONG_TOKENS[c];
    if (candidates === undefined) return false;
    for (const [text, kind] of candidates) {
      if (this.text.startsWith(text, at)) {
        this.set(kind, at + text.length);
        return true;
      }
    }
    return false;
  }

  /** `<<EOT` / `<<-EOT`: the marker follows, after optional whitespace as in the grammar's scanner. */
  private heredoc(at: number): void {
    const text = this.text;
    this.heredocIndented = text.charCodeAt(at + 2) === CH_MINUS;
    let i = at + (this.heredocIndented ? 3 : 2);
    while (isSpace(text.charCodeAt(i))) i++;
    const markerStart = i;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c < 128 ? (ASCII_CLASS[c] & 4) === 0 : !UNICODE_ALNUM.test(String.fromCharCode(c))) break;
      i++;
    }
    this.heredocMarker = text.slice(markerStart, i);
    this.set(this.heredocMarker === '' ? Token.Invalid : Token.Heredoc, i);
  }
}
