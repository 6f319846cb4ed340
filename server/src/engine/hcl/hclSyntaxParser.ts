import { type Expr, MAX_EXPRESSION_DEPTH, type TraversalStep, tooDeep, tupleExpr } from './expression';
import type { HclDocument, ParseOptions } from './hclBody';
import { HclBodyParser } from './hclBodyParser';
import { numberFromText } from './hclLiterals';
import { OPERATOR, PRECEDENCE } from './hclOperators';
import { Token as LexerToken } from './hclToken';
import { UNUSED } from './hclTokenReader';
import type { Position, Range } from './position';

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

/** The token kinds, read once: an import read through a getter (as some module loaders make them) on every comparison shows in profiles. */
const Token = LexerToken;

/** The parser: its expressions here; its bodies, templates and tokens in the classes it extends. */
class HclSyntaxParser extends HclBodyParser {
  // ---- expressions ----------------------------------------------------------------------------

  /**
   * A conditional or an operation. `a ? b : c ? d : e` groups to the right, as HCL (and so
   * Terraform) reads it; the tree-sitter grammar groups it to the left, which is wrong.
   */
  protected expression(): Expr {
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

  protected primary(): Expr {
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
}

/** The longest name a caller watches for (`filebase64sha512`). */
const MAX_WATCHED_LENGTH = 16;

/** A step applied to the whole of `target`, whatever it is. */
function wrapStep(target: Expr, step: TraversalStep, range: Range): Expr {
  if (step.kind === 'attr') return { kind: 'getattr', target, name: step.name, range };
  if (step.kind === 'index') return { kind: 'index', target, key: step.key, range };
  return target;
}
