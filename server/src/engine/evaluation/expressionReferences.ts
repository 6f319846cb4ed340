import { type Expr, forEachSubexpression, type Range, type TemplatePart, type TraversalExpr } from '../hcl';
import { attrNames } from './referenceTexts';

/** One variable reference in an expression: `local.env` is root `local`, names `["env"]`. */
export interface ExpressionReference {
  root: string;
  /** The attribute names right after the root, up to the first index or splat step. */
  names: string[];
  range: Range;
}

/**
 * Every reference an expression makes to a variable root (`local`, `var`, `data`, `module`, `each`,
 * a resource type, …), in source order. Names bound by for-expressions and `%{ for }` directives
 * are not references inside their bodies.
 */
export function expressionReferences(expr: Expr): ExpressionReference[] {
  const found: ExpressionReference[] = [];
  walkReferences(expr, NONE_BOUND, (traversal) =>
    found.push({ root: traversal.root, names: attrNames(traversal.steps), range: traversal.range }),
  );
  return found;
}

/**
 * The distinct names referenced under `root`, e.g. the locals a local depends on: every module's evaluation
 * asks, and the references it would drop are not made.
 */
export function referencedNames(expr: Expr, root: string): Set<string> {
  const names = new Set<string>();
  walkReferences(expr, NONE_BOUND, (traversal) => {
    const first = traversal.steps[0];
    if (traversal.root === root && first?.kind === 'attr') names.add(first.name);
  });
  return names;
}

const NONE_BOUND: ReadonlySet<string> = new Set();

/** Each traversal of a variable root in `expr`, in source order, but those of a name `bound` there. */
function walkReferences(expr: Expr, bound: ReadonlySet<string>, visit: (traversal: TraversalExpr) => void): void {
  switch (expr.kind) {
    case 'traversal':
      if (!bound.has(expr.root)) visit(expr);
      break;
    // The names a for-expression or a `%{ for }` directive binds are not references inside its body.
    case 'template':
      walkParts(expr.parts, bound, visit);
      return;
    case 'for': {
      walkReferences(expr.collection, bound, visit);
      const inner = withBound(bound, expr.keyVar, expr.valueVar);
      for (const part of [expr.key, expr.value, expr.condition]) if (part) walkReferences(part, inner, visit);
      return;
    }
  }
  forEachSubexpression(expr, (inner) => walkReferences(inner, bound, visit));
}

function walkParts(
  parts: readonly TemplatePart[],
  bound: ReadonlySet<string>,
  visit: (traversal: TraversalExpr) => void,
): void {
  for (const part of parts) {
    if (typeof part === 'string') continue;
    if ('range' in part) {
      walkReferences(part, bound, visit);
    } else if (part.kind === 'if') {
      walkReferences(part.condition, bound, visit);
      walkParts(part.then, bound, visit);
      walkParts(part.else, bound, visit);
    } else {
      walkReferences(part.collection, bound, visit);
      walkParts(part.body, withBound(bound, part.keyVar, part.valueVar), visit);
    }
  }
}

function withBound(bound: ReadonlySet<string>, keyVar: string | undefined, valueVar: string): Set<string> {
  const inner = new Set(bound);
  if (keyVar !== undefined) inner.add(keyVar);
  inner.add(valueVar);
  return inner;
}
