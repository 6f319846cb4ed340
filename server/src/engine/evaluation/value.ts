import type { Template } from './textTemplate';

/**
 * Values as Terraform's evaluator would produce them, plus *unknown*: what cannot be known
 * statically. An unknown carries the reasons (e.g. `var.stackname has no default`) so that a
 * reference that depends on it is reported with them, never guessed.
 */
export type Value = string | number | boolean | null | Value[] | ObjectValue | Unknown;

export interface ObjectValue {
  readonly [key: string]: Value;
}

export interface Unknown {
  readonly unknown: true;
  /** Human-readable causes, deduplicated, e.g. `var.region has no default`. */
  readonly reasons: readonly string[];
  /**
   * Set when evaluation failed (a type error, a missing key) rather than the value being known only
   * later; `try()` and `can()` treat such a value as an error, any other unknown as undecided.
   */
  readonly error?: true;
  /**
   * For a string known in part (`"${var.stack}/search.tfstate"`), what is known of its text: literal text
   * and holes. Absent when nothing is known of it, or it is not a string.
   */
  readonly text?: Template;
}

export function unknown(...reasons: string[]): Unknown {
  return { unknown: true, reasons: [...new Set(reasons)] };
}

/** An unknown string of which `text` is known (see `Unknown.text`). */
export function unknownText(text: Template, reasons: readonly string[]): Unknown {
  return { unknown: true, reasons: [...new Set(reasons)], text };
}

/** An unknown that records an evaluation error (see `Unknown.error`). */
export function failure(...reasons: string[]): Unknown {
  return { unknown: true, reasons: [...new Set(reasons)], error: true };
}

/** One unknown for several: every reason once, an error when any of them is one. */
export function mergeUnknowns(unknowns: readonly Unknown[]): Unknown {
  const reasons = [...new Set(unknowns.flatMap((item) => item.reasons))];
  return unknowns.some((item) => item.error) ? { unknown: true, reasons, error: true } : { unknown: true, reasons };
}

export function isUnknown(value: Value): value is Unknown {
  // `reasons` too: an HCL object `{ unknown = true }` is a value, not an unknown.
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    (value as Unknown).unknown === true &&
    Array.isArray((value as Unknown).reasons)
  );
}

export function isObjectValue(value: Value): value is ObjectValue {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isUnknown(value);
}

/** The first unknown found anywhere inside `value`, deep; undefined when the value is fully known. */
export function findUnknown(value: Value): Unknown | undefined {
  if (isUnknown(value)) return value;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findUnknown(item);
      if (found) return found;
    }
  } else if (isObjectValue(value)) {
    for (const item of Object.values(value)) {
      const found = findUnknown(item);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * How deep a value is kept whole once evaluated: deeper parts are unknown (see `shallowValue`). Past an
 * expression's own limit (256), so that a value from one expression keeps the reason that one gives.
 */
export const MAX_VALUE_DEPTH = 1024;

const TOO_DEEP: Unknown = unknown(`a value nested more than ${MAX_VALUE_DEPTH} deep`);

/**
 * `value` with each part nested deeper than `MAX_VALUE_DEPTH` unknown, saying so; the value itself
 * when none is. A chain of locals nests a value without end (`l1 = [local.l0]`, …), and what reads
 * values after the evaluation (addresses, their texts, comparisons) walks them recursively.
 */
export function shallowValue(value: Value, depth = 0): Value {
  if (typeof value !== 'object' || value === null || isUnknown(value)) return value;
  if (depth >= MAX_VALUE_DEPTH) return TOO_DEEP;
  if (Array.isArray(value)) {
    const items = value.map((item) => shallowValue(item, depth + 1));
    return items.some((item, at) => item !== value[at]) ? items : value;
  }
  const entries = Object.entries(value).map(([key, item]) => [key, item, shallowValue(item, depth + 1)] as const);
  return entries.some(([, item, shallow]) => shallow !== item)
    ? Object.fromEntries(entries.map(([key, , shallow]) => [key, shallow]))
    : value;
}
