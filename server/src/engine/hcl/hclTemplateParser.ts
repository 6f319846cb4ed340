import type { Expr } from './expression';
import { decodeQuoted, SPLIT_STRING_MESSAGE } from './hclLiterals';
import { Token as LexerToken } from './hclToken';
import { HclTokenReader, UNUSED } from './hclTokenReader';
import { type TemplateStyle, type TemplateToken, templateFromTokens } from './templateTokens';

/**
 * The parser's templates (`HclSyntaxParser`): quoted strings, heredocs and a bare template, their
 * interpolations and directives read into the flat tokens a template is made of.
 */

/** The token kinds, read once: an import read through a getter (as some module loaders make them) on every comparison shows in profiles. */
const Token = LexerToken;

/** An opened `%{ if }` or `%{ for }` (or an `%{ else }` replacing its `if`) awaiting its end. */
interface OpenDirective {
  kind: 'if' | 'else' | 'for';
  start: number;
  end: number;
}

export abstract class HclTemplateParser extends HclTokenReader {
  /** `"…"`: a literal when it has no interpolation or directive, else a template. */
  protected quoted(): Expr {
    const lexer = this.lexer;
    const open = lexer.start;
    const from = lexer.end;
    const directives: OpenDirective[] = [];
    let tokens: TemplateToken[] | undefined;
    let at = from;
    for (;;) {
      lexer.quotedPart();
      const kind = lexer.kind;
      if (kind === Token.TemplateEnd) break;
      if (kind === Token.Eof) {
        this.report(open, lexer.start, 'syntax error: missing closing quote');
        break;
      }
      if (kind === Token.BadEscape) {
        this.fail(this.unexpected());
        continue;
      }
      tokens ??= [];
      if (lexer.start > at) tokens.push({ t: 'lit', text: this.piece(at, lexer.start) });
      this.templatePart(tokens, directives);
      at = lexer.end;
    }
    const to = lexer.start;
    const end = lexer.end;
    this.unclosedDirectives(directives);
    this.prevEnd = end;
    lexer.next();
    if (!this.building) return UNUSED;
    const range = this.range(open, end);
    if (!tokens) {
      const raw = this.piece(from, to);
      if (raw.includes('\n')) this.problem(open, end, SPLIT_STRING_MESSAGE);
      return { kind: 'literal', value: decodeQuoted(raw), range };
    }
    if (to > at) tokens.push({ t: 'lit', text: this.piece(at, to) });
    return templateFromTokens(tokens, 'quoted', range, () => this.problem(open, end, SPLIT_STRING_MESSAGE));
  }

  /**
   * `<<EOT` … `EOT`: the text starts on the line after the marker and ends at the start of the
   * closing marker's line. Parts on the opening line are parsed but not kept, as before.
   */
  protected heredoc(): Expr {
    const lexer = this.lexer;
    const start = lexer.start;
    const marker = lexer.heredocMarker;
    const style: TemplateStyle = lexer.heredocIndented ? 'indented-heredoc' : 'heredoc';
    const newline = this.text.indexOf('\n', lexer.end);
    const from = newline < 0 ? this.text.length : newline + 1;
    const directives: OpenDirective[] = [];
    const tokens: TemplateToken[] = [];
    let at = from;
    for (;;) {
      lexer.heredocPart(marker, directives.length === 0);
      const kind = lexer.kind;
      if (kind === Token.TemplateEnd) break;
      if (kind === Token.Eof) {
        this.report(start, lexer.start, 'syntax error: missing heredoc end marker');
        break;
      }
      const kept = lexer.start >= from;
      if (kept && lexer.start > at) tokens.push({ t: 'lit', text: this.piece(at, lexer.start) });
      this.templatePart(kept ? tokens : [], directives);
      if (kept) at = lexer.end;
    }
    const closed = lexer.kind === Token.TemplateEnd;
    const end = lexer.end;
    const to = Math.max(from, closed ? this.text.lastIndexOf('\n', lexer.start - 1) + 1 : end);
    this.unclosedDirectives(directives);
    this.prevEnd = end;
    lexer.next();
    if (!this.building) return UNUSED;
    if (to > at) tokens.push({ t: 'lit', text: this.piece(at, to) });
    return templateFromTokens(tokens, style, this.range(start, end), noProblem);
  }

