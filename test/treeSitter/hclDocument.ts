import type { Node, Parser, TreeCursor } from 'web-tree-sitter';
import {
  decodeQuoted,
  type Expr,
  expressionFromNode,
  findLine,
  type HclAttribute,
  type HclBlock,
  type HclBody,
  type HclDocument,
  type HclSyntaxError,
  lineStarts,
  type ParseOptions,
  type Position,
  plainRange,
  type Range,
  type SourceText,
  snapshotSyntax,
  TextRange,
} from '../../server/src/engine/hcl';
import { withTree } from './hclParser';

/** Parses one HCL file and converts it to our document model; the tree-sitter tree is freed before returning. */
export function parseHclDocument(parser: Parser, text: string, options: ParseOptions = {}): HclDocument {
  return parseWithSource(parser, sourceText(text), options);
}

function parseWithSource(parser: Parser, text: SourceText, options: ParseOptions): HclDocument {
  const source: SourceText = { text: text.text, range: text.range, problems: [] };
  return withTree(parser, source.text, (tree) => {
    const cursor = tree.walk();
    try {
      const body = readFile(cursor, { source, keepBody: options.keepBody ?? keepAll });
      const errors: HclSyntaxError[] = [];
      if (tree.rootNode.hasError) collectErrors(tree.rootNode, source, errors);
      errors.push(...(source.problems ?? []).map((problem) => ({ ...problem, range: plainRange(problem.range) })));
      return { body, errors: errors.sort(byStart) };
    } finally {
      cursor.delete();
    }
  });
}

/**
 * Parses a single expression (e.g. a `-backend-config` value or a test case). Ranges are relative
 * to `text`. Syntax errors make the result `unsupported`.
 */
export function parseHclExpression(parser: Parser, text: string): Expr {
  const prefix = '_ = ';
  const wrapped = sourceText(`${prefix}${text}\n`);
  const shift = (position: Position): Position =>
    position.line === 0 ? { line: 0, character: position.character - prefix.length } : position;
  const source: SourceText = {
    text: wrapped.text,
    range: (start, end) => {
      const range = wrapped.range(start, end);
      const from = shift(range.start);
      const to = shift(range.end);
      return new TextRange(from.line, from.character, to.line, to.character);
    },
  };
  const document = parseWithSource(parser, source, {});
  const attribute = document.body.attributes[0];
  if (document.errors.length > 0 || !attribute || document.body.attributes.length > 1) {
    const whole = rangeOfText(text);
    return { kind: 'unsupported', text: `syntax error: ${text}`, range: whole };
  }
  return attribute.expr;
}

function byStart(a: HclSyntaxError, b: HclSyntaxError): number {
  return a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character;
}

function keepAll(): boolean {
  return true;
}

interface Context {
  source: SourceText;
  keepBody: (type: string, labels: string[], depth: number) => boolean;
}

function readFile(cursor: TreeCursor, context: Context): HclBody {
  const empty: HclBody = { attributes: [], blocks: [] };
  if (!cursor.gotoFirstChild()) return empty;
  let body = empty;
  do {
    if (cursor.nodeType === 'body') body = readBody(cursor, context, 0);
  } while (cursor.gotoNextSibling());
  cursor.gotoParent();
  return body;
}

function readBody(cursor: TreeCursor, context: Context, depth: number): HclBody {
  const body: HclBody = { attributes: [], blocks: [] };
  if (!cursor.gotoFirstChild()) return body;
  do {
    const type = cursor.nodeType;
    if (type === 'attribute') {
      const attribute = readAttribute(cursor, context);
      if (attribute) addAttribute(body, attribute, context);
    } else if (type === 'block') {
      const block = readBlock(cursor, context, depth);
      if (block) body.blocks.push(block);
    }
  } while (cursor.gotoNextSibling());
  cursor.gotoParent();
  return body;
}

/** HCL rejects an attribute defined twice in one body: both stay in the body, the second is reported. */
function addAttribute(body: HclBody, attribute: HclAttribute, context: Context): void {
  const earlier = body.attributes.find((other) => other.name === attribute.name);
  body.attributes.push(attribute);
  if (!earlier) return;
  const message = `attribute "${attribute.name}" is already defined on line ${earlier.range.start.line + 1}`;
  context.source.problems?.push({ range: attribute.nameRange, message });
}

/** The name is read from the text (an identifier at the attribute's start), saving WASM calls. */
function readAttribute(cursor: TreeCursor, context: Context): HclAttribute | undefined {
  const { source } = context;
  const start = cursor.startIndex;
  const end = cursor.endIndex;
  IDENTIFIER_AT.lastIndex = start;
  if (!IDENTIFIER_AT.test(source.text)) return undefined;
  const nameEnd = IDENTIFIER_AT.lastIndex;
  let expr: Expr | undefined;
  if (!cursor.gotoFirstChild()) return undefined;
  while (cursor.gotoNextSibling()) {
    if (cursor.nodeType === 'expression') {
      expr = expressionFromNode(snapshotSyntax(cursor, source.text), source);
      break;
    }
  }
  cursor.gotoParent();
  if (!expr) return undefined;
  return {
    name: source.text.slice(start, nameEnd),
    expr,
    range: source.range(start, end),
    nameRange: source.range(start, nameEnd),
  };
}

