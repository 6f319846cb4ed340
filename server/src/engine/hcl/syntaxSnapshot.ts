import type { TreeCursor } from 'web-tree-sitter';

/**
 * A plain-JS copy of one tree-sitter node and its subtree. Reading a tree-sitter node crosses into
 * WASM on every accessor, so the tree is copied once (only the parts that matter) and converted
 * from the copy. `start`/`end` are UTF-16 offsets into the source string: web-tree-sitter parses
 * JS strings as UTF-16.
 */
export interface SyntaxNode {
  readonly type: string;
  readonly start: number;
  readonly end: number;
  readonly children: readonly SyntaxNode[];
}

/** Node types whose children matter; every other node is a leaf read from its text (fewer WASM calls). */
const CONTAINERS: ReadonlySet<string> = new Set([
  'expression',
  'operation',
  'binary_operation',
  'unary_operation',
  'conditional',
  'function_call',
  'function_arguments',
  'collection_value',
  'tuple',
  'object',
  'object_elem',
  'for_expr',
  'for_tuple_expr',
  'for_object_expr',
  'for_intro',
  'for_cond',
  'template_expr',
  'quoted_template',
  'heredoc_template',
  'template_interpolation',
  'template_directive',
  'template_for',
  'template_for_start',
  'template_for_end',
  'template_if',
  'template_if_intro',
  'template_else_intro',
  'template_if_end',
  'index',
  'new_index',
  'splat',
  'attr_splat',
  'full_splat',
  'ERROR',
]);

/** Nodes that carry nothing the conversion reads: literal chunks are taken from the gaps between parts. */
const DROPPED: ReadonlySet<string> = new Set(['comment', 'template_literal', ',']);

/** Copies the cursor's current node and its subtree; the cursor ends where it started. */
export function snapshotSyntax(cursor: TreeCursor, text: string): SyntaxNode {
  return snapshotCurrent(cursor, cursor.nodeType, text, cursor.startIndex);
}

/** `start` is known when the node is a first child: a node starts where its first child does. */
function snapshotCurrent(cursor: TreeCursor, type: string, text: string, knownStart?: number): SyntaxNode {
  if (POSITIONLESS.has(type)) return { type, start: -1, end: -1, children: NO_CHILDREN };
  const start = knownStart ?? cursor.startIndex;
  const end = leafEnd(type, text, start) ?? cursor.endIndex;
  if (!CONTAINERS.has(type) || !cursor.gotoFirstChild()) return { type, start, end, children: NO_CHILDREN };
  const children: SyntaxNode[] = [];
  let first = true;
  do {
    const childType = cursor.nodeType;
    if (!DROPPED.has(childType)) children.push(snapshotCurrent(cursor, childType, text, first ? start : undefined));
    first = false;
  } while (cursor.gotoNextSibling());
  cursor.gotoParent();
  return { type, start, end, children };
}

const NO_CHILDREN: readonly SyntaxNode[] = [];

export const BINARY_OPERATORS: ReadonlySet<string> = new Set([
  '+',
  '-',
  '*',
  '/',
  '%',
  '==',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  '&&',
  '||',
]);

/** Tokens only their type matters for: reading their positions would cost two WASM calls each. */
const POSITIONLESS: ReadonlySet<string> = new Set([
  ...BINARY_OPERATORS,
  '=',
  ':',
  '?',
  '=>',
  '!',
  '[',
  ']',
  '[*]',
  '.*',
  'for',
  'in',
  'if',
  'else',
  'endif',
  'endfor',
  'ellipsis',
  'strip_marker',
  'tuple_start',
  'tuple_end',
  'object_start',
  'object_end',
  'template_interpolation_start',
  'template_interpolation_end',
  'template_directive_start',
  'template_directive_end',
]);

const IDENTIFIER_AT = /[\p{ID_Start}_](?:[\p{ID_Continue}-]|::)*/uy;
const NUMBER_AT = /0x[0-9a-zA-Z]+|[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|true|false|null/y;

/** The end of an identifier or number leaf, read from the text (cheaper than asking tree-sitter). */
function leafEnd(type: string, text: string, start: number): number | undefined {
  const pattern = type === 'variable_expr' || type === 'identifier' ? IDENTIFIER_AT : undefined;
  const literal = type === 'literal_value' && text.charCodeAt(start) !== 34 ? NUMBER_AT : undefined;
  const regex = pattern ?? literal;
  if (!regex) return undefined;
  regex.lastIndex = start;
  return regex.test(text) ? regex.lastIndex : undefined;
}
