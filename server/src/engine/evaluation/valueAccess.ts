import { isObjectValue, type Value } from './value';
import { describeValue, EvaluationError, toNumberValue, toStringValue, typeName } from './valueConversion';

/** `value.name`, with Terraform's error where the value has no such attribute; `path` names the value in it. */
export function attribute(value: Value, name: string, path: string): Value {
  if (isObjectValue(value)) {
    if (Object.hasOwn(value, name)) return value[name];
    throw new EvaluationError(`${path} has no attribute "${name}"`);
  }
  if (value === null) throw new EvaluationError(`${path} is null; cannot read attribute "${name}"`);
  throw new EvaluationError(`${path} is a ${typeName(value)}; cannot read attribute "${name}"`);
}

/** `value[key]` of a list or an object, with Terraform's error where it has no such element. */
export function indexValue(value: Value, key: Value, path: string): Value {
  if (Array.isArray(value)) {
    const n = toNumberValue(key, `the index into ${path}`);
    if (!Number.isInteger(n) || n < 0 || n >= value.length) {
      throw new EvaluationError(`index ${describeValue(key)} is out of range for ${path} (length ${value.length})`);
    }
    return value[n];
  }
  if (isObjectValue(value)) {
    const name = toStringValue(key, `the key into ${path}`);
    if (Object.hasOwn(value, name)) return value[name];
    throw new EvaluationError(`${path} has no key ${JSON.stringify(name)}`);
  }
  if (value === null) throw new EvaluationError(`${path} is null; cannot index it`);
  throw new EvaluationError(`${path} is a ${typeName(value)}; cannot index it`);
}
