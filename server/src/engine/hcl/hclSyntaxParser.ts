import { type Expr, MAX_EXPRESSION_DEPTH, type TraversalStep, tooDeep, tupleExpr } from './expression';
import type { HclAttribute, HclBody, HclDocument, HclSyntaxError, ParseOptions } from './hclBody';
import { HclLexer } from './hclLexer';
import { decodeQuoted, numberFromText, SPLIT_STRING_MESSAGE } from './hclLiterals';
import { OPERATOR, PRECEDENCE } from './hclOperators';
import { Token as LexerToken, type TokenKind } from './hclToken';
import { keptText } from './keptText';
import { findLine, lineStarts } from './lineIndex';
import { type Position, plainRange, type Range, TextRange } from './position';
import { type TemplateStyle, type TemplateToken, templateFromTokens } from './templateTokens';

/**
 * HCL's native syntax parsed by recursive descent straight into the engine's document model,
 * without tree-sitter: the same `HclDocument` as `parseHclDocument` (same ranges, same decoding,
 * same `unsupported` cases, same problems reported beyond syntax errors), an order of magnitude
 * faster, synchronous and with no parser object to load.
 *
 * Where tree-sitter's HCL grammar and HCL itself disagree, this parser follows the grammar, so
 * that the two paths agree: line breaks never end an expression (`a = b\n  + c` is one sum),
 * `a ? b : c ? d : e` groups to the left, a quoted string may span lines (reported, as before).
 *
 * A body the caller's `keepBody` rejects is checked for syntax errors (tree-sitter reported those
 * too) but nothing in it is built: no ranges, no decoded strings, no problems beyond syntax.
 */
export function parseHcl(text: string, options: ParseOptions = {}): HclDocument {
  return new HclSyntaxParser(text, options.keepBody ?? keepAll, options.watchRoots).document();
}

/**
 * A bare template, as Terraform reads a string of its JSON syntax (`"${local.env}-vpc"`): text with
 * interpolations and directives, no quotes, no escapes but `$${` and `%%{`. `positionOf` places its
 * offsets in the file the text was decoded from.
 */
export function parseTemplate(text: string, positionOf: (offset: number) => Position): Expr {
  return new HclSyntaxParser(text, keepAll, undefined, positionOf).template();
}

function keepAll(): boolean {
  return true;
}

type KeepBody = (type: string, labels: string[], depth: number) => boolean;

/** The token kinds, read once: an import read through a getter (as some module loaders make them) on every comparison shows in profiles. */
const Token = LexerToken;

/** Thrown at a syntax error and caught where parsing can resume (a body item, a template part). */
class SyntaxFailure {
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

/** An opened `%{ if }` or `%{ for }` (or an `%{ else }` replacing its `if`) awaiting its end. */
interface OpenDirective {
  kind: 'if' | 'else' | 'for';
  start: number;
  end: number;
}

class HclSyntaxParser {
  private readonly lexer: HclLexer;
  private readonly errors: HclSyntaxError[] = [];
  /** The end of the last token consumed: where the expression just parsed ends. */
  private prevEnd = 0;
  /** False while checking a body the caller skips. */
  private building = true;
  /** In a skipped body with watched roots: the expressions found there that start at one. */
  private found: Expr[] | undefined;
  /** Building a watched expression in a skipped body: what HCL rejects beyond syntax stays unreported there. */
  private watching = false;
  private readonly lineStarts: number[];
  private lastLine = 0;
  /** The watched roots' first characters, by char code: most identifiers start with another. */
  private readonly watchFirst: Uint8Array | undefined;

  constructor(
    private readonly text: string,
    private readonly keepBody: KeepBody,
    private readonly watchRoots: ReadonlySet<string> | undefined,
    private readonly positionOf?: (offset: number) => Position,
  ) {
    this.lexer = new HclLexer(text);
    this.lineStarts = lineStarts(text);
    this.watchFirst = watchRoots && firstCharacters(watchRoots);
  }

  document(): HclDocument {
    let body: HclBody = { attributes: [], blocks: [] };
    try {
      this.lexer.next();
      if (this.lexer.kind === Token.LeftBrace) this.objectFile();
      else body = this.body(0, false);
    } catch (error) {
      // Only a stack overflow outside any body item gets here (a JSON-like object file).
      this.fail(error, true);
    }
    return { body, errors: this.errors.sort(byStart) };
  }

