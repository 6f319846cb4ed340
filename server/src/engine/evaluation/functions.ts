import {
  coalesce,
  coalesceList,
  compact,
  contains,
  distinct,
  element,
  flattenValues,
  indexOf,
  keys,
  length,
  lookup,
  merge,
  one,
  range,
  setIntersection,
  setSubtract,
  setUnion,
  slice,
  sort,
  values,
  zipmap,
} from './collectionFunctions';
import { jsonDecode, jsonEncode } from './encodingFunctions';
import { abspath, basename, dirname } from './filesystemFunctions';
import { formatValue } from './formatVerbs';
import { define, type Fn, type FunctionScope, list, MANY, num, str } from './functionArguments';
import { extreme, parseInteger } from './numericFunctions';
import { formatList, join, regex, regexAll, replace, split, substr, title, trim } from './stringFunctions';
import { toBoolFunction, toList, toMap, toNumberFunction, toSet, toStringFunction } from './typeConversionFunctions';
import { isUnknown, mergeUnknowns, unknown, type Value } from './value';
import { catchValue, deepUnknown, toBoolValue } from './valueConversion';

/**
 * Terraform's built-in functions on our values. Arguments arrive evaluated; when one of them is
 * unknown the result is unknown with its reasons (Terraform's default), except for the functions
 * that decide on their own (`coalesce`, `try`, `can`). Errors become unknowns with `error: true`.
 *
 * The table at the end names every function with its argument count; those longer than a line are
 * in files by Terraform's groups of functions (`stringFunctions.ts`, `collectionFunctions.ts`, …).
 */

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
