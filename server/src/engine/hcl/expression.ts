import type { Range } from './position';

/**
 * HCL expressions as the evaluator sees them: a small tree of our own, so that tree-sitter
 * trees can be freed right after extraction (they cost megabytes each and WASM memory is
 * never returned). Built by `expressionFromNode` in `hclExpression.ts`.
 */
export type Expr =
  | LiteralExpr
  | TemplateExpr
  | TraversalExpr
  | CallExpr
  | ConditionalExpr
  | TupleExpr
  | ObjectExpr
  | ForExpr
  | IndexExpr
  | GetAttrExpr
  | SplatExpr
  | UnaryExpr
  | BinaryExpr
  | UnsupportedExpr;

interface ExprBase {
  range: Range;
}

/** `"abc"` without interpolation, numbers, `true`/`false`, `null`. */
export interface LiteralExpr extends ExprBase {
  kind: 'literal';
  value: string | number | boolean | null;
}

/** A quoted or heredoc template: literal parts and interpolated expressions, in order. Directives (`%{ if }`, `%{ for }`) are `TemplateDirective` parts. */
export interface TemplateExpr extends ExprBase {
  kind: 'template';
  parts: TemplatePart[];
}

export type TemplatePart = string | Expr | TemplateDirective;

export type TemplateDirective =
  | { kind: 'if'; condition: Expr; then: TemplatePart[]; else: TemplatePart[] }
  | { kind: 'for'; keyVar: string | undefined; valueVar: string; collection: Expr; body: TemplatePart[] };

/**
 * A variable root with a chain of attribute/index steps: `local.env`, `var.x["a"]`, `each.value.key`,
 * `path.module`, `terraform.workspace`, `data.terraform_remote_state.vpc.outputs.id`.
 */
export interface TraversalExpr extends ExprBase {
  kind: 'traversal';
  root: string;
  steps: TraversalStep[];
}

/** An attribute step's `range` is its name's, where the parser knows it (the contracts between states point at it). */
export type TraversalStep =
  | { kind: 'attr'; name: string; range?: Range }
  | { kind: 'index'; key: Expr }
  | { kind: 'splat' };

export interface CallExpr extends ExprBase {
  kind: 'call';
  name: string;
  args: Expr[];
  /** `f(list...)`: the last argument is expanded. */
  expandFinal: boolean;
}

export interface ConditionalExpr extends ExprBase {
  kind: 'conditional';
  condition: Expr;
  then: Expr;
  else: Expr;
}

export interface TupleExpr extends ExprBase {
  kind: 'tuple';
  readonly items: Expr[];
}

/** From this many items, a tuple of literals only is kept compact (`tupleExpr`). */
const COMPACT_TUPLE_ITEMS = 32;

/**
 * A tuple: its items as they are, or, for a long list of literals only (names, CIDRs, account ids: a
 * generated file holds tens of thousands), kept compact: a literal with its range costs about 200 bytes,
 * 25 times its source text, and 5,000 roots each listing 5,000 names ran out of memory.
 */
export function tupleExpr(items: Expr[], range: Range): TupleExpr {
  if (items.length < COMPACT_TUPLE_ITEMS || !items.every((item) => item.kind === 'literal')) {
    return { kind: 'tuple', items, range };
  }
  return new LiteralTuple(items as LiteralExpr[], range);
}

/** The values in an array and their ranges in a typed one (four numbers an item); the items are made when asked. */
class LiteralTuple implements TupleExpr {
  readonly kind = 'tuple';
  private readonly values: LiteralExpr['value'][];
  private readonly positions: Uint32Array;

  constructor(
    items: readonly LiteralExpr[],
    readonly range: Range,
  ) {
    this.values = items.map((item) => item.value);
    this.positions = new Uint32Array(items.length * 4);
    items.forEach(({ range: { start, end } }, i) => {
      this.positions.set([start.line, start.character, end.line, end.character], i * 4);
    });
  }

  get items(): Expr[] {
    const at = this.positions;
    return this.values.map((value, i) => ({
      kind: 'literal',
      value,
      range: {
        start: { line: at[i * 4]!, character: at[i * 4 + 1]! },
        end: { line: at[i * 4 + 2]!, character: at[i * 4 + 3]! },
      },
    }));
  }
}

export interface ObjectExpr extends ExprBase {
  kind: 'object';
  /** A key is an expression: a bare identifier key `a = 1` is a literal "a"; `(local.k) = 1` is evaluated. */
  items: { key: Expr; value: Expr }[];
}

