import path from 'node:path';
import { compileGoRegexp, goFindAll, goMatchValue, goReplaceAll } from './goRegexp';
import { isObjectValue, isUnknown, mergeUnknowns, type ObjectValue, unknown, type Value } from './value';
import {
  catchValue,
  compareStrings,
  deepUnknown,
  EvaluationError,
  formatNumber,
  known,
  requireDeepKnown,
  sortedKeys,
  toBoolValue,
  toListValue,
  toNumberValue,
  toObjectValue,
  toStringValue,
  typeName,
  UnknownValue,
  uniqueValues,
  valuesEqual,
} from './valueConversion';

/**
 * Terraform's built-in functions on our values. Arguments arrive evaluated; when one of them is
 * unknown the result is unknown with its reasons (Terraform's default), except for the functions
 * that decide on their own (`coalesce`, `try`, `can`). Errors become unknowns with `error: true`.
 */

/** The values functions may read besides their arguments: `path.cwd` for `abspath`. */
export type FunctionScope = ReadonlyMap<string, Value>;

type Fn = (args: readonly Value[], scope: FunctionScope) => Value;

/** Functions a configuration language built on HCL adds to Terraform's (Terragrunt's), by name. */
export interface ExtraFunctions {
  get(name: string): ((args: readonly Value[]) => Value) | undefined;
}

let extraFunctions: ExtraFunctions | undefined;

/**
 * Runs `run` with `functions` callable besides Terraform's. Their answers depend on the file being
 * evaluated (Terragrunt's `get_terragrunt_dir()`), and evaluation is synchronous, so they are set
 * for the duration of one evaluation rather than threaded through every scope.
 */
export function withFunctions<T>(functions: ExtraFunctions, run: () => T): T {
  const outer = extraFunctions;
  extraFunctions = functions;
  try {
    return run();
  } finally {
    extraFunctions = outer;
  }
}

/** Calls `name` on evaluated arguments; never throws. */
export function callFunction(name: string, args: readonly Value[], scope: FunctionScope): Value {
  const extra = extraFunctions?.get(name);
  const fn: Fn | undefined = FUNCTIONS.get(name) ?? (extra && ((values) => extra(values)));
  if (!fn) {
    if (NOT_STATIC.has(name)) return unknown(`${name}() is not evaluated statically`);
    return unknown(`function ${name}() is not supported`);
  }
  if (!DECIDES_ON_UNKNOWN.has(name)) {
    const unknownArgs = args.filter(isUnknown);
    if (unknownArgs.length > 0) return mergeUnknowns(unknownArgs);
  }
  return catchValue(() => fn(args, scope));
}

/**
 * Functions whose arguments must not be evaluated up front: `try` returns the first argument that
 * evaluates without error, `can` says whether its argument does. An argument that is unknown (not
 * an error) makes the result unknown, as in Terraform: it might fail or succeed later.
 */
export const LAZY_FUNCTIONS: ReadonlyMap<string, (args: readonly (() => Value)[]) => Value> = new Map([
  ['try', tryFunction],
  ['can', canFunction],
]);

function tryFunction(args: readonly (() => Value)[]): Value {
  if (args.length === 0) return failureOf('try() needs at least one argument');
  const errors: string[] = [];
  for (const arg of args) {
    const value = arg();
    if (isUnknown(value) && value.error) {
      errors.push(...value.reasons);
      continue;
    }
    return value;
  }
  return failureOf(`no argument of try() could be evaluated: ${errors.join('; ')}`);
}

function canFunction(args: readonly (() => Value)[]): Value {
  if (args.length !== 1) return failureOf('can() takes exactly one argument');
  const value = args[0]();
  if (isUnknown(value)) return value.error ? false : value;
  const inner = deepUnknown(value);
  return inner && !inner.error ? inner : true;
}

function failureOf(reason: string): Value {
  return { unknown: true, reasons: [reason], error: true };
}