  // ---- bodies ---------------------------------------------------------------------------------

  /** Attributes and blocks up to the closing brace (left current) or the end of the text. */
  private body(depth: number, nested: boolean): HclBody {
    const body: HclBody = { attributes: [], blocks: [] };
    const lexer = this.lexer;
    const bodyDepth = lexer.depth;
    for (;;) {
      const kind = lexer.kind;
      if (kind === Token.Identifier) {
        this.item(body, depth, bodyDepth, nested);
      } else if (kind === Token.RightBrace && nested) {
        return body;
      } else if (kind === Token.Eof) {
        if (nested) this.report(lexer.start, lexer.start, "syntax error: missing '}'");
        return body;
      } else {
        this.fail(this.unexpected());
        this.skipToken();
        this.recover(bodyDepth, nested);
      }
    }
  }

  private item(body: HclBody, depth: number, bodyDepth: number, nested: boolean): void {
    const lexer = this.lexer;
    const start = lexer.start;
    const nameEnd = lexer.end;
    this.advance();
    if (lexer.kind === Token.Assign) {
      this.attribute(body, start, nameEnd, bodyDepth, nested);
      return;
    }
    try {
      this.block(body, start, nameEnd, depth);
    } catch (error) {
      this.fail(error, true);
      this.recover(bodyDepth, nested);
    }
  }

  /** `name = expr`; a broken expression keeps the attribute, as `unsupported`, so that its name is still known. */
  private attribute(body: HclBody, start: number, nameEnd: number, bodyDepth: number, nested: boolean): void {
    const lexer = this.lexer;
    this.advance();
    const exprStart = lexer.start;
    let expr: Expr;
    let end: number;
    try {
      expr = this.expression();
      end = this.prevEnd;
    } catch (error) {
      const failure = this.fail(error, true);
      end = Math.max(exprStart, failure.start);
      expr = { kind: 'unsupported', text: failure.message, range: this.range(exprStart, end) };
      this.recover(bodyDepth, nested);
    }
    if (!this.building) return;
    const name = this.piece(start, nameEnd);
    this.addAttribute(body, { name, expr, range: this.range(start, end), nameRange: this.range(start, nameEnd) });
  }

  /** HCL rejects an attribute defined twice in one body: both stay in the body, the second is reported. */
  private addAttribute(body: HclBody, attribute: HclAttribute): void {
    const earlier = body.attributes.find((other) => other.name === attribute.name);
    body.attributes.push(attribute);
    if (!earlier) return;
    const message = `attribute "${attribute.name}" is already defined on line ${earlier.range.start.line + 1}`;
    this.errors.push({ range: plainRange(attribute.nameRange), message });
  }

  /** A block after its type: labels, then the body, kept or only checked as `keepBody` says. */
  private block(body: HclBody, start: number, typeEnd: number, depth: number): void {
    const lexer = this.lexer;
    const labels: string[] = [];
    const labelRanges: Range[] = [];
    let headerEnd = typeEnd;
    for (;;) {
      const labelStart = lexer.start;
      if (lexer.kind === Token.Identifier) labels.push(this.piece(labelStart, lexer.end));
      else if (lexer.kind === Token.Quote) labels.push(this.label());
      else break;
      headerEnd = lexer.end;
      labelRanges.push(this.range(labelStart, headerEnd));
      this.advance();
    }
    if (lexer.kind !== Token.LeftBrace) throw this.expected("'{'");
    const type = this.piece(start, typeEnd);
    const keep = this.building && this.keepBody(type, labels, depth);
    this.advance();
    const building = this.building;
    const outerFound = this.found;
    if (building && !keep && this.watchRoots) this.found = [];
    const found = this.found;
    this.building = keep;
    let inner: HclBody;
    try {
      inner = this.body(depth + 1, true);
    } finally {
      this.building = building;
      this.found = outerFound;
    }
    let end = lexer.start;
    if (this.at(Token.RightBrace)) {
      end = lexer.end;
      this.advance();
    }
    if (!building) return;
    body.blocks.push({
      type,
      labels,
      range: this.range(start, end),
      headerRange: this.range(start, headerEnd),
      labelRanges,
      body: keep ? inner : undefined,
      ...(found !== outerFound && found?.length ? { references: found } : {}),
    });
  }

