/**
 * The tokens of HCL's native syntax: their kinds (the lexer's `kind`), and the texts of the punctuation
 * among them, found by their first character.
 */

export const Token = {
  Eof: 0,
  Identifier: 1,
  Number: 2,
  /** The opening `"` of a quoted template; its contents are scanned with `quotedPart`. */
  Quote: 3,
  /** `<<EOT` or `<<-EOT`: `heredocMarker` and `heredocIndented` describe it; contents via `heredocPart`. */
  Heredoc: 4,
  LeftBrace: 5,
  RightBrace: 6,
  LeftBracket: 7,
  RightBracket: 8,
  LeftParen: 9,
  RightParen: 10,
  Comma: 11,
  Dot: 12,
  Assign: 13,
  Colon: 14,
  Question: 15,
  Arrow: 16,
  Not: 17,
  Plus: 18,
  Minus: 19,
  Star: 20,
  Slash: 21,
  Percent: 22,
  Equal: 23,
  NotEqual: 24,
  Less: 25,
  LessEqual: 26,
  Greater: 27,
  GreaterEqual: 28,
  And: 29,
  Or: 30,
  Ellipsis: 31,
  /** `[*]` */
  FullSplat: 32,
  /** `.*` */
  AttrSplat: 33,
  /** The strip marker `~` of `${~ x ~}`. */
  Tilde: 34,
  /** A character no token starts with, or an unterminated `/*` comment (to the end of the text). */
  Invalid: 35,
  // Template parts, only from `quotedPart` and `heredocPart`.
  /** `${` */
  InterpolationStart: 36,
  /** `%{` */
  DirectiveStart: 37,
  /** The closing `"`, or a heredoc's closing marker (the marker itself, without indentation). */
  TemplateEnd: 38,
  /** A backslash that starts no valid escape sequence in a quoted template. */
  BadEscape: 39,
} as const;

export type TokenKind = (typeof Token)[keyof typeof Token];

/** The punctuation tokens by their text: one character, or two or three (the longer of two that start alike first). */
const PUNCTUATION: readonly [string, TokenKind][] = [
  ['{', Token.LeftBrace],
  ['}', Token.RightBrace],
  ['[', Token.LeftBracket],
  [']', Token.RightBracket],
  ['(', Token.LeftParen],
  [')', Token.RightParen],
  ['"', Token.Quote],
  [',', Token.Comma],
  ['.', Token.Dot],
  ['=', Token.Assign],
  [':', Token.Colon],
  ['?', Token.Question],
  ['!', Token.Not],
  ['+', Token.Plus],
  ['-', Token.Minus],
  ['*', Token.Star],
  ['/', Token.Slash],
  ['%', Token.Percent],
  ['<', Token.Less],
  ['>', Token.Greater],
  ['~', Token.Tilde],
  ['[*]', Token.FullSplat],
  ['...', Token.Ellipsis],
  ['.*', Token.AttrSplat],
  ['==', Token.Equal],
  ['=>', Token.Arrow],
  ['!=', Token.NotEqual],
  ['<=', Token.LessEqual],
  ['>=', Token.GreaterEqual],
  ['&&', Token.And],
  ['||', Token.Or],
];

/** Tokens of one character, by character. */
export const SINGLE: readonly (TokenKind | undefined)[] = (() => {
  const single: (TokenKind | undefined)[] = [];
  for (const [text, kind] of PUNCTUATION) if (text.length === 1) single[text.charCodeAt(0)] = kind;
  return single;
})();

/** How an opening or closing bracket changes the nesting depth. */
export const DEPTH_CHANGE = new Int8Array(128);
for (const c of '{[(') DEPTH_CHANGE[c.charCodeAt(0)] = 1;
for (const c of '}])') DEPTH_CHANGE[c.charCodeAt(0)] = -1;

/** Tokens of two or three characters, by first character, longest first. */
export const LONG_TOKENS: readonly (readonly [string, TokenKind][] | undefined)[] = (() => {
  const long: [string, TokenKind][][] = [];
  for (const token of PUNCTUATION) {
    if (token[0].length === 1) continue;
    const first = token[0].charCodeAt(0);
    long[first] = [...(long[first] ?? []), token];
  }
  return long;
})();