/** Functions that depend on the file system, the clock or randomness: unknown, never guessed. */
const NOT_STATIC: ReadonlySet<string> = new Set([
  'file',
  'filebase64',
  'filebase64sha256',
  'filebase64sha512',
  'filemd5',
  'filesha1',
  'filesha256',
  'filesha512',
  'fileexists',
  'fileset',
  'templatefile',
  'timestamp',
  'plantimestamp',
  'uuid',
  'uuidv5',
  'bcrypt',
  'pathexpand',
]);

const DECIDES_ON_UNKNOWN: ReadonlySet<string> = new Set(['coalesce']);

function arity(name: string, args: readonly Value[], min: number, max = min): void {
  if (args.length < min || args.length > max) {
    const expected = min === max ? `${min}` : max === Number.POSITIVE_INFINITY ? `at least ${min}` : `${min} to ${max}`;
    throw new EvaluationError(`${name}() takes ${expected} argument${expected === '1' ? '' : 's'}, got ${args.length}`);
  }
}

/** Defines a function with a fixed or variadic argument count. */
function define(name: string, min: number, max: number, body: Fn): [string, Fn] {
  return [
    name,
    (args, scope) => {
      arity(name, args, min, max);
      return body(args, scope);
    },
  ];
}

const MANY = Number.POSITIVE_INFINITY;

function str(name: string, value: Value, position = 1): string {
  return toStringValue(value, `argument ${position} of ${name}()`);
}

function num(name: string, value: Value, position = 1): number {
  return toNumberValue(value, `argument ${position} of ${name}()`);
}

function int(name: string, value: Value, position = 1): number {
  const n = num(name, value, position);
  if (!Number.isInteger(n)) throw new EvaluationError(`argument ${position} of ${name}() must be a whole number`);
  return n;
}

function list(name: string, value: Value, position = 1): Value[] {
  return toListValue(value, `argument ${position} of ${name}()`);
}

function map(name: string, value: Value, position = 1): ObjectValue {
  return toObjectValue(value, `argument ${position} of ${name}()`);
}

// ---- strings ------------------------------------------------------------------------------------