  /** A quoted label: a plain string (`${` is text there), decoded. The lexer stays on its closing quote. */
  private label(): string {
    const lexer = this.lexer;
    const open = lexer.start;
    const from = lexer.end;
    for (;;) {
      lexer.quotedPart(false);
      if (this.at(Token.TemplateEnd)) return this.building ? decodeQuoted(this.piece(from, lexer.start)) : '';
      if (this.at(Token.Eof)) throw new SyntaxFailure(open, lexer.start, 'syntax error: missing closing quote');
      this.fail(this.unexpected());
    }
  }

  /** A file that is one object (JSON-like `.tfvars`): the grammar accepts it, the document has no body. */
  private objectFile(): void {
    this.building = false;
    try {
      this.primary();
      if (this.lexer.kind !== Token.Eof) throw this.unexpected();
    } catch (error) {
      this.fail(error);
    }
  }

  // ---- expressions ----------------------------------------------------------------------------

  /**
   * A conditional or an operation. `a ? b : c ? d : e` groups to the right, as HCL (and so
   * Terraform) reads it; the tree-sitter grammar groups it to the left, which is wrong.
   */
  private expression(): Expr {
    const start = this.lexer.start;
    const condition = this.binary(1);
    if (this.lexer.kind !== Token.Question) return condition;
    this.advance();
    const then = this.expression();
    this.expect(Token.Colon, "':'");
    const otherwise = this.expression();
    return { kind: 'conditional', condition, then, else: otherwise, range: this.range(start, this.prevEnd) };
  }

  /**
   * Precedence climbing over the binary operators, all left-associative. A chain of thousands of
   * terms (`a + b + …`) is read in a loop but makes a tree as deep as it is long, which the evaluator
   * walks recursively: past `MAX_EXPRESSION_DEPTH` terms, what was read so far becomes one unknown.
   */
  private binary(minPrecedence: number): Expr {
    const lexer = this.lexer;
    const start = lexer.start;
    let left = this.unary();
    let depth = 1;
    for (;;) {
      if (lexer.kind === Token.Heredoc || lexer.kind === Token.Invalid) lexer.lessInsteadOfHeredoc();
      const kind = lexer.kind;
      const precedence = PRECEDENCE[kind];
      if (precedence < minPrecedence) return left;
      this.advance();
      const right = this.binary(precedence + 1);
      const range = this.range(start, this.prevEnd);
      depth++;
      left = depth < MAX_EXPRESSION_DEPTH ? { kind: 'binary', op: OPERATOR[kind], left, right, range } : tooDeep(range);
      if (depth >= MAX_EXPRESSION_DEPTH) depth = 1;
    }
  }

  private unary(): Expr {
    const lexer = this.lexer;
    const kind = lexer.kind;
    if (kind !== Token.Minus && kind !== Token.Not) return this.postfix();
    const start = lexer.start;
    this.advance();
    const operand = this.unary();
    return { kind: 'unary', op: kind === Token.Minus ? '-' : '!', operand, range: this.range(start, this.prevEnd) };
  }

  /**
   * A term and its steps (`.a`, `[k]`, `.0`, `[*]`, `.*`). Each step's range starts at the term,
   * parentheses included (`(a).b`), while a parenthesised term alone keeps its inner range.
   */
  private postfix(): Expr {
    const lexer = this.lexer;
    if (!this.building && this.found && lexer.kind === Token.Identifier && this.isWatched(lexer.start, lexer.end))
      return this.watchedExpression();
    const start = lexer.start;
    let expr = this.primary();
    for (;;) {
      const kind = lexer.kind;
      if (kind === Token.Dot || kind === Token.LeftBracket) {
        const step = this.step();
        expr = this.applyStep(expr, step, this.range(start, this.prevEnd));
      } else if (kind === Token.FullSplat || kind === Token.AttrSplat) {
        expr = this.splat(expr, start);
      } else {
        return expr;
      }
    }
  }

  private isWatched(start: number, end: number): boolean {
    // Most identifiers of a resource are resource types and functions: a length and a first character test first.
    return (
      end - start <= MAX_WATCHED_LENGTH &&
      this.watchFirst![this.text.charCodeAt(start)] === 1 &&
      this.watchRoots!.has(this.text.slice(start, end))
    );
  }

