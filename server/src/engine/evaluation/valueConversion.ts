import { isObjectValue, isUnknown, mergeUnknowns, type ObjectValue, type Unknown, unknown, type Value } from './value';

/**
 * Terraform's implicit conversions (cty's "safe" conversions) between our values, shared by the
 * evaluator and the functions. Inside an operation they throw; `catchValue` turns the throw back
 * into a value at the operation's edge, so `evaluate` itself never throws.
 */

/**
 * What evaluation throws and catches at an operation's edge, made without a stack trace: nothing
 * reads it, and capturing it took a tenth of a Terragrunt analysis. Unknown values travel as values
 * (`unknown(…)`); a throw is left only where an operation cannot go on: counted over a whole
 * analysis of each corpus repository, 0 to 77 throws, about 1.5 µs each.
 */
class EvaluationSignal extends Error {
  constructor(message: string) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}

/** Thrown when an operation needs a value that is unknown: the operation's result is that unknown. */
export class UnknownValue extends EvaluationSignal {
  constructor(readonly value: Unknown) {
    super(value.reasons.join('; '));
  }
}

/** Thrown for a Terraform evaluation error (wrong type, missing key, …). */
export class EvaluationError extends EvaluationSignal {}

/** Runs an operation that may throw `UnknownValue`/`EvaluationError` and returns its value or the unknown. */
export function catchValue(compute: () => Value): Value {
  try {
    return compute();
  } catch (thrown) {
    return caughtValue(thrown);
  }
}

/** What `catchValue` returns for a throw: the unknown it carries; anything else is thrown again. */
export function caughtValue(thrown: unknown): Value {
  if (thrown instanceof UnknownValue) return thrown.value;
  if (thrown instanceof EvaluationError) return { unknown: true, reasons: [thrown.message], error: true };
  throw thrown;
}

/** The value itself, or a throw of its unknown. */
export function known(value: Value): Exclude<Value, Unknown> {
  if (isUnknown(value)) throw new UnknownValue(value);
  return value;
}

/** Throws the merged unknown when any of `values` is unknown (at the top level). */
export function requireAllKnown(values: readonly Value[]): void {
  const unknowns = values.filter(isUnknown);
  if (unknowns.length > 0) throw new UnknownValue(mergeUnknowns(unknowns));
}

/** The first unknown anywhere inside `value`, with every reason found on the way. */
export function deepUnknown(value: Value): Unknown | undefined {
  const found: Unknown[] = [];
  collectUnknowns(value, found);
  return found.length > 0 ? mergeUnknowns(found) : undefined;
}

function collectUnknowns(value: Value, found: Unknown[]): void {
  if (isUnknown(value)) found.push(value);
  else if (Array.isArray(value)) for (const item of value) collectUnknowns(item, found);
  else if (isObjectValue(value)) for (const item of Object.values(value)) collectUnknowns(item, found);
}

/** Throws when `value` is unknown anywhere inside. */
export function requireDeepKnown(value: Value): void {
  const unknownPart = deepUnknown(value);
  if (unknownPart) throw new UnknownValue(unknownPart);
}

export function typeName(value: Value): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  if (isUnknown(value)) return 'unknown';
  if (typeof value === 'object') return 'object';
  if (typeof value === 'boolean') return 'bool';
  return typeof value;
}

/** Numbers as Terraform prints them: `1` not `1.0`, never exponent notation. */
export function formatNumber(n: number): string {
  if (Object.is(n, -0)) return '0';
  if (Number.isInteger(n) && Math.abs(n) >= 1e21) return BigInt(n).toString();
  const text = String(n);
  const match = /^(-?)(\d)(?:\.(\d+))?e([-+]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign, first, rest = '', exponentText] = match;
  const digits = first + rest;
  const point = 1 + Number(exponentText);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** string ← string | number | bool; anything else is an error (`what` names the operand). */
export function toStringValue(value: Value, what: string): string {
  const v = known(value);
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return formatNumber(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v === null) throw new EvaluationError(`${what} is null; a string is required`);
  throw new EvaluationError(`${what} is a ${typeName(v)}; a string is required`);
}

const NUMBER_TEXT = /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

/** number ← number | numeric string. */
export function toNumberValue(value: Value, what: string): number {
  const v = known(value);
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && NUMBER_TEXT.test(v)) return Number(v);
  if (v === null) throw new EvaluationError(`${what} is null; a number is required`);
  if (typeof v === 'string') throw new EvaluationError(`${what} is ${JSON.stringify(v)}; a number is required`);
  throw new EvaluationError(`${what} is a ${typeName(v)}; a number is required`);
}

