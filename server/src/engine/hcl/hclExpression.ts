import {
  type BinaryExpr,
  type Expr,
  type ForExpr,
  MAX_EXPRESSION_DEPTH,
  type ObjectExpr,
  type TraversalStep,
  tooDeep,
  tupleExpr,
} from './expression';
import type { HclSyntaxError } from './hclBody';
import { decodeQuoted, numberFromText, SPLIT_STRING_MESSAGE } from './hclLiterals';
import type { Range } from './position';
import { BINARY_OPERATORS, type SyntaxNode } from './syntaxSnapshot';
import { type TemplateStyle, type TemplateToken, templateFromTokens } from './templateTokens';

/** The source text of the nodes and how to turn offsets into ranges. */
export interface SourceText {
  readonly text: string;
  range(start: number, end: number): Range;
  /** Where the conversion reports what tree-sitter accepts but HCL rejects (multi-line quoted strings). */
  readonly problems?: HclSyntaxError[];
}

const POSTFIXES: ReadonlySet<string> = new Set(['index', 'get_attr', 'splat']);

/** Converts an `expression` node (or any expression term node) to our `Expr`. */
export function expressionFromNode(node: SyntaxNode, source: SourceText): Expr {
  if (node.type === 'expression') return termSequence(node.children, node, source);
  return termSequence([node], node, source);
}

function textOf(node: SyntaxNode, source: SourceText): string {
  return source.text.slice(node.start, node.end);
}

function unsupported(node: SyntaxNode, source: SourceText, why?: string): Expr {
  const text = textOf(node, source);
  return { kind: 'unsupported', text: why ? `${why}: ${text}` : text, range: source.range(node.start, node.end) };
}

/**
 * A term followed by postfix steps (`.a`, `[k]`, `[*]`): tree-sitter flattens the hidden
 * `_expr_term` rule, so a base node and its postfixes are siblings.
 */
function termSequence(nodes: readonly SyntaxNode[], whole: SyntaxNode, source: SourceText): Expr {
  if (nesting >= MAX_EXPRESSION_DEPTH) return tooDeep(source.range(whole.start, whole.end));
  nesting++;
  try {
    return nestedTermSequence(nodes, whole, source);
  } finally {
    nesting--;
  }
}

/** How deep the conversion is in `termSequence`, every sub-expression's way in (`MAX_EXPRESSION_DEPTH`). */
let nesting = 0;

function nestedTermSequence(nodes: readonly SyntaxNode[], whole: SyntaxNode, source: SourceText): Expr {
  if (nodes.length === 0) return unsupported(whole, source, 'empty expression');
  let next = 1;
  let expr: Expr;
  if (nodes[0].type === '(') {
    expr = nodes[1] ? expressionFromNode(nodes[1], source) : unsupported(whole, source);
    next = 3;
  } else {
    expr = baseTerm(nodes[0], source);
  }
  const start = nodes[0].start;
  for (let i = next; i < nodes.length; i++) {
    const postfix = nodes[i];
    if (!POSTFIXES.has(postfix.type)) return unsupported(whole, source);
    expr = applyPostfix(expr, postfix, source, source.range(start, postfix.end));
  }
  return expr;
}

function baseTerm(node: SyntaxNode, source: SourceText): Expr {
  switch (node.type) {
    case 'literal_value':
      return literalValue(node, source);
    case 'variable_expr':
      return {
        kind: 'traversal',
        root: textOf(node, source).trim(),
        steps: [],
        range: source.range(node.start, node.end),
      };
    case 'template_expr':
      return node.children[0] ? template(node.children[0], source) : unsupported(node, source);
    case 'collection_value':
      return node.children[0] ? collection(node.children[0], source) : unsupported(node, source);
    case 'function_call':
      return functionCall(node, source);
    case 'for_expr':
      return node.children[0] ? forExpression(node.children[0], source) : unsupported(node, source);
    case 'operation':
      return node.children[0] ? operation(node.children[0], source) : unsupported(node, source);
    case 'conditional':
      return conditional(node, source);
    case 'expression':
      return expressionFromNode(node, source);
    default:
      return unsupported(node, source);
  }
}

