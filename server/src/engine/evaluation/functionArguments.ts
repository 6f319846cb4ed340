import type { ObjectValue, Value } from './value';
import { EvaluationError, toListValue, toNumberValue, toObjectValue, toStringValue } from './valueConversion';

/** How a built-in function is defined: its arguments counted, each read as the type it needs with its place for errors. */

/** The values functions may read besides their arguments: `path.cwd` for `abspath`. */
export type FunctionScope = ReadonlyMap<string, Value>;

export type Fn = (args: readonly Value[], scope: FunctionScope) => Value;

function arity(name: string, args: readonly Value[], min: number, max = min): void {
  if (args.length < min || args.length > max) {
    const expected = min === max ? `${min}` : max === Number.POSITIVE_INFINITY ? `at least ${min}` : `${min} to ${max}`;
    throw new EvaluationError(`${name}() takes ${expected} argument${expected === '1' ? '' : 's'}, got ${args.length}`);
  }
}

/** Defines a function with a fixed or variadic argument count. */
export function define(name: string, min: number, max: number, body: Fn): [string, Fn] {
  return [
    name,
    (args, scope) => {
      arity(name, args, min, max);
      return body(args, scope);
    },
  ];
}

export const MANY = Number.POSITIVE_INFINITY;

export function str(name: string, value: Value, position = 1): string {
  return toStringValue(value, `argument ${position} of ${name}()`);
}

export function num(name: string, value: Value, position = 1): number {
  return toNumberValue(value, `argument ${position} of ${name}()`);
}

export function int(name: string, value: Value, position = 1): number {
  const n = num(name, value, position);
  if (!Number.isInteger(n)) throw new EvaluationError(`argument ${position} of ${name}() must be a whole number`);
  return n;
}

export function list(name: string, value: Value, position = 1): Value[] {
  return toListValue(value, `argument ${position} of ${name}()`);
}

export function map(name: string, value: Value, position = 1): ObjectValue {
  return toObjectValue(value, `argument ${position} of ${name}()`);
}
