import { formatValue } from './formatVerbs';
import { int, list, str } from './functionArguments';
import { compileGoRegexp, goFindAll, goMatchValue, goReplaceAll } from './goRegexp';
import type { Value } from './value';
import { EvaluationError, known, toStringValue } from './valueConversion';

/** Terraform's string functions that take more than a line (`format`'s verbs are in `formatVerbs.ts`). */

export function formatList(args: readonly Value[]): Value {
  const fmt = str('formatlist', args[0]);
  const rest = args.slice(1).map((arg) => known(arg));
  let length = -1;
  for (const arg of rest) {
    if (!Array.isArray(arg)) continue;
    if (length >= 0 && arg.length !== length) {
      throw new EvaluationError('formatlist() lists must all have the same length');
    }
    length = arg.length;
  }
  const rows = length < 0 ? 1 : length;
  const result: Value[] = [];
  for (let i = 0; i < rows; i++)
    result.push(
      formatValue(
        fmt,
        rest.map((arg) => (Array.isArray(arg) ? arg[i] : arg)),
      ),
    );
  return result;
}

export function join(args: readonly Value[]): Value {
  const separator = str('join', args[0]);
  const items = args.slice(1).flatMap((arg, i) => list('join', arg, i + 2));
  return items.map((item) => toStringValue(item, 'an element of join()')).join(separator);
}

export function split(args: readonly Value[]): Value {
  const separator = str('split', args[0]);
  const text = str('split', args[1], 2);
  return separator === '' ? Array.from(text) : text.split(separator);
}

export function replace(args: readonly Value[]): Value {
  const text = str('replace', args[0]);
  const search = str('replace', args[1], 2);
  const replacement = str('replace', args[2], 3);
  if (search.length > 1 && search.startsWith('/') && search.endsWith('/')) {
    return goReplaceAll(compileGoRegexp(search.slice(1, -1)), text, replacement);
  }
  return text.split(search).join(replacement);
}

export function regex(args: readonly Value[]): Value {
  const pattern = str('regex', args[0]);
  const re = compileGoRegexp(pattern);
  const match = re.exec(str('regex', args[1], 2));
  if (!match) throw new EvaluationError(`regex() pattern ${JSON.stringify(pattern)} did not match`);
  return goMatchValue(re, match as RegExpMatchArray);
}

export function regexAll(args: readonly Value[]): Value {
  const re = compileGoRegexp(str('regexall', args[0]));
  return goFindAll(re, str('regexall', args[1], 2)).map((match) => goMatchValue(re, match));
}

/** Go's `strings.Title`: upper-cases the first letter of each word. */
export function title(args: readonly Value[]): Value {
  return str('title', args[0]).replace(/(^|[^\p{L}\p{N}_'])(\p{L})/gu, (_, before: string, letter: string) =>
    before.concat(letter.toUpperCase()),
  );
}

export function trim(args: readonly Value[]): Value {
  const text = str('trim', args[0]);
  const cutset = new Set(Array.from(str('trim', args[1], 2)));
  const chars = Array.from(text);
  let start = 0;
  let end = chars.length;
  while (start < end && cutset.has(chars[start])) start++;
  while (end > start && cutset.has(chars[end - 1])) end--;
  return chars.slice(start, end).join('');
}

export function substr(args: readonly Value[]): Value {
  const chars = Array.from(str('substr', args[0]));
  let offset = int('substr', args[1], 2);
  const length = int('substr', args[2], 3);
  if (offset < 0) offset = Math.max(0, chars.length + offset);
  if (offset > chars.length) throw new EvaluationError('substr() offset is beyond the end of the string');
  const end = length < 0 ? chars.length : Math.min(chars.length, offset + length);
  return chars.slice(offset, end).join('');
}