  /** The whole text as a template: as a heredoc's body, up to the end of the text. */
  template(): Expr {
    const lexer = this.lexer;
    const directives: OpenDirective[] = [];
    const tokens: TemplateToken[] = [];
    let at = 0;
    for (;;) {
      lexer.heredocPart('', false);
      if (lexer.kind === Token.Eof) break;
      if (lexer.start > at) tokens.push({ t: 'lit', text: this.piece(at, lexer.start) });
      this.templatePart(tokens, directives);
      at = lexer.end;
    }
    this.unclosedDirectives(directives);
    const end = this.text.length;
    if (end > at) tokens.push({ t: 'lit', text: this.piece(at, end) });
    return templateFromTokens(tokens, 'heredoc', this.range(0, end), noProblem);
  }

  /**
   * `${ … }` or `%{ … }`, the lexer on its opening; ends on its closing brace, where the template
   * goes on. A broken part is reported and skipped, the rest of the template still read.
   */
  private templatePart(tokens: TemplateToken[], directives: OpenDirective[]): void {
    const lexer = this.lexer;
    const depth = lexer.depth;
    try {
      if (lexer.kind === Token.InterpolationStart) tokens.push(this.interpolation());
      else tokens.push(this.directive(directives));
    } catch (error) {
      this.fail(error);
      while (lexer.kind !== Token.Eof && !(lexer.kind === Token.RightBrace && lexer.depth < depth)) this.skipToken();
    }
  }

  private interpolation(): TemplateToken {
    const lexer = this.lexer;
    const start = lexer.start;
    this.advance();
    const stripBefore = this.strip();
    const expr = lexer.kind === Token.RightBrace || lexer.kind === Token.Tilde ? undefined : this.expression();
    const stripAfter = this.strip();
    this.expectClosingBrace();
    if (expr) return { t: 'interp', expr, stripBefore, stripAfter };
    const text = `empty interpolation: ${this.piece(start, lexer.end)}`;
    return {
      t: 'interp',
      expr: { kind: 'unsupported', text, range: this.range(start, lexer.end) },
      stripBefore,
      stripAfter,
    };
  }

  private strip(): boolean {
    if (this.lexer.kind !== Token.Tilde) return false;
    this.advance();
    return true;
  }

  /** `%{ if c }`, `%{ else }`, `%{ endif }`, `%{ for k, v in c }`, `%{ endfor }`, properly nested. */
  private directive(directives: OpenDirective[]): TemplateToken {
    const lexer = this.lexer;
    const start = lexer.start;
    this.advance();
    const stripBefore = this.strip();
    const keyword = this.directiveKeyword(directives[directives.length - 1]);
    this.advance();
    let token: TemplateToken;
    if (keyword === 'if') {
      token = { t: 'if', condition: this.expression(), stripBefore, stripAfter: false };
    } else if (keyword === 'for') {
      const { keyVar, valueVar } = this.forNames();
      token = { t: 'for', keyVar, valueVar, collection: this.expression(), stripBefore, stripAfter: false };
    } else {
      token = { t: keyword, stripBefore, stripAfter: false };
    }
    token.stripAfter = this.strip();
    this.expectClosingBrace();
    if (keyword === 'if' || keyword === 'for') directives.push({ kind: keyword, start, end: lexer.end });
    else if (keyword === 'else') directives[directives.length - 1].kind = 'else';
    else directives.pop();
    return token;
  }

  /** The directive's keyword, if it is one that may come here (an `else` only in an `if`, and so on). */
  private directiveKeyword(open: OpenDirective | undefined): 'if' | 'for' | 'else' | 'endif' | 'endfor' {
    const lexer = this.lexer;
    if (lexer.kind !== Token.Identifier) throw this.expected('if, for, else, endif or endfor');
    const keyword = this.text.slice(lexer.start, lexer.end);
    if (keyword === 'if' || keyword === 'for') return keyword;
    if (keyword === 'else' && open?.kind === 'if') return keyword;
    if (keyword === 'endif' && (open?.kind === 'if' || open?.kind === 'else')) return keyword;
    if (keyword === 'endfor' && open?.kind === 'for') return keyword;
    throw this.unexpected();
  }

  private unclosedDirectives(directives: OpenDirective[]): void {
    for (const open of directives) {
      const ending = open.kind === 'for' ? 'endfor' : 'endif';
      this.report(open.start, open.end, `syntax error: missing %{ ${ending} }`);
    }
  }

  /** `k, v in` or `v in` after `for`. */
  protected forNames(): { keyVar: string | undefined; valueVar: string } {
    const first = this.identifier();
    let keyVar: string | undefined;
    let valueVar = first;
    if (this.lexer.kind === Token.Comma) {
      this.advance();
      keyVar = first;
      valueVar = this.identifier();
    }
    if (!this.atKeyword('in')) throw this.expected("'in'");
    this.advance();
    return { keyVar, valueVar };
  }
}

function noProblem(): void {}
