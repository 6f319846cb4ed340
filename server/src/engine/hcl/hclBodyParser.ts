import type { Expr } from './expression';
import type { HclAttribute, HclBody, HclDocument, HclSyntaxError } from './hclBody';
import { decodeQuoted } from './hclLiterals';
import { HclTemplateParser } from './hclTemplateParser';
import { Token as LexerToken } from './hclToken';
import { SyntaxFailure } from './hclTokenReader';
import { plainRange, type Range } from './position';

/** The parser's bodies (`HclSyntaxParser`): a document's attributes and blocks, each block's body kept or only checked. */

/** The token kinds, read once: an import read through a getter (as some module loaders make them) on every comparison shows in profiles. */
const Token = LexerToken;

export abstract class HclBodyParser extends HclTemplateParser {
  /** A term (`HclSyntaxParser`): a file that is one object holds one. */
  protected abstract primary(): Expr;

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
}

function byStart(a: HclSyntaxError, b: HclSyntaxError): number {
  return a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character;
}
