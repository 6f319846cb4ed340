import { type Expr, forEachSubexpression, type Range, type TemplatePart, type TraversalStep } from '../hcl';

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
  collect(expr, new Set(), found);
  return found;
}

/** The distinct names referenced under `root`, e.g. the locals a local depends on. */
export function referencedNames(expr: Expr, root: string): Set<string> {
  const names = new Set<string>();
  namesUnder(expr, root, false, names);
  return names;
}

/**
 * `collect` for one root, keeping only the first name after it: every module's evaluation walks its
 * expressions so, and references it would drop need not be made. `bound`: a for-expression binds `root`.
 */
function namesUnder(expr: Expr, root: string, bound: boolean, names: Set<string>): void {
  switch (expr.kind) {
    case 'traversal': {
      const first = expr.steps[0];
      if (!bound && expr.root === root && first?.kind === 'attr') names.add(first.name);
      break;
    }
    case 'template':
      partNamesUnder(expr.parts, root, bound, names);
      return;
    case 'for': {
      namesUnder(expr.collection, root, bound, names);
      const inner = bound || expr.keyVar === root || expr.valueVar === root;
      for (const part of [expr.key, expr.value, expr.condition]) if (part) namesUnder(part, root, inner, names);
      return;
    }
  }
  forEachSubexpression(expr, (inner) => namesUnder(inner, root, bound, names));
}

function partNamesUnder(parts: readonly TemplatePart[], root: string, bound: boolean, names: Set<string>): void {
  for (const part of parts) {
    if (typeof part === 'string') continue;
    if ('range' in part) {
      namesUnder(part, root, bound, names);
    } else if (part.kind === 'if') {
      namesUnder(part.condition, root, bound, names);
      partNamesUnder(part.then, root, bound, names);
      partNamesUnder(part.else, root, bound, names);
    } else {
      namesUnder(part.collection, root, bound, names);
      const inner = bound || part.keyVar === root || part.valueVar === root;
      partNamesUnder(part.body, root, inner, names);
    }
  }
}

function collect(expr: Expr, bound: ReadonlySet<string>, found: ExpressionReference[]): void {
  switch (expr.kind) {
    case 'traversal':
      if (!bound.has(expr.root)) found.push({ root: expr.root, names: leadingNames(expr.steps), range: expr.range });
      break;
    // The names a for-expression or a `%{ for }` directive binds are not references inside its body.
    case 'template':
      collectParts(expr.parts, bound, found);
      return;
    case 'for': {
      collect(expr.collection, bound, found);
      const inner = withBound(bound, expr.keyVar, expr.valueVar);
      for (const part of [expr.key, expr.value, expr.condition]) if (part) collect(part, inner, found);
      return;
    }
  }
  forEachSubexpression(expr, (inner) => collect(inner, bound, found));
}

function collectParts(parts: readonly TemplatePart[], bound: ReadonlySet<string>, found: ExpressionReference[]): void {
  for (const part of parts) {
    if (typeof part === 'string') continue;
    if ('range' in part) {
      collect(part, bound, found);
    } else if (part.kind === 'if') {
      collect(part.condition, bound, found);
      collectParts(part.then, bound, found);
      collectParts(part.else, bound, found);
    } else {
      collect(part.collection, bound, found);
      collectParts(part.body, withBound(bound, part.keyVar, part.valueVar), found);
    }
  }
}

function leadingNames(steps: readonly TraversalStep[]): string[] {
  const names: string[] = [];
  for (const step of steps) {
    if (step.kind !== 'attr') break;
    names.push(step.name);
  }
  return names;
}

function withBound(bound: ReadonlySet<string>, keyVar: string | undefined, valueVar: string): Set<string> {
  const inner = new Set(bound);
  if (keyVar !== undefined) inner.add(keyVar);
  inner.add(valueVar);
  return inner;
}
