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