function formatList(args: readonly Value[]): Value {
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

function join(args: readonly Value[]): Value {
  const separator = str('join', args[0]);
  const items = args.slice(1).flatMap((arg, i) => list('join', arg, i + 2));
  return items.map((item) => toStringValue(item, 'an element of join()')).join(separator);
}

function split(args: readonly Value[]): Value {
  const separator = str('split', args[0]);
  const text = str('split', args[1], 2);
  return separator === '' ? Array.from(text) : text.split(separator);
}

function replace(args: readonly Value[]): Value {
  const text = str('replace', args[0]);
  const search = str('replace', args[1], 2);
  const replacement = str('replace', args[2], 3);
  if (search.length > 1 && search.startsWith('/') && search.endsWith('/')) {
    return goReplaceAll(compileGoRegexp(search.slice(1, -1)), text, replacement);
  }
  return text.split(search).join(replacement);
}

function regex(args: readonly Value[]): Value {
  const pattern = str('regex', args[0]);
  const re = compileGoRegexp(pattern);
  const match = re.exec(str('regex', args[1], 2));
  if (!match) throw new EvaluationError(`regex() pattern ${JSON.stringify(pattern)} did not match`);
  return goMatchValue(re, match as RegExpMatchArray);
}

function regexAll(args: readonly Value[]): Value {
  const re = compileGoRegexp(str('regexall', args[0]));
  return goFindAll(re, str('regexall', args[1], 2)).map((match) => goMatchValue(re, match));
}

/** Go's `strings.Title`: upper-cases the first letter of each word. */
function title(args: readonly Value[]): Value {
  return str('title', args[0]).replace(/(^|[^\p{L}\p{N}_'])(\p{L})/gu, (_, before: string, letter: string) =>
    before.concat(letter.toUpperCase()),
  );
}

function trim(args: readonly Value[]): Value {
  const text = str('trim', args[0]);
  const cutset = new Set(Array.from(str('trim', args[1], 2)));
  const chars = Array.from(text);
  let start = 0;
  let end = chars.length;
  while (start < end && cutset.has(chars[start])) start++;
  while (end > start && cutset.has(chars[end - 1])) end--;
  return chars.slice(start, end).join('');
}

function substr(args: readonly Value[]): Value {
  const chars = Array.from(str('substr', args[0]));
  let offset = int('substr', args[1], 2);
  const length = int('substr', args[2], 3);
  if (offset < 0) offset = Math.max(0, chars.length + offset);
  if (offset > chars.length) throw new EvaluationError('substr() offset is beyond the end of the string');
  const end = length < 0 ? chars.length : Math.min(chars.length, offset + length);
  return chars.slice(offset, end).join('');
}

// ---- conversions --------------------------------------------------------------------------------

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
function setOf(values: readonly Value[]): Value[] {
  for (const value of values) requireDeepKnown(value);
  const unique = uniqueValues(unifyPrimitives(values));
  if (unique.every((value) => typeof value === 'string')) return (unique as string[]).sort(compareStrings);
  if (unique.every((value) => typeof value === 'number')) return (unique as number[]).sort((a, b) => a - b);
  return unique;
}

function toSet(args: readonly Value[]): Value {
  return setOf(list('toset', args[0]));
}

function toList(args: readonly Value[]): Value {
  if (args[0] === null) return null;
  return unifyPrimitives(list('tolist', args[0]));
}

function toMap(args: readonly Value[]): Value {
  if (args[0] === null) return null;
  const object = map('tomap', args[0]);
  const keys = Object.keys(object);
  const values = unifyPrimitives(keys.map((key) => object[key]));
  return Object.fromEntries(keys.map((key, i) => [key, values[i]]));
}

function toStringFunction(args: readonly Value[]): Value {
  return args[0] === null ? null : str('tostring', args[0]);
}

function toNumberFunction(args: readonly Value[]): Value {
  return args[0] === null ? null : num('tonumber', args[0]);
}

function toBoolFunction(args: readonly Value[]): Value {
  return args[0] === null ? null : toBoolValue(args[0], 'argument 1 of tobool()');
}

// ---- collections --------------------------------------------------------------------------------

function lookup(args: readonly Value[]): Value {
  const object = map('lookup', args[0]);
  const key = str('lookup', args[1], 2);
  if (Object.hasOwn(object, key)) return object[key];
  if (args.length === 3) return args[2];
  throw new EvaluationError(`lookup() found no key ${JSON.stringify(key)}`);
}

function merge(args: readonly Value[]): Value {
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
function coalesce(args: readonly Value[]): Value {
  for (const arg of args) {
    if (isUnknown(arg)) return arg;
    if (arg === null || arg === '') continue;
    return args.some((other) => typeof other === 'string') ? str('coalesce', arg) : arg;
  }
  return unknown('coalesce() found no non-null, non-empty argument: its value is set at run time');
}

function coalesceList(args: readonly Value[]): Value {
  for (const [i, arg] of args.entries()) {
    if (arg === null) continue;
    if (list('coalescelist', arg, i + 1).length > 0) return arg;
  }
  throw new EvaluationError('coalescelist() found no non-empty list');
}

function element(args: readonly Value[]): Value {
  const items = list('element', args[0]);
  const index = int('element', args[1], 2);
  if (items.length === 0) throw new EvaluationError('element() cannot use an empty list');
  if (index < 0) throw new EvaluationError('element() cannot use a negative index');
  return items[index % items.length];
}

function keys(args: readonly Value[]): Value {
  return sortedKeys(map('keys', args[0]));
}

function values(args: readonly Value[]): Value {
  const object = map('values', args[0]);
  return sortedKeys(object).map((key) => object[key]);
}

function length(args: readonly Value[]): Value {
  const value = known(args[0]);
  if (typeof value === 'string') return Array.from(value).length;
  if (Array.isArray(value)) return value.length;
  if (isObjectValue(value)) return Object.keys(value).length;
  throw new EvaluationError(`length() needs a string, list or map, not a ${typeName(value)}`);
}

function contains(args: readonly Value[]): Value {
  return list('contains', args[0]).some((item) => valuesEqual(item, args[1]));
}

function distinct(args: readonly Value[]): Value {
  return uniqueValues(list('distinct', args[0]));
}

function flattenValues(items: readonly Value[]): Value[] {
  return items.flatMap((item) => (Array.isArray(item) ? flattenValues(item) : [item]));
}

function compact(args: readonly Value[]): Value {
  return list('compact', args[0])
    .filter((item) => item !== null && item !== '')
    .map((item) => str('compact', item));
}

function sort(args: readonly Value[]): Value {
  return list('sort', args[0])
    .map((item) => str('sort', item))
    .sort(compareStrings);
}

function range(args: readonly Value[]): Value {
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

function zipmap(args: readonly Value[]): Value {
  const names = list('zipmap', args[0]);
  const items = list('zipmap', args[1], 2);
  if (names.length !== items.length) throw new EvaluationError('zipmap() lists must have the same length');
  return Object.fromEntries(names.map((name, i) => [str('zipmap', name), items[i]]));
}

function slice(args: readonly Value[]): Value {
  const items = list('slice', args[0]);
  const start = int('slice', args[1], 2);
  const end = int('slice', args[2], 3);
  if (start < 0 || end > items.length || start > end) {
    throw new EvaluationError(`slice() indices ${start} to ${end} are out of range for a list of ${items.length}`);
  }
  return items.slice(start, end);
}

function indexOf(args: readonly Value[]): Value {
  const found = list('index', args[0]).findIndex((item) => valuesEqual(item, args[1]));
  if (found < 0) throw new EvaluationError('index() found no such element');
  return found;
}

function one(args: readonly Value[]): Value {
  const items = list('one', args[0]);
  if (items.length > 1) throw new EvaluationError(`one() needs a list of zero or one element, got ${items.length}`);
  return items.length === 1 ? items[0] : null;
}

function setOperation(name: string, combine: (sets: Value[][]) => Value[]): Fn {
  return (args) => setOf(combine(args.map((arg, i) => setOf(list(name, arg, i + 1)))));
}

const setUnion = setOperation('setunion', (sets) => sets.flat());
const setIntersection = setOperation('setintersection', (sets) =>
  sets[0].filter((item) => sets.every((set) => set.some((other) => valuesEqual(item, other)))),
);
const setSubtract = setOperation('setsubtract', (sets) =>
  sets[0].filter((item) => !sets[1].some((other) => valuesEqual(item, other))),
);

// ---- numbers ------------------------------------------------------------------------------------

function extreme(name: string, pick: (...values: number[]) => number): Fn {
  return (args) => pick(...args.map((arg, i) => num(name, arg, i + 1)));
}

function parseInteger(args: readonly Value[]): Value {
  const text = str('parseint', args[0]);
  const base = int('parseint', args[1], 2);
  const digits = '0123456789abcdefghijklmnopqrstuvwxyz'.slice(0, base);
  const body = text.replace(/^[-+]/, '').toLowerCase();
  if (base < 2 || base > 62 || body === '' || [...body].some((ch) => !digits.includes(ch))) {
    throw new EvaluationError(`parseint() cannot parse ${JSON.stringify(text)} in base ${base}`);
  }
  return Number.parseInt(text, base);
}

// ---- encodings ----------------------------------------------------------------------------------

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

function goJsonString(text: string): string {
  return JSON.stringify(text).replace(
    /[<>&\u2028\u2029]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function jsonDecode(args: readonly Value[]): Value {
  const text = str('jsondecode', args[0]);
  try {
    return JSON.parse(text) as Value;
  } catch (error) {
    throw new EvaluationError(`jsondecode() got invalid JSON: ${(error as Error).message}`);
  }
}

// ---- paths --------------------------------------------------------------------------------------

/** Go's `filepath.Clean` on slash paths. */
function cleanPath(p: string): string {
  if (p === '') return '.';
  const normalized = path.posix.normalize(p);
  return normalized.length > 1 ? normalized.replace(/\/$/, '') : normalized;
}

function dirname(args: readonly Value[]): Value {
  const p = str('dirname', args[0]);
  return cleanPath(p.slice(0, p.lastIndexOf('/') + 1));
}

function basename(args: readonly Value[]): Value {
  const p = str('basename', args[0]).replace(/\/+$/, '');
  if (p === '') return str('basename', args[0]).startsWith('/') ? '/' : '.';
  return p.slice(p.lastIndexOf('/') + 1);
}

function abspath(args: readonly Value[], scope: FunctionScope): Value {
  const p = str('abspath', args[0]);
  if (path.isAbsolute(p)) return cleanPath(p.replace(/\\/g, '/'));
  const paths = scope.get('path') ?? null;
  const cwd = isObjectValue(paths) ? paths.cwd : undefined;
  if (cwd === undefined) return unknown('abspath() of a relative path needs path.cwd');
  if (isUnknown(cwd)) throw new UnknownValue(cwd);
  return path.resolve(toStringValue(cwd, 'path.cwd'), p).replace(/\\/g, '/');
}

// ---- format -------------------------------------------------------------------------------------

/** One `%` verb: flags, width, precision, an explicit argument index, the verb letter. */
interface Verb {
  flags: string;
  width: number | undefined;
  precision: number | undefined;
  verb: string;
}

const VERB = /%(\[(\d+)\])?([-+# 0]*)(\d+)?(?:\.(\d*))?(\[(\d+)\])?([a-zA-Z%])?/y;

/** Terraform's `format`: Go-style verbs `%v %#v %t %d %b %o %x %X %e %E %f %g %G %s %q %%` with flags and widths. */
export function formatValue(fmt: string, args: readonly Value[]): string {
  let out = '';
  let next = 0;
  let at = 0;
  let reordered = false;
  while (at < fmt.length) {
    const percent = fmt.indexOf('%', at);
    if (percent < 0) {
      out += fmt.slice(at);
      break;
    }
    out += fmt.slice(at, percent);
    VERB.lastIndex = percent;
    const match = VERB.exec(fmt);
    if (!match?.[8]) throw new EvaluationError(`format() has an incomplete verb at offset ${percent}`);
    at = VERB.lastIndex;
    if (match[8] === '%') {
      out += '%';
      continue;
    }
    const explicit = match[2] ?? match[7];
    if (explicit !== undefined) {
      next = Number(explicit) - 1;
      reordered = true;
    }
    if (next < 0 || next >= args.length) throw new EvaluationError(`format() has too few arguments for ${match[0]}`);
    const precisionText = match[5];
    const verb: Verb = {
      flags: match[3],
      width: match[4] === undefined ? undefined : Number(match[4]),
      precision: precisionText === undefined ? undefined : Number(precisionText || '0'),
      verb: match[8],
    };
    out += formatOne(verb, args[next]);
    next++;
  }
  // Like Go, leftover arguments are an error only when no verb picked its argument explicitly.
  if (!reordered && next < args.length)
    throw new EvaluationError(`format() has ${args.length - next} argument(s) left over`);
  return out;
}

function formatOne(verb: Verb, value: Value): string {
  const v = known(value);
  const text = verbText(verb, v);
  return pad(text, verb);
}

function verbText(verb: Verb, value: Exclude<Value, { unknown: true }>): string {
  const { flags, precision } = verb;
  switch (verb.verb) {
    case 'v':
      if (flags.includes('#')) return jsonEncode(value);
      if (value === null) return 'null';
      return Array.isArray(value) || isObjectValue(value) ? jsonEncode(value) : str('format', value, 2);
    case 't':
      return String(toBoolValue(value, 'a %t argument of format()'));
    case 'd':
      return signed(integerFor(verb, value).toString(), flags);
    case 'b':
      return signed(integerFor(verb, value).toString(2), flags);
    case 'o':
      return signed(integerFor(verb, value).toString(8), flags);
    case 'x':
    case 'X': {
      const hex =
        typeof value === 'string'
          ? Buffer.from(value, 'utf8').toString('hex')
          : signed(integerFor(verb, value).toString(16), flags);
      return verb.verb === 'X' ? hex.toUpperCase() : hex;
    }
    case 'e':
    case 'E': {
      const text = goExponent(toNumberValue(value, 'a %e argument of format()').toExponential(precision ?? 6));
      return signed(verb.verb === 'E' ? text.toUpperCase() : text, flags);
    }
    case 'f':
    case 'F':
      return signed(toNumberValue(value, 'a %f argument of format()').toFixed(precision ?? 6), flags);
    case 'g':
    case 'G': {
      const n = toNumberValue(value, 'a %g argument of format()');
      const text = precision === undefined ? formatNumber(n) : goExponent(n.toPrecision(precision || 1));
      return signed(verb.verb === 'G' ? text.toUpperCase() : text, flags);
    }
    case 's': {
      const text = toStringValue(value, 'a %s argument of format()');
      return precision === undefined ? text : Array.from(text).slice(0, precision).join('');
    }
    case 'q':
      return goJsonString(toStringValue(value, 'a %q argument of format()'));
    default:
      throw new EvaluationError(`format() does not support the verb %${verb.verb}`);
  }
}

function integerFor(verb: Verb, value: Value): bigint {
  const n = toNumberValue(value, `a %${verb.verb} argument of format()`);
  if (!Number.isInteger(n)) throw new EvaluationError(`format() %${verb.verb} needs a whole number, got ${n}`);
  return BigInt(n);
}

/** A `+` or space flag adds a sign to non-negative numbers. */
function signed(text: string, flags: string): string {
  if (text.startsWith('-')) return text;
  if (flags.includes('+')) return `+${text}`;
  if (flags.includes(' ')) return ` ${text}`;
  return text;
}

/** Go prints at least two exponent digits: `1e+06`, where JavaScript prints `1e+6`. */
function goExponent(text: string): string {
  return text.replace(/e([-+])(\d)$/, 'e$10$2');
}

/** Pads to the width: spaces on the left, on the right with `-`, zeros after the sign with `0` for numbers. */
function pad(text: string, verb: Verb): string {
  const length = Array.from(text).length;
  if (verb.width === undefined || length >= verb.width) return text;
  const fill = verb.width - length;
  if (verb.flags.includes('-')) return text + ' '.repeat(fill);
  if (verb.flags.includes('0') && 'dboxXeEfFgG'.includes(verb.verb)) {
    const sign = /^[-+ ]/.test(text) ? text[0] : '';
    return sign + '0'.repeat(fill) + text.slice(sign.length);
  }
  return ' '.repeat(fill) + text;
}

// ---- the table ----------------------------------------------------------------------------------

const FUNCTIONS: ReadonlyMap<string, Fn> = new Map<string, Fn>([
  define('format', 1, MANY, (args) => formatValue(str('format', args[0]), args.slice(1))),
  define('formatlist', 1, MANY, formatList),
  define('join', 2, MANY, join),
  define('split', 2, 2, split),
  define('replace', 3, 3, replace),
  define('regex', 2, 2, regex),
  define('regexall', 2, 2, regexAll),
  define('lower', 1, 1, (args) => str('lower', args[0]).toLowerCase()),
  define('upper', 1, 1, (args) => str('upper', args[0]).toUpperCase()),
  define('title', 1, 1, title),
  define('trim', 2, 2, trim),
  define('trimprefix', 2, 2, (args) => {
    const [text, prefix] = [str('trimprefix', args[0]), str('trimprefix', args[1], 2)];
    return text.startsWith(prefix) ? text.slice(prefix.length) : text;
  }),
  define('trimsuffix', 2, 2, (args) => {
    const [text, suffix] = [str('trimsuffix', args[0]), str('trimsuffix', args[1], 2)];
    return suffix !== '' && text.endsWith(suffix) ? text.slice(0, -suffix.length) : text;
  }),
  define('trimspace', 1, 1, (args) => str('trimspace', args[0]).trim()),
  define('chomp', 1, 1, (args) => str('chomp', args[0]).replace(/(\r\n|\n|\r)+$/, '')),
  define('strrev', 1, 1, (args) => Array.from(str('strrev', args[0])).reverse().join('')),
  define('substr', 3, 3, substr),
  define('startswith', 2, 2, (args) => str('startswith', args[0]).startsWith(str('startswith', args[1], 2))),
  define('endswith', 2, 2, (args) => str('endswith', args[0]).endsWith(str('endswith', args[1], 2))),
  define('strcontains', 2, 2, (args) => str('strcontains', args[0]).includes(str('strcontains', args[1], 2))),
  define('toset', 1, 1, toSet),
  define('tolist', 1, 1, toList),
  define('tomap', 1, 1, toMap),
  define('tostring', 1, 1, toStringFunction),
  define('tonumber', 1, 1, toNumberFunction),
  define('tobool', 1, 1, toBoolFunction),
  define('concat', 0, MANY, (args) => args.flatMap((arg, i) => list('concat', arg, i + 1))),
  define('lookup', 2, 3, lookup),
  define('merge', 0, MANY, merge),
  define('coalesce', 1, MANY, coalesce),
  define('coalescelist', 1, MANY, coalesceList),
  define('element', 2, 2, element),
  define('keys', 1, 1, keys),
  define('values', 1, 1, values),
  define('length', 1, 1, length),
  define('contains', 2, 2, contains),
  define('distinct', 1, 1, distinct),
  define('flatten', 1, 1, (args) => flattenValues(list('flatten', args[0]))),
  define('compact', 1, 1, compact),
  define('reverse', 1, 1, (args) => [...list('reverse', args[0])].reverse()),
  define('sort', 1, 1, sort),
  define('range', 1, 3, range),
  define('zipmap', 2, 2, zipmap),
  define('slice', 3, 3, slice),
  define('index', 2, 2, indexOf),
  define('one', 1, 1, one),
  define('setunion', 1, MANY, setUnion),
  define('setintersection', 1, MANY, setIntersection),
  define('setsubtract', 2, 2, setSubtract),
  define('sum', 1, 1, (args) => list('sum', args[0]).reduce<number>((total, item) => total + num('sum', item), 0)),
  define('alltrue', 1, 1, (args) => list('alltrue', args[0]).every((item) => toBoolValue(item, 'an element'))),
  define('anytrue', 1, 1, (args) => list('anytrue', args[0]).some((item) => toBoolValue(item, 'an element'))),
  define('min', 1, MANY, extreme('min', Math.min)),
  define('max', 1, MANY, extreme('max', Math.max)),
  define('abs', 1, 1, (args) => Math.abs(num('abs', args[0]))),
  define('ceil', 1, 1, (args) => Math.ceil(num('ceil', args[0]))),
  define('floor', 1, 1, (args) => Math.floor(num('floor', args[0]))),
  define('signum', 1, 1, (args) => Math.sign(num('signum', args[0]))),
  define('pow', 2, 2, (args) => num('pow', args[0]) ** num('pow', args[1], 2)),
  define('parseint', 2, 2, parseInteger),
  define('jsonencode', 1, 1, (args) => jsonEncode(args[0])),
  define('jsondecode', 1, 1, jsonDecode),
  define('abspath', 1, 1, abspath),
  define('dirname', 1, 1, dirname),
  define('basename', 1, 1, basename),
]);
