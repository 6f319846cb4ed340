import { type EvalScope, evaluate, isObjectValue, type Value } from '../evaluation';
import type { StackNode } from './componentGraph';

/**
 * What a component gives its module's variables: its `inputs`, evaluated in its Stack's scope (`stackScope`:
 * its locals, and its variables as the deployment sets them, or unknown). Another component's output is
 * unknown until that component is applied.
 */
export function componentInputs(node: StackNode, scope: EvalScope): Map<string, Value> {
  const inputs = node.block.inputs;
  if (!inputs) return new Map();
  const value = evaluate(inputs.expr, scope);
  return new Map(isObjectValue(value) ? Object.entries(value) : []);
}