  /** A watched expression in a skipped body, built and kept; the skip goes on after it. */
  private watchedExpression(): Expr {
    const found = this.found!;
    this.building = true;
    this.watching = true;
    try {
      found.push(this.postfix());
    } finally {
      this.building = false;
      this.watching = false;
    }
    return UNUSED;
  }

  /** `.name`, `.0` or `[expr]`, the lexer on its first token. */
  private step(): TraversalStep {
    const lexer = this.lexer;
    if (lexer.kind === Token.LeftBracket) {
      this.advance();
      const key = this.expression();
      this.expect(Token.RightBracket, "']'");
      return { kind: 'index', key };
    }
    const dot = lexer.start;
    this.prevEnd = lexer.end;
    lexer.nextAfterDot();
    const { start, end } = lexer;
    if (lexer.kind === Token.Identifier) {
      this.advance();
      // The name is the text after the dot, as the tree-sitter path reads it (comments included).
      const name = start === dot + 1 ? this.piece(start, end) : this.piece(dot + 1, end).trim();
      return { kind: 'attr', name, range: this.range(start, end) };
    }
    if (lexer.kind === Token.Number) {
      this.advance();
      const digits = start === dot + 1 ? this.piece(start, end) : this.piece(dot, end).replace(/^\s*\.\s*/, '');
      return { kind: 'index', key: { kind: 'literal', value: Number(digits), range: this.range(dot, end) } };
    }
    throw this.expected('attribute name');
  }

  /** Extends a traversal or splat (their steps apply to the root); wraps anything else. */
  private applyStep(target: Expr, step: TraversalStep, range: Range): Expr {
    if (target.kind === 'traversal' || target.kind === 'splat') {
      // The target was built here and is referenced nowhere else: extend it in place.
      target.steps.push(step);
      target.range = range;
      return target;
    }
    return wrapStep(target, step, range);
  }

  /**
   * `[*]` takes every following `.a`/`[k]` step for each element; the legacy `.*` only the
   * attribute steps up to the first index, the rest applying to the whole result.
   */
  private splat(target: Expr, start: number): Expr {
    const lexer = this.lexer;
    const attrOnly = lexer.kind === Token.AttrSplat;
    this.advance();
    const steps: TraversalStep[] = [{ kind: 'splat' }];
    let after: TraversalStep[] | undefined;
    while (lexer.kind === Token.Dot || lexer.kind === Token.LeftBracket) {
      const step = this.step();
      if (attrOnly && !after && step.kind === 'index') after = [];
      (after ?? steps).push(step);
    }
    const range = this.range(start, this.prevEnd);
    let expr: Expr;
    if (target.kind === 'traversal' || target.kind === 'splat') {
      target.steps.push(...steps);
      target.range = range;
      expr = target;
    } else {
      expr = { kind: 'splat', target, steps: steps.slice(1), range };
    }
    for (const step of after ?? []) expr = wrapStep(expr, step, range);
    return expr;
  }

  private primary(): Expr {
    const lexer = this.lexer;
    switch (lexer.kind) {
      case Token.Identifier:
        return this.identifierTerm();
      case Token.Number:
        return this.number();
      case Token.Quote:
        return this.quoted();
      case Token.Heredoc:
        return this.heredoc();
      case Token.LeftBracket:
        return this.tuple();
      case Token.LeftBrace:
        return this.object();
      case Token.LeftParen: {
        this.advance();
        const inner = this.expression();
        this.expect(Token.RightParen, "')'");
        return inner;
      }
      default:
        throw this.expected('expression');
    }
  }

  private number(): Expr {
    const lexer = this.lexer;
    const text = this.text.slice(lexer.start, lexer.end);
    const range = this.range(lexer.start, lexer.end);
    this.advance();
    const value = numberFromText(text);
    if (Number.isNaN(value)) return { kind: 'unsupported', text: `not a number: ${text}`, range };
    return { kind: 'literal', value, range };
  }

  /** `true`/`false`/`null`, a call `f(…)` or a variable. */
  private identifierTerm(): Expr {
    const lexer = this.lexer;
    const start = lexer.start;
    const end = lexer.end;
    const name = this.piece(start, end);
    this.advance();
    if (name === 'true' || name === 'false')
      return { kind: 'literal', value: name === 'true', range: this.range(start, end) };
    if (name === 'null') return { kind: 'literal', value: null, range: this.range(start, end) };
    if (lexer.kind === Token.LeftParen) return this.call(name, start);
    return { kind: 'traversal', root: name, steps: [], range: this.range(start, end) };
  }

