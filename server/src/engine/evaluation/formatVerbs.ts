import { goJsonString, jsonEncode } from './encodingFunctions';
import { str } from './functionArguments';
import { isObjectValue, type Value } from './value';
import { EvaluationError, formatNumber, known, toBoolValue, toNumberValue, toStringValue } from './valueConversion';

/** Terraform's `format` (and so `formatlist`): Go's `%` verbs on our values. */

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
