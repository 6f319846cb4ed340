import type {
  BinaryExpr,
  ConditionalExpr,
  Expr,
  ForExpr,
  TemplatePart as HclTemplatePart,
  ObjectExpr,
  TemplateExpr,
  TraversalExpr,
  TraversalStep,
  UnaryExpr,
} from '../hcl';
import { callFunction, LAZY_FUNCTIONS } from './functions';
import { label, missingRoot } from './referenceTexts';
import { hole, type TemplatePart, template } from './textTemplate';
import {
  isObjectValue,
  isUnknown,
  mergeUnknowns,
  type ObjectValue,
  type Unknown,
  unknown,
  unknownText,
  type Value,
} from './value';
import { attribute, indexValue } from './valueAccess';
import {
  catchValue,
  caughtValue,
  EvaluationError,
  known,
  requireAllKnown,
  sortedKeys,
  toBoolValue,
  toListValue,
  toNumberValue,
  toStringValue,
  typeName,
  UnknownValue,
  valuesEqual,
} from './valueConversion';
import { arithmetic, logical } from './valueOperators';

/**
 * What names mean while evaluating: root names (`local`, `var`, `each`, `count`, `path`,
 * `terraform`, `module`, `data`, for-expression variables) to their values. A root that is absent
 * is unknown; the reason says why (e.g. `data.aws_caller_identity.current is only known after apply`).
 */
export type EvalScope = ReadonlyMap<string, Value>;

/**
 * Evaluates `expr` like Terraform on the subset we model. Never throws: what cannot be known
 * statically, and what would be an error in Terraform, is an `Unknown` whose reasons say why
 * (errors carry `error: true`).
 */
export function evaluate(expr: Expr, scope: EvalScope): Value {
  // As `catchValue(() => evaluateExpr(…))`, without a closure per expression: this runs for every
  // node of every expression the analysis reads.
  try {
    return evaluateExpr(expr, scope);
  } catch (thrown) {
    if (thrown instanceof UnknownValue || thrown instanceof EvaluationError) return caughtValue(thrown);
    // A bug or a stack overflow on a pathological input must not take the analysis down.
    return unknown(`internal error while evaluating: ${thrown instanceof Error ? thrown.message : String(thrown)}`);
  }
}

/** Evaluates and throws when the value is an error, so an error inside a collection fails the whole. */
function evaluateOrFail(expr: Expr, scope: EvalScope): Value {
  const value = evaluate(expr, scope);
  if (isUnknown(value) && value.error) throw new UnknownValue(value);
  return value;
}

function evaluateExpr(expr: Expr, scope: EvalScope): Value {
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'template':
      return evaluateTemplate(expr, scope);
    case 'traversal':
      return evaluateTraversal(expr, scope);
    case 'call':
      return evaluateCall(expr.name, expr.args, expr.expandFinal, scope);
    case 'conditional':
      return evaluateConditional(expr, scope);
    case 'tuple':
      return expr.items.map((item) => evaluateOrFail(item, scope));
    case 'object':
      return evaluateObject(expr, scope);
    case 'for':
      return evaluateFor(expr, scope);
    case 'index':
      return applySteps(
        evaluateOrFail(expr.target, scope),
        [{ kind: 'index', key: expr.key }],
        label(expr.target),
        scope,
      );
    case 'getattr':
      return applySteps(
        evaluateOrFail(expr.target, scope),
        [{ kind: 'attr', name: expr.name }],
        label(expr.target),
        scope,
      );
    case 'splat':
      return applySteps(
        evaluateOrFail(expr.target, scope),
        [{ kind: 'splat' }, ...expr.steps],
        label(expr.target),
        scope,
      );
    case 'unary':
      return evaluateUnary(expr, scope);
    case 'binary':
      return evaluateBinary(expr, scope);
    case 'unsupported':
      return unknown(`unsupported expression: ${expr.text}`);
  }
}

// ---- references ---------------------------------------------------------------------------------

function evaluateTraversal(expr: TraversalExpr, scope: EvalScope): Value {
  const root = scope.get(expr.root);
  if (root === undefined) return missingRoot(expr);
  const first = expr.steps[0];
  const declared = expr.root === 'local' || expr.root === 'var';
  if (declared && first?.kind === 'attr' && isObjectValue(root) && !(first.name in root)) {
    throw new EvaluationError(`${expr.root}.${first.name} is not defined`);
  }
  return applySteps(root, expr.steps, expr.root, scope);
}