  private call(name: string, start: number): Expr {
    const lexer = this.lexer;
    this.advance();
    const args: Expr[] = [];
    let expandFinal = false;
    while (lexer.kind !== Token.RightParen && lexer.kind !== Token.Eof) {
      args.push(this.expression());
      if (lexer.kind === Token.Ellipsis) {
        expandFinal = true;
        this.advance();
        break;
      }
      if (lexer.kind !== Token.Comma) break;
      this.advance();
    }
    this.expect(Token.RightParen, "')'");
    return { kind: 'call', name, args, expandFinal, range: this.range(start, this.prevEnd) };
  }

  private tuple(): Expr {
    const lexer = this.lexer;
    const start = lexer.start;
    this.advance();
    if (this.atKeyword('for')) return this.forExpression(start, 'tuple');
    const items: Expr[] = [];
    while (lexer.kind !== Token.RightBracket && lexer.kind !== Token.Eof) {
      items.push(this.expression());
      if (lexer.kind !== Token.Comma) break;
      this.advance();
    }
    this.expect(Token.RightBracket, "']'");
    return tupleExpr(items, this.range(start, this.prevEnd));
  }

  /** `{ k = v, k: v }`: commas are optional between items, as in the grammar. */
  private object(): Expr {
    const lexer = this.lexer;
    const start = lexer.start;
    this.advance();
    if (this.atKeyword('for')) return this.forExpression(start, 'object');
    const items: { key: Expr; value: Expr }[] = [];
    while (lexer.kind !== Token.RightBrace && lexer.kind !== Token.Eof) {
      const key = this.objectKey();
      if (lexer.kind !== Token.Assign && lexer.kind !== Token.Colon) throw this.expected("'='");
      this.advance();
      items.push({ key, value: this.expression() });
      if (this.at(Token.Comma)) this.advance();
    }
    this.expect(Token.RightBrace, "'}'");
    return { kind: 'object', items, range: this.range(start, this.prevEnd) };
  }

  /** A bare identifier key is the literal name; anything else (`(k)`, `"${k}"`, `a.b`) is evaluated. */
  private objectKey(): Expr {
    const lexer = this.lexer;
    if (lexer.kind !== Token.Identifier) return this.expression();
    const start = lexer.start;
    const end = lexer.end;
    const key = this.expression();
    if (this.prevEnd !== end || key.kind !== 'traversal') return key;
    return { kind: 'literal', value: this.piece(start, end), range: key.range };
  }

  /** `[for k, v in coll : value if cond]` or `{for k, v in coll : key => value... if cond}`, after the bracket. */
  private forExpression(start: number, result: 'tuple' | 'object'): Expr {
    const lexer = this.lexer;
    this.advance();
    const names = this.forNames();
    const collection = this.expression();
    this.expect(Token.Colon, "':'");
    let key: Expr | undefined;
    if (result === 'object') {
      key = this.expression();
      this.expect(Token.Arrow, "'=>'");
    }
    const value = this.expression();
    let group = false;
    if (result === 'object' && lexer.kind === Token.Ellipsis) {
      group = true;
      this.advance();
    }
    let condition: Expr | undefined;
    if (this.atKeyword('if')) {
      this.advance();
      condition = this.expression();
    }
    if (result === 'object') this.expect(Token.RightBrace, "'}'");
    else this.expect(Token.RightBracket, "']'");
    return {
      kind: 'for',
      result,
      keyVar: names.keyVar,
      valueVar: names.valueVar,
      collection,
      key,
      value,
      condition,
      group,
      range: this.range(start, this.prevEnd),
    };
  }

