import { list, map, num, str } from './functionArguments';
import type { Value } from './value';
import {
  compareStrings,
  requireDeepKnown,
  toBoolValue,
  toStringValue,
  typeName,
  uniqueValues,
} from './valueConversion';

/** Terraform's type conversion functions, and the sets they and the set functions make. */

/**
 * Unifies element types the way Terraform's conversions do for the common cases: mixed strings,
 * numbers and bools all become strings.
 */
function unifyPrimitives(values: readonly Value[]): Value[] {
  const types = new Set(values.filter((value) => value !== null).map(typeName));
  if (types.size <= 1 || !types.has('string') || types.has('list') || types.has('object')) return [...values];
  return values.map((value) => (value === null ? null : toStringValue(value, 'an element')));
}

/** Deduplicated and ordered the way Terraform orders sets: strings lexically, numbers numerically. */
export function setOf(values: readonly Value[]): Value[] {
  for (const value of values) requireDeepKnown(value);
  const unique = uniqueValues(unifyPrimitives(values));
  if (unique.every((value) => typeof value === 'string')) return (unique as string[]).sort(compareStrings);
  if (unique.every((value) => typeof value === 'number')) return (unique as number[]).sort((a, b) => a - b);
  return unique;
}

export function toSet(args: readonly Value[]): Value {
  return setOf(list('toset', args[0]));
}

export function toList(args: readonly Value[]): Value {
  if (args[0] === null) return null;
  return unifyPrimitives(list('tolist', args[0]));
}

export function toMap(args: readonly Value[]): Value {
  if (args[0] === null) return null;
  const object = map('tomap', args[0]);
  const keys = Object.keys(object);
  const values = unifyPrimitives(keys.map((key) => object[key]));
  return Object.fromEntries(keys.map((key, i) => [key, values[i]]));
}

export function toStringFunction(args: readonly Value[]): Value {
  return args[0] === null ? null : str('tostring', args[0]);
}

export function toNumberFunction(args: readonly Value[]): Value {
  return args[0] === null ? null : num('tonumber', args[0]);
}

export function toBoolFunction(args: readonly Value[]): Value {
  return args[0] === null ? null : toBoolValue(args[0], 'argument 1 of tobool()');
}