/** Why a reference to a root the scope does not have is unknown, naming the thing referenced. */
/** Applies attribute, index and splat steps; `path` names the value so far for messages. */
function applySteps(value: Value, steps: readonly TraversalStep[], path: string, scope: EvalScope): Value {
  let current = value;
  let at = path;
  for (let i = 0; i < steps.length; i++) {
    if (isUnknown(current)) return current;
    const step = steps[i];
    if (step.kind === 'splat') return applySplat(current, steps.slice(i + 1), at, scope);
    if (step.kind === 'attr') {
      current = attribute(current, step.name, at);
      at = `${at}.${step.name}`;
    } else {
      const key = evaluateOrFail(step.key, scope);
      if (isUnknown(key)) return key;
      current = indexValue(current, key, at);
      at = `${at}[${JSON.stringify(key)}]`;
    }
  }
  return current;
}

/** `[*]`: the remaining steps for each element; null is an empty list, a non-list a one-element list. */
function applySplat(value: Value, rest: readonly TraversalStep[], path: string, scope: EvalScope): Value {
  if (value === null) return [];
  const items = Array.isArray(value) ? value : [value];
  return items.map((item, n) => {
    const result = applySteps(item, rest, `${path}[${n}]`, scope);
    if (isUnknown(result) && result.error) throw new UnknownValue(result);
    return result;
  });
}

// ---- templates ----------------------------------------------------------------------------------

function evaluateTemplate(expr: TemplateExpr, scope: EvalScope): Value {
  const only = expr.parts[0];
  // `"${x}"` is x itself, not its string form (HCL unwraps interpolation-only templates).
  if (expr.parts.length === 1 && typeof only !== 'string' && isExpr(only)) return evaluateExpr(only, scope);
  const rendered: Rendered = { pieces: [], unknowns: [] };
  renderParts(expr.parts, scope, rendered);
  if (rendered.unknowns.length === 0) return rendered.pieces.join('');
  const merged = mergeUnknowns(rendered.unknowns);
  // What is known of the text is kept, for matching state addresses by their known parts; not after an error.
  return merged.error ? merged : unknownText(template(rendered.pieces), merged.reasons);
}

/** A template's text so far: literal pieces and holes, and the unknowns that made the holes. */
interface Rendered {
  pieces: TemplatePart[];
  unknowns: Unknown[];
}

function isExpr(part: HclTemplatePart): part is Expr {
  return typeof part !== 'string' && 'range' in part;
}

/** Renders parts; an unknown part leaves a hole (all of them collected, for complete reasons). */
function renderParts(parts: readonly HclTemplatePart[], scope: EvalScope, out: Rendered): void {
  for (const part of parts) {
    if (typeof part === 'string') out.pieces.push(part);
    else if (isExpr(part)) renderValue(evaluate(part, scope), part, out);
    else if (part.kind === 'if') renderIf(part.condition, part.then, part.else, scope, out);
    else renderFor(part.keyVar, part.valueVar, part.collection, part.body, scope, out);
  }
}

function renderValue(value: Value, expr: Expr, out: Rendered): void {
  const text = catchValue(() => toStringValue(value, `${label(expr)} in the template`));
  if (isUnknown(text)) {
    out.unknowns.push(text);
    // An unknown string known in part keeps its parts; any other is one hole named after the expression.
    const known = isUnknown(value) && value.text ? value.text : undefined;
    out.pieces.push(...(known ?? [hole(label(expr), text.reasons)]));
    return;
  }
  out.pieces.push(text as string);
}

function renderIf(
  condition: Expr,
  then: readonly HclTemplatePart[],
  otherwise: readonly HclTemplatePart[],
  scope: EvalScope,
  out: Rendered,
): void {
  const value = catchValue(() => toBoolValue(evaluateOrFail(condition, scope), 'the %{if} condition'));
  if (isUnknown(value)) {
    out.unknowns.push(value);
    out.pieces.push(hole(`%{if ${label(condition)}}`, value.reasons));
    return;
  }
  renderParts(value ? then : otherwise, scope, out);
}

function renderFor(
  keyVar: string | undefined,
  valueVar: string,
  collection: Expr,
  body: readonly HclTemplatePart[],
  scope: EvalScope,
  out: Rendered,
): void {
  const value = evaluate(collection, scope);
  const entries = catchValue(() => iterationEntries(value, 'the %{for} collection'));
  if (isUnknown(entries)) {
    out.unknowns.push(entries);
    out.pieces.push(hole(`%{for … in ${label(collection)}}`, entries.reasons));
    return;
  }
  for (const [key, item] of entries as [Value, Value][]) {
    renderParts(body, bindLoop(scope, keyVar, valueVar, key, item), out);
  }
}

