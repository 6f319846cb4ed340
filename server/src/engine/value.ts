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
}

export function unknown(...reasons: string[]): Unknown {
  return { unknown: true, reasons: [...new Set(reasons)] };
}

export function isUnknown(value: Value): value is Unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && (value as Unknown).unknown === true;
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