function literalValue(node: SyntaxNode, source: SourceText): Expr {
  const text = textOf(node, source);
  const range = source.range(node.start, node.end);
  if (text.startsWith('"')) {
    const body = text.length >= 2 && text.endsWith('"') ? text.slice(1, -1) : text.slice(1);
    checkSingleLine(body, node, source);
    return { kind: 'literal', value: decodeQuoted(body), range };
  }
  if (text === 'true' || text === 'false') return { kind: 'literal', value: text === 'true', range };
  if (text === 'null') return { kind: 'literal', value: null, range };
  const value = numberFromText(text);
  if (Number.isNaN(value)) return unsupported(node, source, 'not a number');
  return { kind: 'literal', value, range };
}

function checkSingleLine(raw: string, node: SyntaxNode, source: SourceText): void {
  if (!raw.includes('\n') || !source.problems) return;
  source.problems.push({ range: source.range(node.start, node.end), message: SPLIT_STRING_MESSAGE });
}

function applyPostfix(target: Expr, postfix: SyntaxNode, source: SourceText, range: Range): Expr {
  if (postfix.type === 'splat') return applySplat(target, postfix, source, range);
  const step = traversalStep(postfix, source);
  if (target.kind === 'traversal') return { ...target, steps: [...target.steps, step], range };
  if (target.kind === 'splat') return { ...target, steps: [...target.steps, step], range };
  if (step.kind === 'attr') return { kind: 'getattr', target, name: step.name, range };
  if (step.kind === 'index') return { kind: 'index', target, key: step.key, range };
  return target;
}

