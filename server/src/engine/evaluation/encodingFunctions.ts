import { str } from './functionArguments';
import type { ObjectValue, Value } from './value';
import { EvaluationError, formatNumber, known, sortedKeys } from './valueConversion';

/** Terraform's encoding functions: JSON as Terraform writes and reads it. */

/** Terraform's JSON: keys sorted, numbers as Terraform prints them, `<`, `>`, `&` escaped like Go. */
export function jsonEncode(value: Value): string {
  const v = known(value);
  if (v === null) return 'null';
  if (typeof v === 'number') return formatNumber(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return goJsonString(v);
  if (Array.isArray(v)) return `[${v.map(jsonEncode).join(',')}]`;
  const object = v as ObjectValue;
  return `{${sortedKeys(object)
    .map((key) => `${goJsonString(key)}:${jsonEncode(object[key])}`)
    .join(',')}}`;
}

export function goJsonString(text: string): string {
  return JSON.stringify(text).replace(
    /[<>&\u2028\u2029]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function jsonDecode(args: readonly Value[]): Value {
  const text = str('jsondecode', args[0]);
  try {
    return JSON.parse(text) as Value;
  } catch (error) {
    throw new EvaluationError(`jsondecode() got invalid JSON: ${(error as Error).message}`);
  }
}
