import type { RE2JS } from 're2js';
import type { Value } from './value';
import { EvaluationError } from './valueConversion';

/**
 * Terraform's regular expressions are Go's `regexp`: RE2 syntax (`(?P<name>…)`, `\A`, `[[:alpha:]]`,
 * inline flags) and time linear in the input whatever the pattern, so that a pattern such as
 * `^(a+)+$` cannot freeze the server as the user types it. RE2JS is a port of that engine; what it
 * leaves JavaScript-shaped (which empty matches count, how `$1` expands) follows Go here.
 */

/** RE2JS, loaded at the first regular expression: most workspaces use none, and each start paid for it. */
let re2js: typeof import('re2js') | undefined;

export function compileGoRegexp(pattern: string): RE2JS {
  re2js ??= require('re2js') as typeof import('re2js');
  try {
    return re2js.RE2JS.compile(pattern);
  } catch (error) {
    throw new EvaluationError(`invalid regular expression ${JSON.stringify(pattern)}: ${(error as Error).message}`);
  }
}

/** Every match, as Go's `FindAll` finds them: an empty match right after a match does not count. */
export function goFindAll(re: RE2JS, text: string): RegExpMatchArray[] {
  const matches: RegExpMatchArray[] = [];
  let previousEnd = -1;
  for (const match of re.matchAll(text)) {
    const start = match.index ?? 0;
    const end = start + match[0].length;
    if (start === end && start === previousEnd) continue;
    matches.push(match);
    previousEnd = end;
  }
  return matches;
}

/** Go's `ReplaceAllString`: each match replaced by the template with its `$1`, `${1}`, `$name` expanded. */
export function goReplaceAll(re: RE2JS, text: string, template: string): string {
  const names = re.namedGroups();
  let result = '';
  let from = 0;
  for (const match of goFindAll(re, text)) {
    const start = match.index ?? 0;
    result += text.slice(from, start) + goExpand(template, match, names);
    from = start + match[0].length;
  }
  return result + text.slice(from);
}

/** Go's `Regexp.Expand`: `$$` is `$`; a reference to no group, or one that did not match, is empty. */
function goExpand(template: string, match: RegExpMatchArray, names: Record<string, number>): string {
  let result = '';
  let rest = template;
  for (let dollar = rest.indexOf('$'); dollar >= 0; dollar = rest.indexOf('$')) {
    result += rest.slice(0, dollar);
    rest = rest.slice(dollar + 1);
    if (rest.startsWith('$')) {
      result += '$';
      rest = rest.slice(1);
      continue;
    }
    const reference = GROUP_REFERENCE.exec(rest);
    if (!reference) {
      result += '$';
      continue;
    }
    rest = rest.slice(reference[0].length);
    const name = reference[1] ?? reference[2];
    const group = groupNumber(name) ?? (Object.hasOwn(names, name) ? names[name] : undefined);
    if (group !== undefined) result += match[group] ?? '';
  }
  return result + rest;
}

/** `${name}` or the longest run of letters, digits and `_` (Go's rule, so `$1x` names the group `1x`). */
const GROUP_REFERENCE = /^(?:\{([\p{L}\p{Nd}_]+)\}|([\p{L}\p{Nd}_]+))/u;

function groupNumber(name: string): number | undefined {
  if (!/^\d+$/.test(name) || (name.length > 1 && name.startsWith('0')) || name.length > 8) return undefined;
  return Number(name);
}

/**
 * Terraform's `regex` result for one match: the matched text when the pattern has no groups, the
 * groups as a list, or as an object when they are named. A group that did not take part is null.
 */
export function goMatchValue(re: RE2JS, match: RegExpMatchArray): Value {
  const names = Object.entries(re.namedGroups());
  if (names.length > 0) {
    const groups: Record<string, Value> = {};
    for (const [name, index] of names) groups[name] = match[index] ?? null;
    return groups;
  }
  if (re.groupCount() > 0) return Array.from({ length: re.groupCount() }, (_, i) => match[i + 1] ?? null);
  return match[0];
}