/** `.name`, `[expr]` or the legacy `.0` as a traversal step. */
function traversalStep(node: SyntaxNode, source: SourceText): TraversalStep {
  if (node.type === 'get_attr') {
    const text = textOf(node, source);
    // The identifier ends the step; comments may sit between it and the dot.
    const identifier = /[^\s/*.]+\s*$/.exec(text);
    const start = node.start + (identifier?.index ?? 1);
    const range = source.range(start, start + (identifier?.[0].trimEnd().length ?? text.length - 1));
    return { kind: 'attr', name: text.slice(1).trim(), range };
  }
  const inner = node.children[0];
  if (inner?.type === 'new_index' && inner.children[1]) {
    return { kind: 'index', key: expressionFromNode(inner.children[1], source) };
  }
  const digits = textOf(node, source).replace(/^\s*\.\s*/, '');
  return { kind: 'index', key: { kind: 'literal', value: Number(digits), range: source.range(node.start, node.end) } };
}

/** `[*]` applies every following step to each element; the legacy `.*` applies only attribute steps. */
function applySplat(target: Expr, node: SyntaxNode, source: SourceText, range: Range): Expr {
  const splat = node.children[0];
  if (!splat) return unsupported(node, source);
  const steps: TraversalStep[] = [{ kind: 'splat' }];
  let i = 0;
  for (; i < splat.children.length; i++) {
    const child = splat.children[i];
    if (child.type !== 'get_attr' && child.type !== 'index') continue;
    if (splat.type === 'attr_splat' && child.type === 'index') break;
    steps.push(traversalStep(child, source));
  }
  let expr: Expr =
    target.kind === 'traversal' || target.kind === 'splat'
      ? { ...target, steps: [...target.steps, ...steps], range }
      : { kind: 'splat', target, steps: steps.slice(1), range };
  for (; i < splat.children.length; i++) {
    const child = splat.children[i];
    if (child.type === 'get_attr' || child.type === 'index') {
      const step = traversalStep(child, source);
      expr =
        step.kind === 'attr'
          ? { kind: 'getattr', target: expr, name: step.name, range }
          : step.kind === 'index'
            ? { kind: 'index', target: expr, key: step.key, range }
            : expr;
    }
  }
  return expr;
}

function expressionChildren(node: SyntaxNode): SyntaxNode[] {
  return node.children.filter((child) => child.type === 'expression');
}

function functionCall(node: SyntaxNode, source: SourceText): Expr {
  const name = node.children[0] ? textOf(node.children[0], source) : '';
  const argsNode = node.children.find((child) => child.type === 'function_arguments');
  const args = argsNode ? expressionChildren(argsNode).map((arg) => expressionFromNode(arg, source)) : [];
  const expandFinal = argsNode?.children.some((child) => child.type === 'ellipsis') ?? false;
  return { kind: 'call', name, args, expandFinal, range: source.range(node.start, node.end) };
}

function conditional(node: SyntaxNode, source: SourceText): Expr {
  const [condition, then, otherwise] = expressionChildren(node);
  if (!condition || !then || !otherwise) return unsupported(node, source);
  return {
    kind: 'conditional',
    condition: expressionFromNode(condition, source),
    // biome-ignore lint/suspicious/noThenProperty: the Expr contract names the branch `then`
    then: expressionFromNode(then, source),
    else: expressionFromNode(otherwise, source),
    range: source.range(node.start, node.end),
  };
}

function collection(node: SyntaxNode, source: SourceText): Expr {
  const range = source.range(node.start, node.end);
  if (node.type === 'tuple') {
    return tupleExpr(
      expressionChildren(node).map((item) => expressionFromNode(item, source)),
      range,
    );
  }
  if (node.type !== 'object') return unsupported(node, source);
  const items: ObjectExpr['items'] = [];
  for (const elem of node.children) {
    if (elem.type !== 'object_elem') continue;
    const [key, value] = expressionChildren(elem);
    if (key && value) items.push({ key: objectKey(key, source), value: expressionFromNode(value, source) });
  }
  return { kind: 'object', items, range };
}

/** A bare identifier key is the literal name; anything else (`(k)`, `"${k}"`) is evaluated. */
function objectKey(node: SyntaxNode, source: SourceText): Expr {
  if (node.children.length === 1 && node.children[0].type === 'variable_expr') {
    return { kind: 'literal', value: textOf(node, source).trim(), range: source.range(node.start, node.end) };
  }
  return expressionFromNode(node, source);
}

function forExpression(node: SyntaxNode, source: SourceText): Expr {
  const intro = node.children.find((child) => child.type === 'for_intro');
  const cond = node.children.find((child) => child.type === 'for_cond');
  const exprs = expressionChildren(node);
  const introExpr = intro ? expressionChildren(intro)[0] : undefined;
  if (!intro || !introExpr) return unsupported(node, source);
  const names = intro.children.filter((child) => child.type === 'identifier').map((id) => textOf(id, source));
  const isObject = node.type === 'for_object_expr';
  const valueNode = isObject ? exprs[1] : exprs[0];
  if (!valueNode || names.length === 0) return unsupported(node, source);
  const condExpr = cond ? expressionChildren(cond)[0] : undefined;
  const result: ForExpr = {
    kind: 'for',
    result: isObject ? 'object' : 'tuple',
    keyVar: names.length > 1 ? names[0] : undefined,
    valueVar: names[names.length - 1],
    collection: expressionFromNode(introExpr, source),
    key: isObject && exprs[0] ? expressionFromNode(exprs[0], source) : undefined,
    value: expressionFromNode(valueNode, source),
    condition: condExpr ? expressionFromNode(condExpr, source) : undefined,
    group: node.children.some((child) => child.type === 'ellipsis'),
    range: source.range(node.start, node.end),
  };
  return result;
}

function operation(node: SyntaxNode, source: SourceText): Expr {
  const range = source.range(node.start, node.end);
  const children = node.children;
  if (node.type === 'unary_operation') {
    const op = children[0]?.type;
    if (op !== '-' && op !== '!') return unsupported(node, source);
    return { kind: 'unary', op, operand: termSequence(children.slice(1), node, source), range };
  }
  const at = children.findIndex((child, i) => i > 0 && BINARY_OPERATORS.has(child.type));
  if (at < 0) return unsupported(node, source);
  return {
    kind: 'binary',
    op: children[at].type as BinaryExpr['op'],
    left: termSequence(children.slice(0, at), node, source),
    right: termSequence(children.slice(at + 1), node, source),
    range,
  };
}

// ---- templates ----------------------------------------------------------------------------------

function template(node: SyntaxNode, source: SourceText): Expr {
  const range = source.range(node.start, node.end);
  const heredoc = node.type === 'heredoc_template';
  const bounds = heredoc ? heredocContent(node, source) : quotedContent(node);
  if (!bounds) return unsupported(node, source);
  const tokens: TemplateToken[] = [];
  flattenParts(node.children, bounds.from, bounds.to, source, tokens);
  const style: TemplateStyle = !heredoc
    ? 'quoted'
    : textOf(node.children[0], source).trim() === '<<-'
      ? 'indented-heredoc'
      : 'heredoc';
  return templateFromTokens(tokens, style, range, () => {
    source.problems?.push({ range: source.range(node.start, node.end), message: SPLIT_STRING_MESSAGE });
  });
}

function quotedContent(node: SyntaxNode): { from: number; to: number } | undefined {
  const open = node.children[0];
  const close = node.children[node.children.length - 1];
  if (!open || !close || open === close) return undefined;
  return { from: open.end, to: close.type === 'quoted_template_end' ? close.start : close.end };
}

/** The body starts after the opening line and ends at the line of the closing marker. */
function heredocContent(node: SyntaxNode, source: SourceText): { from: number; to: number } | undefined {
  const identifiers = node.children.filter((child) => child.type === 'heredoc_identifier');
  const open = identifiers[0];
  if (!open) return undefined;
  const newline = source.text.indexOf('\n', open.end);
  const from = newline < 0 || newline >= node.end ? node.end : newline + 1;
  const close = identifiers[1];
  if (!close || close.start === close.end) return { from, to: Math.max(from, node.end) };
  const to = source.text.lastIndexOf('\n', close.start - 1) + 1;
  return { from, to: Math.max(from, to) };
}

/** The literal text is whatever lies between structural parts (tree-sitter's literal nodes skip whitespace). */
function flattenParts(
  children: readonly SyntaxNode[],
  from: number,
  to: number,
  source: SourceText,
  tokens: TemplateToken[],
): void {
  let at = from;
  for (const child of children) {
    if (child.start < from || child.end > to) continue;
    if (
      child.type !== 'template_interpolation' &&
      child.type !== 'template_directive' &&
      !DIRECTIVE_TAGS.has(child.type)
    )
      continue;
    if (child.start > at) tokens.push({ t: 'lit', text: source.text.slice(at, child.start) });
    flattenPart(child, source, tokens);
    at = child.end;
  }
  if (to > at) tokens.push({ t: 'lit', text: source.text.slice(at, to) });
}

const DIRECTIVE_TAGS: ReadonlySet<string> = new Set([
  'template_if_intro',
  'template_else_intro',
  'template_if_end',
  'template_for_start',
  'template_for_end',
]);

function flattenPart(node: SyntaxNode, source: SourceText, tokens: TemplateToken[]): void {
  const strip = stripFlags(node);
  switch (node.type) {
    case 'template_interpolation': {
      const inner = expressionChildren(node)[0];
      const expr: Expr = inner ? expressionFromNode(inner, source) : unsupported(node, source, 'empty interpolation');
      tokens.push({ t: 'interp', expr, ...strip });
      return;
    }
    case 'template_directive': {
      const inner = node.children[0];
      if (inner) flattenParts(inner.children, inner.start, inner.end, source, tokens);
      return;
    }
    case 'template_if_intro': {
      const inner = expressionChildren(node)[0];
      const condition: Expr = inner ? expressionFromNode(inner, source) : unsupported(node, source);
      tokens.push({ t: 'if', condition, ...strip });
      return;
    }
    case 'template_for_start': {
      const names = node.children.filter((child) => child.type === 'identifier').map((id) => textOf(id, source));
      const inner = expressionChildren(node)[0];
      const collection: Expr = inner ? expressionFromNode(inner, source) : unsupported(node, source);
      const keyVar = names.length > 1 ? names[0] : undefined;
      tokens.push({ t: 'for', keyVar, valueVar: names[names.length - 1] ?? '', collection, ...strip });
      return;
    }
    case 'template_else_intro':
      tokens.push({ t: 'else', ...strip });
      return;
    case 'template_if_end':
      tokens.push({ t: 'endif', ...strip });
      return;
    case 'template_for_end':
      tokens.push({ t: 'endfor', ...strip });
      return;
  }
}

/** A `~` right after the opening `${`/`%{` strips before; one right before the closing `}` strips after. */
function stripFlags(node: SyntaxNode): { stripBefore: boolean; stripAfter: boolean } {
  const children = node.children;
  const stripBefore = children[1]?.type === 'strip_marker';
  const stripAfter = children.length > 2 && children[children.length - 2]?.type === 'strip_marker';
  return { stripBefore, stripAfter: stripAfter && !(children.length === 3 && stripBefore) };
}
