import { type Fn, int, list, map, num, str } from './functionArguments';
import { setOf } from './typeConversionFunctions';
import { isObjectValue, isUnknown, unknown, type Value } from './value';
import {
  compareStrings,
  EvaluationError,
  known,
  sortedKeys,
  typeName,
  uniqueValues,
  valuesEqual,
} from './valueConversion';

/** Terraform's collection functions that take more than a line. */

export function lookup(args: readonly Value[]): Value {
  const object = map('lookup', args[0]);
  const key = str('lookup', args[1], 2);
  if (Object.hasOwn(object, key)) return object[key];
  if (args.length === 3) return args[2];
  throw new EvaluationError(`lookup() found no key ${JSON.stringify(key)}`);
}

export function merge(args: readonly Value[]): Value {
  const result: Record<string, Value> = {};
  args.forEach((arg, i) => {
    if (arg !== null) Object.assign(result, map('merge', arg, i + 1));
  });
  return result;
}

/**
 * The first argument that is neither null nor an empty string; an unknown before it makes the result unknown.
 * When every argument is empty the value is unknown rather than an error: in real configurations those
 * arguments are variables whose empty defaults say "set me at run time" (`coalesce(var.key_stack,
 * var.stackname)`), so the known text around the call can still be matched.
 */
export function coalesce(args: readonly Value[]): Value {
  for (const arg of args) {
    if (isUnknown(arg)) return arg;
    if (arg === null || arg === '') continue;
    return args.some((other) => typeof other === 'string') ? str('coalesce', arg) : arg;
  }
  return unknown('coalesce() found no non-null, non-empty argument: its value is set at run time');
}

export function coalesceList(args: readonly Value[]): Value {
  for (const [i, arg] of args.entries()) {
    if (arg === null) continue;
    if (list('coalescelist', arg, i + 1).length > 0) return arg;
  }
  throw new EvaluationError('coalescelist() found no non-empty list');
}

export function element(args: readonly Value[]): Value {
  const items = list('element', args[0]);
  const index = int('element', args[1], 2);
  if (items.length === 0) throw new EvaluationError('element() cannot use an empty list');
  if (index < 0) throw new EvaluationError('element() cannot use a negative index');
  return items[index % items.length];
}

export function keys(args: readonly Value[]): Value {
  return sortedKeys(map('keys', args[0]));
}

export function values(args: readonly Value[]): Value {
  const object = map('values', args[0]);
  return sortedKeys(object).map((key) => object[key]);
}

export function length(args: readonly Value[]): Value {
  const value = known(args[0]);
  if (typeof value === 'string') return Array.from(value).length;
  if (Array.isArray(value)) return value.length;
  if (isObjectValue(value)) return Object.keys(value).length;
  throw new EvaluationError(`length() needs a string, list or map, not a ${typeName(value)}`);
}

export function contains(args: readonly Value[]): Value {
  return list('contains', args[0]).some((item) => valuesEqual(item, args[1]));
}

export function distinct(args: readonly Value[]): Value {
  return uniqueValues(list('distinct', args[0]));
}

export function flattenValues(items: readonly Value[]): Value[] {
  return items.flatMap((item) => (Array.isArray(item) ? flattenValues(item) : [item]));
}

export function compact(args: readonly Value[]): Value {
  return list('compact', args[0])
    .filter((item) => item !== null && item !== '')
    .map((item) => str('compact', item));
}

export function sort(args: readonly Value[]): Value {
  return list('sort', args[0])
    .map((item) => str('sort', item))
    .sort(compareStrings);
}

export function range(args: readonly Value[]): Value {
  const numbers = args.map((arg, i) => num('range', arg, i + 1));
  const [start, limit] = numbers.length === 1 ? [0, numbers[0]] : [numbers[0], numbers[1]];
  const step = numbers[2] ?? (limit >= start ? 1 : -1);
  if (step === 0) throw new EvaluationError('range() step must not be zero');
  const result: number[] = [];
  for (let n = start; step > 0 ? n < limit : n > limit; n += step) {
    if (result.length >= 1024) throw new EvaluationError('range() would produce more than 1024 numbers');
    result.push(n);
  }
  return result;
}

export function zipmap(args: readonly Value[]): Value {
  const names = list('zipmap', args[0]);
  const items = list('zipmap', args[1], 2);
  if (names.length !== items.length) throw new EvaluationError('zipmap() lists must have the same length');
  return Object.fromEntries(names.map((name, i) => [str('zipmap', name), items[i]]));
}

export function slice(args: readonly Value[]): Value {
  const items = list('slice', args[0]);
  const start = int('slice', args[1], 2);
  const end = int('slice', args[2], 3);
  if (start < 0 || end > items.length || start > end) {
    throw new EvaluationError(`slice() indices ${start} to ${end} are out of range for a list of ${items.length}`);
  }
  return items.slice(start, end);
}

export function indexOf(args: readonly Value[]): Value {
  const found = list('index', args[0]).findIndex((item) => valuesEqual(item, args[1]));
  if (found < 0) throw new EvaluationError('index() found no such element');
  return found;
}

export function one(args: readonly Value[]): Value {
  const items = list('one', args[0]);
  if (items.length > 1) throw new EvaluationError(`one() needs a list of zero or one element, got ${items.length}`);
  return items.length === 1 ? items[0] : null;
}

function setOperation(name: string, combine: (sets: Value[][]) => Value[]): Fn {
  return (args) => setOf(combine(args.map((arg, i) => setOf(list(name, arg, i + 1)))));
}

export const setUnion = setOperation('setunion', (sets) => sets.flat());
export const setIntersection = setOperation('setintersection', (sets) =>
  sets[0].filter((item) => sets.every((set) => set.some((other) => valuesEqual(item, other)))),
);
export const setSubtract = setOperation('setsubtract', (sets) =>
  sets[0].filter((item) => !sets[1].some((other) => valuesEqual(item, other))),
);