  /** `k, v in` or `v in` after `for`. */
  private forNames(): { keyVar: string | undefined; valueVar: string } {
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

  private identifier(): string {
    const lexer = this.lexer;
    if (lexer.kind !== Token.Identifier) throw this.expected('identifier');
    const name = this.piece(lexer.start, lexer.end);
    this.advance();
    return name;
  }

  /** Keywords are identifiers with a meaning in one place: `for` after a bracket, `in`, `if`. */
  private atKeyword(keyword: string): boolean {
    const lexer = this.lexer;
    return (
      lexer.kind === Token.Identifier &&
      lexer.end - lexer.start === keyword.length &&
      this.text.startsWith(keyword, lexer.start)
    );
  }

  // ---- templates ------------------------------------------------------------------------------

  /** `"…"`: a literal when it has no interpolation or directive, else a template. */
  private quoted(): Expr {
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
  private heredoc(): Expr {
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

  // ---- tokens and errors ----------------------------------------------------------------------

  /** The current token's kind, read through a call: TypeScript would keep narrowing `lexer.kind` across calls that move it. */
  private at(kind: TokenKind): boolean {
    return this.lexer.kind === kind;
  }

  private advance(): void {
    this.prevEnd = this.lexer.end;
    this.lexer.next();
  }

  private expect(kind: TokenKind, what: string): void {
    if (this.lexer.kind !== kind) throw this.expected(what);
    this.advance();
  }

  /** The `}` closing a template part: left current, since the template scan goes on after it. */
  private expectClosingBrace(): void {
    if (this.lexer.kind !== Token.RightBrace) throw this.expected("'}'");
  }

  /**
   * Something else than `what` is here: "missing" before a line break or the end, else
   * "unexpected". A missing bracket is reported where it would be inserted (before the next
   * token), anything else at the end of the line that lacks it, as the tree-sitter path did.
   */
  private expected(what: string): SyntaxFailure {
    const lexer = this.lexer;
    if (lexer.kind !== Token.Eof && !lexer.newlineBefore) return this.unexpected();
    // A value missing before a body's closing brace: `b =` is the line to show; other tokens are the odd ones.
    if (what === 'expression' && lexer.kind !== Token.Eof && lexer.kind !== Token.RightBrace) return this.unexpected();
    const at = BRACKETS.has(what) ? lexer.start : this.prevEnd;
    return new SyntaxFailure(at, at, `syntax error: missing ${what}`);
  }

  /** The current token is out of place; a string is shown whole when it ends on its line. */
  private unexpected(): SyntaxFailure {
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
  private fail(error: unknown, overflow = false): SyntaxFailure {
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

  private report(start: number, end: number, message: string): void {
    const range = { start: this.position(start), end: this.position(end) };
    const last = this.errors[this.errors.length - 1];
    // Nested constructs left open at the end all miss their brace at the same spot: once is enough.
    if (last && last.message === message && sameRange(last.range, range)) return;
    this.errors.push({ range, message });
  }

  /** What HCL rejects beyond syntax; like the tree-sitter path, only in the bodies that are built. */
  private problem(start: number, end: number, message: string): void {
    // Not deduplicated: the tree-sitter path reports a split template once per literal that has a line break.
    if (this.building && !this.watching)
      this.errors.push({ range: { start: this.position(start), end: this.position(end) }, message });
  }

  /**
   * After a syntax error, skips to where the body can go on: an identifier first on its line at
   * the body's depth, the body's closing brace, or the end of the text.
   */
  private recover(bodyDepth: number, nested: boolean): void {
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
  private skipToken(): void {
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

  // ---- positions ------------------------------------------------------------------------------

  /** The text from `start` to `end`, for the document to keep (see `keptText`). */
  private piece(start: number, end: number): string {
    return keptText(this.text, start, end);
  }

  private range(start: number, end: number): Range {
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

/** Each watch set's first characters (see `HclSyntaxParser.watchFirst`), made once per set. */
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

/** The longest name a caller watches for (`filebase64sha512`). */
const MAX_WATCHED_LENGTH = 16;

/** What a skipped body's expressions are built as: nothing reads them. */
const UNUSED: Expr = Object.freeze({ kind: 'unsupported', text: '', range: NO_RANGE }) as Expr;

function noProblem(): void {}

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

/** A step applied to the whole of `target`, whatever it is. */
function wrapStep(target: Expr, step: TraversalStep, range: Range): Expr {
  if (step.kind === 'attr') return { kind: 'getattr', target, name: step.name, range };
  if (step.kind === 'index') return { kind: 'index', target, key: step.key, range };
  return target;
}

function byStart(a: HclSyntaxError, b: HclSyntaxError): number {
  return a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character;
}