const IDENTIFIER_AT = /[\p{ID_Start}_](?:[\p{ID_Continue}-]|::)*/uy;

function readBlock(cursor: TreeCursor, context: Context, depth: number): HclBlock | undefined {
  const { source } = context;
  const start = cursor.startIndex;
  const end = cursor.endIndex;
  let type: string | undefined;
  let headerEnd = start;
  const labels: string[] = [];
  const labelRanges: Range[] = [];
  let body: HclBody | undefined;
  let keep: boolean | undefined;
  if (!cursor.gotoFirstChild()) return undefined;
  do {
    const nodeType = cursor.nodeType;
    if (nodeType === 'identifier' || nodeType === 'string_lit') {
      if (keep !== undefined) continue;
      const labelStart = cursor.startIndex;
      const labelEnd = cursor.endIndex;
      const text = source.text.slice(labelStart, labelEnd);
      headerEnd = labelEnd;
      if (type === undefined) {
        type = text;
        continue;
      }
      labels.push(nodeType === 'string_lit' ? unquote(text) : text);
      labelRanges.push(source.range(labelStart, labelEnd));
    } else if (nodeType === 'block_start') {
      keep = type !== undefined && context.keepBody(type, labels, depth);
      if (keep) body = { attributes: [], blocks: [] };
    } else if (nodeType === 'body' && keep) {
      body = readBody(cursor, context, depth + 1);
    }
  } while (cursor.gotoNextSibling());
  cursor.gotoParent();
  if (type === undefined) return undefined;
  return {
    type,
    labels,
    range: source.range(start, end),
    headerRange: source.range(start, headerEnd),
    labelRanges,
    body,
  };
}

function unquote(text: string): string {
  const inner = text.length >= 2 && text.endsWith('"') ? text.slice(1, -1) : text.slice(1);
  return decodeQuoted(inner);
}

// ---- syntax errors ------------------------------------------------------------------------------

const MISSING_NAMES: Readonly<Record<string, string>> = {
  quoted_template_end: 'closing quote',
  heredoc_identifier: 'heredoc end marker',
  block_end: "'}'",
  object_end: "'}'",
  tuple_end: "']'",
  template_interpolation_end: "'}' closing the interpolation",
  template_directive_end: "'}' closing the directive",
  identifier: 'expression',
};

const UNTERMINATED: ReadonlySet<string> = new Set(['quoted_template_end', 'heredoc_identifier']);

/** Walks only into subtrees that contain an error (tree-sitter records that per node). */
function collectErrors(node: Node, source: SourceText, errors: HclSyntaxError[]): void {
  if (node.isMissing) {
    const what = MISSING_NAMES[node.type] ?? `'${node.type}'`;
    // An unterminated string or heredoc is reported from where it starts, not where the file ends.
    const opened = UNTERMINATED.has(node.type) ? (node.parent?.startIndex ?? node.startIndex) : node.startIndex;
    errors.push({ range: plainRange(source.range(opened, node.endIndex)), message: `syntax error: missing ${what}` });
    return;
  }
  if (node.type === 'ERROR') {
    const text = source.text.slice(node.startIndex, node.endIndex);
    const snippet = text.length > 30 ? `${text.slice(0, 30)}…` : text;
    errors.push({
      range: plainRange(source.range(node.startIndex, node.endIndex)),
      message: `syntax error: unexpected ${JSON.stringify(snippet)}`,
    });
    return;
  }
  for (const child of node.children) {
    if (child.hasError) collectErrors(child, source, errors);
  }
}

// ---- positions ----------------------------------------------------------------------------------

/**
 * Offsets to LSP positions. Offsets are UTF-16 (web-tree-sitter parses JS strings as UTF-16), so a
 * character is the offset minus the line start, with no byte-to-UTF-16 conversion needed. Line
 * breaks are `\n`, `\r\n` and a lone `\r`, as LSP counts them.
 */
export function sourceText(text: string): SourceText {
  const starts = lineStarts(text);
  let last = 0;
  const position = (offset: number): Position => {
    // Offsets arrive mostly in order, so the last line found is the best first guess.
    if (!(starts[last] <= offset && (last + 1 >= starts.length || offset < starts[last + 1]))) {
      last = findLine(starts, offset);
    }
    return { line: last, character: offset - starts[last] };
  };
  // As the parser makes them: syntax errors' ranges plain (`plainRange`), the rest one object each.
  return {
    text,
    range: (start, end) => {
      const from = position(start);
      const to = position(end);
      return new TextRange(from.line, from.character, to.line, to.character);
    },
  };
}

function rangeOfText(text: string): Range {
  const lines = text.split(/\r\n|\r|\n/);
  return {
    start: { line: 0, character: 0 },
    end: { line: lines.length - 1, character: lines[lines.length - 1].length },
  };
}
