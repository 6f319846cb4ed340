import type { Expr, TemplateDirective, TemplatePart } from './expression';
import { decodeHeredoc, decodeQuoted } from './hclLiterals';
import type { Range } from './position';

/**
 * A template as a flat token list, the way HCL's parser sees it before nesting directives. Literal
 * texts are raw source (escapes not yet decoded) until `templateFromTokens` decodes them.
 */
export type TemplateToken =
  | { t: 'lit'; text: string }
  | { t: 'interp'; expr: Expr; stripBefore: boolean; stripAfter: boolean }
  | { t: 'if'; condition: Expr; stripBefore: boolean; stripAfter: boolean }
  | { t: 'else' | 'endif' | 'endfor'; stripBefore: boolean; stripAfter: boolean }
  | {
      t: 'for';
      keyVar: string | undefined;
      valueVar: string;
      collection: Expr;
      stripBefore: boolean;
      stripAfter: boolean;
    };

/** `"…"`, `<<EOT` or `<<-EOT` (whose lines lose their common indentation). */
export type TemplateStyle = 'quoted' | 'heredoc' | 'indented-heredoc';

/**
 * Turns a template's flat tokens (literals still raw) into a literal or a template: decodes the
 * literals, applies strip markers and `<<-` indentation, nests directives. Shared by both parsers
 * so that they decode alike. `splitOverLines` is called once per quoted literal that has a line break.
 */
export function templateFromTokens(
  tokens: TemplateToken[],
  style: TemplateStyle,
  range: Range,
  splitOverLines: () => void,
): Expr {
  const quoted = style === 'quoted';
  for (const token of tokens) {
    if (token.t !== 'lit') continue;
    if (quoted && token.text.includes('\n')) splitOverLines();
    token.text = quoted ? decodeQuoted(token.text) : decodeHeredoc(token.text);
  }
  applyStripMarkers(tokens);
  if (style === 'indented-heredoc') flushHeredoc(tokens);
  const parts = nestParts(tokens, { at: 0 }, undefined);
  if (parts.every((part) => typeof part === 'string')) return { kind: 'literal', value: parts.join(''), range };
  return { kind: 'template', parts, range };
}

function applyStripMarkers(tokens: TemplateToken[]): void {
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.t === 'lit') continue;
    const before = tokens[i - 1];
    const after = tokens[i + 1];
    if (token.stripBefore && before?.t === 'lit') before.text = before.text.trimEnd();
    if (token.stripAfter && after?.t === 'lit') after.text = after.text.trimStart();
  }
}

/**
 * `<<-` heredocs: remove the smallest indentation of all lines, as HCL does. Lines that are only
 * whitespace do not count (and keep their spaces); a line starting with an interpolation counts as 0.
 */
function flushHeredoc(tokens: TemplateToken[]): void {
  const lines: { token: TemplateToken & { t: 'lit' }; offset: number }[] = [];
  let minSpaces = Number.POSITIVE_INFINITY;
  let lineStart = true;
  for (const token of tokens) {
    if (token.t !== 'lit') {
      if (lineStart) minSpaces = 0;
      lineStart = false;
      continue;
    }
    let offset = 0;
    while (offset < token.text.length) {
      const newline = token.text.indexOf('\n', offset);
      const end = newline < 0 ? token.text.length : newline + 1;
      if (lineStart) {
        const line = token.text.slice(offset, end);
        const spaces = line.length - line.trimStart().length;
        const blank = line.trim() === '' && line.endsWith('\n');
        if (!blank) {
          minSpaces = Math.min(minSpaces, spaces);
          lines.push({ token, offset });
        }
      }
      lineStart = newline >= 0;
      offset = end;
    }
  }
  if (!Number.isFinite(minSpaces) || minSpaces === 0) return;
  // Cut from the last line backwards so earlier offsets stay valid.
  for (let i = lines.length - 1; i >= 0; i--) {
    const { token, offset } = lines[i];
    token.text = token.text.slice(0, offset) + token.text.slice(offset + minSpaces);
  }
}

/** Nests the flat tokens into template parts, `%{ if }`/`%{ for }` becoming directives. */
function nestParts(
  tokens: TemplateToken[],
  cursor: { at: number },
  until: ReadonlySet<string> | undefined,
): TemplatePart[] {
  const parts: TemplatePart[] = [];
  while (cursor.at < tokens.length) {
    const token = tokens[cursor.at];
    if (until?.has(token.t)) return parts;
    cursor.at++;
    if (token.t === 'lit') {
      if (token.text) pushLiteral(parts, token.text);
    } else if (token.t === 'interp') {
      parts.push(token.expr);
    } else if (token.t === 'if') {
      parts.push(ifDirective(token.condition, tokens, cursor));
    } else if (token.t === 'for') {
      const body = nestParts(tokens, cursor, END_FOR);
      if (tokens[cursor.at]?.t === 'endfor') cursor.at++;
      const directive: TemplateDirective = {
        kind: 'for',
        keyVar: token.keyVar,
        valueVar: token.valueVar,
        collection: token.collection,
        body,
      };
      parts.push(directive);
    }
  }
  return parts;
}

const END_FOR: ReadonlySet<string> = new Set(['endfor']);
const ELSE_OR_END_IF: ReadonlySet<string> = new Set(['else', 'endif']);
const END_IF: ReadonlySet<string> = new Set(['endif']);

function ifDirective(condition: Expr, tokens: TemplateToken[], cursor: { at: number }): TemplateDirective {
  const then = nestParts(tokens, cursor, ELSE_OR_END_IF);
  let otherwise: TemplatePart[] = [];
  if (tokens[cursor.at]?.t === 'else') {
    cursor.at++;
    otherwise = nestParts(tokens, cursor, END_IF);
  }
  if (tokens[cursor.at]?.t === 'endif') cursor.at++;
  return { kind: 'if', condition, then, else: otherwise };
}

function pushLiteral(parts: TemplatePart[], text: string): void {
  const last = parts[parts.length - 1];
  if (typeof last === 'string') parts[parts.length - 1] = last + text;
  else parts.push(text);
}
