import { type Expr, MAX_EXPRESSION_DEPTH, tooDeep, tupleExpr } from './expression';
import type { HclAttribute, HclBlock, HclBody, HclDocument, ParseOptions } from './hclBody';
import { parseHcl } from './hclSyntaxParser';
import { lineStarts, positionAt } from './lineIndex';
import type { Range } from './position';

/**
 * A `.tf.json` or `.tfvars.json` file in the shape of an HCL document. Terraform's JSON syntax
 * nests blocks as objects keyed by type and labels; strings are templates (`"${local.env}"`).
 * JSON.parse gives no positions, so ranges point at the block's or attribute's name, found in
 * document order — enough to place a diagnostic or a jump on the right line. `keepBody` is the caller's, as for
 * `parseHcl`: which blocks to convert is the analysis's business, not the syntax's.
 */
export function tfJsonDocument(text: string, { keepBody }: Required<Pick<ParseOptions, 'keepBody'>>): HclDocument {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { body: { attributes: [], blocks: [] }, errors: [{ range: pointRange(text, 0), message }] };
  }
  if (!isRecord(json))
    return {
      body: { attributes: [], blocks: [] },
      errors: [{ range: pointRange(text, 0), message: 'the file is not a JSON object' }],
    };
  const locate = locator(text);
  const converter = new JsonConverter(locate, keepBody);
  const body: HclBody = { attributes: [], blocks: [] };
  for (const [key, value] of Object.entries(json)) {
    const labelCount = LABELS[key];
    if (labelCount === undefined) body.attributes.push(converter.attribute(key, value));
    // One at a time: a generated file may hold more blocks than a call takes arguments.
    else for (const block of converter.blocks(key, value, labelCount)) body.blocks.push(block);
  }
  return { body, errors: [] };
}

/** How many labels each top-level block type has in Terraform's JSON syntax. */
const LABELS: Record<string, number> = {
  terraform: 0,
  locals: 0,
  variable: 1,
  module: 1,
  output: 1,
  provider: 1,
  data: 2,
  resource: 2,
  moved: 0,
  import: 0,
  check: 1,
  removed: 0,
};

/** Nested block types inside `terraform` whose bodies the analysis reads. */
const TERRAFORM_BLOCKS: Record<string, number> = { backend: 1, cloud: 0 };

class JsonConverter {
  constructor(
    private readonly locate: (needle: string) => Range,
    private readonly keepBody: Required<ParseOptions>['keepBody'],
  ) {}

  /**
   * The blocks of one type; `depth` 0 for top-level blocks. Blocks the analysis does not read are
   * dropped as soon as their first label decides it: generated files hold thousands of resources.
   */
  blocks(type: string, value: unknown, labelCount: number, depth = 0, labels: string[] = []): HclBlock[] {
    if (Array.isArray(value)) return value.flatMap((item) => this.blocks(type, item, labelCount, depth, labels));
    if (!isRecord(value)) return [];
    if (labels.length < labelCount) {
      return Object.entries(value).flatMap(([label, inner]) =>
        this.keepBody(type, [...labels, label], depth)
          ? this.blocks(type, inner, labelCount, depth, [...labels, label])
          : [],
      );
    }
    if (!this.keepBody(type, labels, depth)) return [];
    const range = this.locate(labels.length > 0 ? labels[labels.length - 1]! : type);
    return [
      { type, labels, range, headerRange: range, labelRanges: labels.map(() => range), body: this.body(type, value) },
    ];
  }

  private body(type: string, value: Record<string, unknown>): HclBody {
    const body: HclBody = { attributes: [], blocks: [] };
    for (const [key, inner] of Object.entries(value)) {
      const nested = type === 'terraform' ? TERRAFORM_BLOCKS[key] : undefined;
      if (nested !== undefined) body.blocks.push(...this.blocks(key, inner, nested, 1));
      else body.attributes.push(this.attribute(key, inner));
    }
    return body;
  }

  /**
   * The expression is converted when first read: of a generated file's thousands of locals, the
   * analysis reads the few that its remote-state reads use.
   */
  attribute(name: string, value: unknown): HclAttribute {
    const range = this.locate(name);
    let expr: Expr | undefined;
    const convert = () => {
      expr ??= this.expression(value, range);
      return expr;
    };
    return {
      name,
      get expr() {
        return convert();
      },
      range,
      nameRange: range,
    };
  }

  private expression(value: unknown, range: Range, depth = 0): Expr {
    if (depth >= MAX_EXPRESSION_DEPTH) return tooDeep(range);
    if (typeof value === 'string')
      return value.includes('${') || value.includes('%{')
        ? this.template(value, range)
        : { kind: 'literal', value, range };
    if (typeof value === 'number' || typeof value === 'boolean' || value === null)
      return { kind: 'literal', value, range };
    if (Array.isArray(value))
      return tupleExpr(
        value.map((item) => this.expression(item, range, depth + 1)),
        range,
      );
    if (isRecord(value)) {
      return {
        kind: 'object',
        items: Object.entries(value).map(([key, inner]) => ({
          key: { kind: 'literal', value: key, range },
          value: this.expression(inner, range, depth + 1),
        })),
        range,
      };
    }
    return { kind: 'unsupported', text: String(value), range };
  }

  /** A JSON string with interpolation is an HCL template: parse it as a quoted HCL string. */
  private template(value: string, range: Range): Expr {
    const quoted = `x = "${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}"\n`;
    const parsed = parseHcl(quoted).body.attributes[0];
    return parsed ? withRange(parsed.expr, range) : { kind: 'unsupported', text: value, range };
  }
}

/** The template's ranges point into the synthetic source; the whole expression takes the JSON value's range. */
function withRange(expr: Expr, range: Range): Expr {
  return { ...expr, range };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Finds names in the text in the order the converter asks for them, which is the document's
 * (JSON.parse keeps the order of keys): each search starts where the last one found its name, so
 * a file's names cost one pass over it, not one pass each. A name not found after that point (a
 * key JSON.parse moved, such as `"0"`) is looked for from the start, and the place kept.
 */
function locator(text: string): (needle: string) => Range {
  // Lines are counted as the cursor moves forward; the full line index only for a name found behind it.
  let starts: number[] | undefined;
  let cursor = 0;
  let line = 0;
  let lineStart = 0;
  const crlfOnly = !/\r(?!\n)/.test(text);
  return (needle) => {
    const quoted = JSON.stringify(needle);
    const at = text.indexOf(quoted, cursor);
    if (at < 0 || !crlfOnly) {
      starts ??= lineStarts(text);
      const start = positionAt(starts, Math.max(0, at < 0 ? text.indexOf(quoted) : at));
      if (at >= 0) cursor = at + quoted.length;
      return { start, end: start };
    }
    for (let next = text.indexOf('\n', lineStart); next >= 0 && next < at; next = text.indexOf('\n', next + 1)) {
      line++;
      lineStart = next + 1;
    }
    cursor = at + quoted.length;
    const start = { line, character: at - lineStart };
    return { start, end: start };
  };
}

function pointRange(text: string, offset: number): Range {
  const start = positionAt(lineStarts(text), offset);
  return { start, end: start };
}
