import { type Expr, MAX_EXPRESSION_DEPTH, tooDeep, tupleExpr } from './expression';
import type { HclAttribute, HclBlock, HclBody, HclDocument, ParseOptions } from './hclBody';
import { parseTemplate } from './hclSyntaxParser';
import { type JsonMember, type JsonMembers, JsonSource, type JsonSpan } from './jsonSource';
import { lineStarts, positionAt } from './lineIndex';
import type { Range } from './position';

/**
 * A `.tf.json` or `.tfvars.json` file in the shape of an HCL document. Terraform's JSON syntax
 * nests blocks as objects keyed by type and labels; strings are templates (`"${local.env}"`), each
 * expression in one placed where it is written in the string. `JSON.parse` gives the values; their
 * places are scanned for what is converted (`JsonSource`). A block's range runs from its last label
 * (or its type) to the end of its object, its labels' ranges hold their quotes; an attribute's from its
 * name to the end of its value. `keepBody` is the caller's, as for `parseHcl`: which blocks to convert
 * is the analysis's business, not the syntax's.
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
  const source = new JsonSource(text);
  const converter = new JsonConverter(source, keepBody);
  const body: HclBody = { attributes: [], blocks: [] };
  const entries = Object.entries(json);
  const members = source.members(source.root(), entries.length);
  entries.forEach(([key, value], i) => {
    const at = members.indexOf(key, i);
    const member = { key: members.key(at), value: members.value(at) };
    const labelCount = LABELS[key];
    if (labelCount === undefined) body.attributes.push(converter.attribute(key, value, members, at));
    // One at a time: a generated file may hold more blocks than a call takes arguments.
    else for (const block of converter.blocks(key, value, member, labelCount)) body.blocks.push(block);
  });
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

/** A block's labels so far: their names and their keys' places. */
interface Labels {
  names: string[];
  keys: JsonSpan[];
}

class JsonConverter {
  constructor(
    private readonly source: JsonSource,
    private readonly keepBody: Required<ParseOptions>['keepBody'],
  ) {}

  /**
   * The blocks of one type, `member` the type's key and value; `depth` 0 for top-level blocks. Blocks the
   * analysis does not read are dropped as soon as their first label decides it: generated files hold
   * thousands of resources.
   */
  blocks(
    type: string,
    value: unknown,
    member: JsonMember,
    labelCount: number,
    depth = 0,
    labels: Labels = { names: [], keys: [] },
  ): HclBlock[] {
    if (Array.isArray(value)) {
      const items = this.source.items(member.value);
      return value.flatMap((item, i) =>
        this.blocks(type, item, { key: member.key, value: items[i]! }, labelCount, depth, labels),
      );
    }
    if (!isRecord(value)) return [];
    if (labels.names.length < labelCount) {
      const entries = Object.entries(value);
      const members = this.source.members(member.value, entries.length);
      return entries.flatMap(([label, inner], i) => {
        const names = [...labels.names, label];
        if (!this.keepBody(type, names, depth)) return [];
        const at = members.indexOf(label, i);
        const own = { key: members.key(at), value: members.value(at) };
        return this.blocks(type, inner, own, labelCount, depth, { names, keys: [...labels.keys, own.key] });
      });
    }
    if (!this.keepBody(type, labels.names, depth)) return [];
    return [
      {
        type,
        labels: labels.names,
        range: this.source.range({ start: member.key.start, end: member.value.end }),
        headerRange: this.source.range(member.key),
        labelRanges: labels.keys.map((key) => this.source.range(key)),
        body: this.body(type, value, member.value),
      },
    ];
  }

  private body(type: string, value: Record<string, unknown>, span: JsonSpan): HclBody {
    const body: HclBody = { attributes: [], blocks: [] };
    const entries = Object.entries(value);
    const members = this.source.members(span, entries.length);
    entries.forEach(([key, inner], i) => {
      const at = members.indexOf(key, i);
      const nested = type === 'terraform' ? TERRAFORM_BLOCKS[key] : undefined;
      if (nested !== undefined)
        body.blocks.push(...this.blocks(key, inner, { key: members.key(at), value: members.value(at) }, nested, 1));
      else body.attributes.push(this.attribute(key, inner, members, at));
    });
    return body;
  }

  attribute(name: string, value: unknown, members: JsonMembers, at: number): HclAttribute {
    return new JsonAttribute(name, value, members, at, this);
  }

  expression(value: unknown, span: JsonSpan, depth = 0): Expr {
    const range = this.source.range(span);
    if (depth >= MAX_EXPRESSION_DEPTH) return tooDeep(range);
    if (typeof value === 'string')
      return value.includes('${') || value.includes('%{')
        ? // The template's parts placed in the string, the whole as the string with its quotes.
          { ...parseTemplate(value, this.source.stringPlaces(span)), range }
        : { kind: 'literal', value, range };
    if (typeof value === 'number' || typeof value === 'boolean' || value === null)
      return { kind: 'literal', value, range };
    if (Array.isArray(value)) {
      const items = this.source.items(span);
      return tupleExpr(
        value.map((item, i) => this.expression(item, items[i]!, depth + 1)),
        range,
      );
    }
    if (isRecord(value)) {
      const entries = Object.entries(value);
      const members = this.source.members(span, entries.length);
      return {
        kind: 'object',
        items: entries.map(([key, inner], i) => {
          const at = members.indexOf(key, i);
          return {
            key: { kind: 'literal', value: key, range: this.source.range(members.key(at)) },
            value: this.expression(inner, members.value(at), depth + 1),
          };
        }),
        range,
      };
    }
    return { kind: 'unsupported', text: String(value), range };
  }
}

/**
 * An attribute whose expression is converted when first read, and placed when first asked: of a generated
 * file's thousands of locals, the analysis reads the few that its remote-state reads use. Its getters are
 * the class's, not each attribute's: a file may hold hundreds of thousands.
 */
class JsonAttribute implements HclAttribute {
  private converted: Expr | undefined;

  constructor(
    readonly name: string,
    private readonly value: unknown,
    private readonly members: JsonMembers,
    private readonly at: number,
    private readonly converter: JsonConverter,
  ) {}

  get expr(): Expr {
    this.converted ??= this.transientExpr();
    return this.converted;
  }

  transientExpr(): Expr {
    return this.converted ?? this.converter.expression(this.value, this.members.value(this.at));
  }

  get range(): Range {
    return this.members.source.range({ start: this.members.key(this.at).start, end: this.members.value(this.at).end });
  }

  get nameRange(): Range {
    const key = this.members.key(this.at);
    return this.members.source.range({ start: key.start + 1, end: key.end - 1 });
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pointRange(text: string, offset: number): Range {
  const start = positionAt(lineStarts(text), offset);
  return { start, end: start };
}
