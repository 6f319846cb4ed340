import { type Fn, int, num, str } from './functionArguments';
import type { Value } from './value';
import { EvaluationError } from './valueConversion';

/** Terraform's numeric functions that take more than a line. */

export function extreme(name: string, pick: (...values: number[]) => number): Fn {
  return (args) => pick(...args.map((arg, i) => num(name, arg, i + 1)));
}

export function parseInteger(args: readonly Value[]): Value {
  const text = str('parseint', args[0]);
  const base = int('parseint', args[1], 2);
  const digits = '0123456789abcdefghijklmnopqrstuvwxyz'.slice(0, base);
  const body = text.replace(/^[-+]/, '').toLowerCase();
  if (base < 2 || base > 62 || body === '' || [...body].some((ch) => !digits.includes(ch))) {
    throw new EvaluationError(`parseint() cannot parse ${JSON.stringify(text)} in base ${base}`);
  }
  return Number.parseInt(text, base);
}
