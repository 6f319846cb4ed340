import type { BinaryExpr } from '../hcl';
import { isUnknown, type Value } from './value';
import { EvaluationError, requireAllKnown, toBoolValue, toNumberValue } from './valueConversion';

/** `false && x` is false and `true || x` is true even when x is unknown, as in HCL. */
export function logical(op: '&&' | '||', left: Value, right: Value): Value {
  const decisive = op === '||';
  const l = isUnknown(left) ? left : toBoolValue(left, `the left operand of ${op}`);
  const r = isUnknown(right) ? right : toBoolValue(right, `the right operand of ${op}`);
  if (l === decisive || r === decisive) return decisive;
  requireAllKnown([l, r]);
  return !decisive;
}

/** An arithmetic or comparison operator on two known numbers, with Terraform's errors. */
export function arithmetic(op: BinaryExpr['op'], left: Value, right: Value): Value {
  const a = toNumberValue(left, `the left operand of ${op}`);
  const b = toNumberValue(right, `the right operand of ${op}`);
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      if (b === 0) throw new EvaluationError('division by zero');
      return a / b;
    case '%':
      if (b === 0) throw new EvaluationError('modulo by zero');
      return a % b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    default:
      throw new EvaluationError(`unknown operator ${op}`);
  }
}