// ---- calls, conditionals, collections -----------------------------------------------------------

function evaluateCall(name: string, argExprs: readonly Expr[], expandFinal: boolean, scope: EvalScope): Value {
  const lazy = LAZY_FUNCTIONS.get(name);
  if (lazy) return lazy(argExprs.map((arg) => () => evaluate(arg, scope)));
  const args = argExprs.map((arg) => evaluateOrFail(arg, scope));
  if (expandFinal && args.length > 0) {
    const last = args.pop() as Value;
    args.push(...toListValue(last, `the expanded last argument of ${name}()`));
  }
  return callFunction(name, args, scope);
}

function evaluateConditional(expr: ConditionalExpr, scope: EvalScope): Value {
  const condition = toBoolValue(evaluateOrFail(expr.condition, scope), 'the condition');
  return evaluateExpr(condition ? expr.then : expr.else, scope);
}

function evaluateObject(expr: ObjectExpr, scope: EvalScope): Value {
  const result: Record<string, Value> = {};
  const unknownKeys: Unknown[] = [];
  for (const item of expr.items) {
    const key = evaluateOrFail(item.key, scope);
    const value = evaluateOrFail(item.value, scope);
    if (isUnknown(key)) unknownKeys.push(key);
    else result[toStringValue(key, 'an object key')] = value;
  }
  return unknownKeys.length > 0 ? mergeUnknowns(unknownKeys) : result;
}

/** Pairs to iterate: index and element of a list, key and value of a map (keys in lexical order). */
function iterationEntries(value: Value, what: string): [Value, Value][] {
  const v = known(value);
  if (Array.isArray(v)) return v.map((item, i) => [i, item]);
  if (isObjectValue(v)) return sortedKeys(v).map((key) => [key, v[key]]);
  if (v === null) throw new EvaluationError(`${what} is null; cannot iterate over it`);
  throw new EvaluationError(`${what} is a ${typeName(v)}; cannot iterate over it`);
}

function bindLoop(
  scope: EvalScope,
  keyVar: string | undefined,
  valueVar: string,
  key: Value,
  value: Value,
): Map<string, Value> {
  const inner = new Map(scope);
  if (keyVar !== undefined) inner.set(keyVar, key);
  inner.set(valueVar, value);
  return inner;
}

function evaluateFor(expr: ForExpr, scope: EvalScope): Value {
  const entries = iterationEntries(evaluateOrFail(expr.collection, scope), 'the for collection');
  const tuple: Value[] = [];
  const object: Record<string, Value> = {};
  const grouped: Record<string, Value[]> = {};
  for (const [key, value] of entries) {
    const inner = bindLoop(scope, expr.keyVar, expr.valueVar, key, value);
    if (expr.condition && !toBoolValue(evaluateOrFail(expr.condition, inner), 'the for condition')) continue;
    const item = evaluateOrFail(expr.value, inner);
    if (expr.result === 'tuple') {
      tuple.push(item);
      continue;
    }
    const name = toStringValue(expr.key ? evaluateOrFail(expr.key, inner) : null, 'the for key');
    if (expr.group) {
      const group = grouped[name] ?? [];
      group.push(item);
      grouped[name] = group;
    } else if (Object.hasOwn(object, name)) {
      throw new EvaluationError(`duplicate key ${JSON.stringify(name)} in the for expression; add ... to group`);
    } else {
      object[name] = item;
    }
  }
  if (expr.result === 'tuple') return tuple;
  return expr.group ? (grouped as ObjectValue) : object;
}

// ---- operators ----------------------------------------------------------------------------------

function evaluateUnary(expr: UnaryExpr, scope: EvalScope): Value {
  const operand = evaluateOrFail(expr.operand, scope);
  if (expr.op === '!') return !toBoolValue(operand, 'the operand of !');
  return -toNumberValue(operand, 'the operand of -');
}

function evaluateBinary(expr: BinaryExpr, scope: EvalScope): Value {
  const left = evaluateOrFail(expr.left, scope);
  const right = evaluateOrFail(expr.right, scope);
  if (expr.op === '&&' || expr.op === '||') return logical(expr.op, left, right);
  requireAllKnown([left, right]);
  switch (expr.op) {
    case '==':
      return valuesEqual(left, right);
    case '!=':
      return !valuesEqual(left, right);
    default:
      return arithmetic(expr.op, left, right);
  }
}