/** bool ← bool | "true" | "false". */
export function toBoolValue(value: Value, what: string): boolean {
  const v = known(value);
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  if (v === null) throw new EvaluationError(`${what} is null; a bool is required`);
  if (typeof v === 'string') throw new EvaluationError(`${what} is ${JSON.stringify(v)}; a bool is required`);
  throw new EvaluationError(`${what} is a ${typeName(v)}; a bool is required`);
}

/** A list, tuple or set. */
export function toListValue(value: Value, what: string): Value[] {
  const v = known(value);
  if (Array.isArray(v)) return v;
  if (v === null) throw new EvaluationError(`${what} is null; a list is required`);
  throw new EvaluationError(`${what} is a ${typeName(v)}; a list is required`);
}

/** An object or map. */
export function toObjectValue(value: Value, what: string): ObjectValue {
  const v = known(value);
  if (isObjectValue(v)) return v;
  if (v === null) throw new EvaluationError(`${what} is null; a map or object is required`);
  throw new EvaluationError(`${what} is a ${typeName(v)}; a map or object is required`);
}

/** Keys in Terraform's order for maps and objects: lexical. */
export function sortedKeys(object: ObjectValue): string[] {
  return Object.keys(object).sort(compareStrings);
}

/** Compares by UTF-16 code units, like Go's byte order for the ASCII keys Terraform sees. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Terraform's `==`: values of different types are never equal; throws when an unknown decides it. */
export function valuesEqual(a: Value, b: Value): boolean {
  const left = known(a);
  const right = known(b);
  if (Array.isArray(left)) {
    if (!Array.isArray(right) || left.length !== right.length) return false;
    return left.every((item, i) => valuesEqual(item, right[i]));
  }
  if (isObjectValue(left)) {
    if (!isObjectValue(right)) return false;
    const keys = Object.keys(left);
    if (keys.length !== Object.keys(right).length) return false;
    return keys.every((key) => key in right && valuesEqual(left[key], right[key]));
  }
  return left === right;
}

/** A text two values share exactly when `valuesEqual` holds, so that deduplicating is linear. */
export function valueKey(value: Value): string {
  const inner = known(value);
  if (Array.isArray(inner)) return `[${inner.map(valueKey).join(',')}]`;
  if (isObjectValue(inner)) {
    const keys = Object.keys(inner).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${valueKey(inner[key])}`).join(',')}}`;
  }
  return typeof inner === 'string' ? JSON.stringify(inner) : String(inner);
}

/** `values` without repeats, the first of each kept in place. */
export function uniqueValues(values: Iterable<Value>): Value[] {
  const unique = new Map<string, Value>();
  for (const value of values) {
    const key = valueKey(value);
    if (!unique.has(key)) unique.set(key, value);
  }
  return [...unique.values()];
}

/** A readable rendering of a value for messages. */
export function describeValue(value: Value): string {
  if (isUnknown(value)) return '(unknown)';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/** `value` when it is a string or unknown; else an unknown saying that `what` is not a string. */
export function stringOrUnknown(value: Value, what: string): string | Unknown {
  if (typeof value === 'string' || isUnknown(value)) return value;
  return unknown(`${what} is not a string`);
}

/** `value` when it is an object or unknown; else an unknown saying that `what` is not an object. */
export function objectOrUnknown(value: Value, what: string): ObjectValue | Unknown {
  if (isObjectValue(value) || isUnknown(value)) return value;
  return unknown(`${what} is not an object`);
}