/** `[for k, v in coll : value if cond]` (tuple) or `{for k, v in coll : key => value...}` (object). */
export interface ForExpr extends ExprBase {
  kind: 'for';
  result: 'tuple' | 'object';
  keyVar: string | undefined;
  valueVar: string;
  collection: Expr;
  key: Expr | undefined;
  value: Expr;
  condition: Expr | undefined;
  /** `...` grouping in an object for-expression. */
  group: boolean;
}

/** An index or attribute step applied to an arbitrary expression, e.g. `local.m[var.k]` after a call. */
export interface IndexExpr extends ExprBase {
  kind: 'index';
  target: Expr;
  key: Expr;
}

export interface GetAttrExpr extends ExprBase {
  kind: 'getattr';
  target: Expr;
  name: string;
}

/** `x[*].name` or `x.*.name`: `steps` apply to each element. */
export interface SplatExpr extends ExprBase {
  kind: 'splat';
  target: Expr;
  steps: TraversalStep[];
}

export interface UnaryExpr extends ExprBase {
  kind: 'unary';
  op: '!' | '-';
  operand: Expr;
}

export interface BinaryExpr extends ExprBase {
  kind: 'binary';
  op: '+' | '-' | '*' | '/' | '%' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '&&' | '||';
  left: Expr;
  right: Expr;
}

/**
 * How deep an expression nests before the rest of it is not read: the evaluator and the reference
 * scans walk the tree recursively, and a 5,000-term `a + b + …` (a chain 5,000 deep) would exhaust
 * the stack. Real configurations nest a few levels; the part past this is an `UnsupportedExpr`,
 * which evaluates to unknown with the reason.
 */
export const MAX_EXPRESSION_DEPTH = 256;

export function tooDeep(range: Range): UnsupportedExpr {
  return { kind: 'unsupported', text: `an expression nested more than ${MAX_EXPRESSION_DEPTH} deep`, range };
}

/** Syntax the evaluator does not model; evaluates to unknown with `text` as the reason. */
export interface UnsupportedExpr extends ExprBase {
  kind: 'unsupported';
  text: string;
}

/** An object key as written: `vpc_id = …` or `"vpc_id" = …`; undefined for a computed one (`(local.k) = …`). */
export function keyName(key: Expr): string | undefined {
  if (key.kind === 'literal' && typeof key.value === 'string') return key.value;
  if (key.kind === 'traversal' && key.steps.length === 0) return key.root;
  return undefined;
}

/**
 * Calls `visit` on each expression directly inside `expr`, in source order: a template's
 * interpolations and directives' expressions, index keys of traversals and splats, arguments,
 * operands, items. The walks over the tree (the references of an expression, the reads of other
 * states' outputs) share it, each handling first the kinds it sees differently.
 */
export function forEachSubexpression(expr: Expr, visit: (inner: Expr) => void): void {
  switch (expr.kind) {
    case 'literal':
    case 'unsupported':
      return;
    case 'template':
      forEachInParts(expr.parts, visit);
      return;
    case 'traversal':
      forEachIndexKey(expr.steps, visit);
      return;
    case 'call':
      for (const arg of expr.args) visit(arg);
      return;
    case 'conditional':
      visit(expr.condition);
      visit(expr.then);
      visit(expr.else);
      return;
    case 'tuple':
      for (const item of expr.items) visit(item);
      return;
    case 'object':
      for (const item of expr.items) {
        visit(item.key);
        visit(item.value);
      }
      return;
    case 'for':
      for (const part of [expr.collection, expr.key, expr.value, expr.condition]) if (part) visit(part);
      return;
    case 'index':
      visit(expr.target);
      visit(expr.key);
      return;
    case 'getattr':
      visit(expr.target);
      return;
    case 'splat':
      visit(expr.target);
      forEachIndexKey(expr.steps, visit);
      return;
    case 'unary':
      visit(expr.operand);
      return;
    case 'binary':
      visit(expr.left);
      visit(expr.right);
      return;
  }
}

/** The expressions of template parts, through `%{ if }` and `%{ for }` directives, in source order. */
function forEachInParts(parts: readonly TemplatePart[], visit: (inner: Expr) => void): void {
  for (const part of parts) {
    if (typeof part === 'string') continue;
    if ('range' in part) visit(part);
    else if (part.kind === 'if') {
      visit(part.condition);
      forEachInParts(part.then, visit);
      forEachInParts(part.else, visit);
    } else {
      visit(part.collection);
      forEachInParts(part.body, visit);
    }
  }
}

function forEachIndexKey(steps: readonly TraversalStep[], visit: (inner: Expr) => void): void {
  for (const step of steps) if (step.kind === 'index') visit(step.key);
}
