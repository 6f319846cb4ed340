import assert from 'node:assert/strict';

/**
 * GitHub Actions expressions as the runner evaluates them (docs.github.com/actions/reference/evaluate-expressions),
 * the part the generated workflows use: literals, contexts (`needs.module-a.outputs.starts`, the filter
 * `needs.*.result`), `!`, `==`, `!=`, `&&`, `||` (which give an operand, not a boolean), parentheses, and the
 * functions contains, format, join, toJSON and the status checks, from `status`: `failure()` (a job's: any
 * ancestor job failed), `cancelled()` (the run was cancelled), `always()`.
 * Strings compare ignoring case, as GitHub's do. Anything else fails the test.
 */
export type GithubValue = string | number | boolean | null | GithubValue[] | { [key: string]: GithubValue };

/** What the status check functions say. */
export interface GithubStatus {
  failure: boolean;
  cancelled: boolean;
}

const RUNNING: GithubStatus = { failure: false, cancelled: false };

/** `text` with each `${{ … }}` replaced by its value (an object or array as JSON). */
export function githubTemplate(text: string, context: Record<string, GithubValue>): string {
  return githubSubstituted(text, (expression) => asString(githubExpression(expression, context)));
}

/**
 * `text` with each `${{ … }}`, which ends at the first `}}` outside a quoted string (as actions/runner's
 * template reader finds it), replaced by what `evaluate` makes of the expression inside.
 */
export function githubSubstituted(text: string, evaluate: (expression: string) => string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const start = text.indexOf('${{', at);
    if (start < 0) return out + text.slice(at);
    out += text.slice(at, start);
    let end = -1;
    let quoted = false;
    for (let i = start + 3; i < text.length && end < 0; i++) {
      if (text[i] === "'") quoted = !quoted;
      else if (!quoted && text[i] === '}' && text[i - 1] === '}') end = i;
    }
    assert.ok(end > 0, `an expression that is not closed: ${text}`);
    out += evaluate(text.slice(start + 3, end - 1));
    at = end + 1;
  }
}

/** An `if:`'s value: its expression, with or without `${{ }}` around it, as a boolean. */
export function githubCondition(
  text: string,
  context: Record<string, GithubValue>,
  status: GithubStatus = RUNNING,
): boolean {
  const trimmed = text.trim();
  const inner = trimmed.startsWith('${{') && trimmed.endsWith('}}') ? trimmed.slice(3, -2) : trimmed;
  return truthy(githubExpression(inner, context, status));
}

export function githubExpression(
  source: string,
  context: Record<string, GithubValue>,
  status: GithubStatus = RUNNING,
): GithubValue {
  const tokens = tokenize(source);
  let at = 0;
  const peek = () => tokens[at];
  const take = (expected?: string) => {
    const token = tokens[at++];
    if (expected !== undefined) assert.equal(token, expected, `in ${source}`);
    return token!;
  };
  const or = (): GithubValue => {
    let left = and();
    while (peek() === '||') {
      take();
      const right = and();
      left = truthy(left) ? left : right;
    }
    return left;
  };
  const and = (): GithubValue => {
    let left = comparison();
    while (peek() === '&&') {
      take();
      const right = comparison();
      left = truthy(left) ? right : left;
    }
    return left;
  };
  const comparison = (): GithubValue => {
    const left = unary();
    if (peek() === '==' || peek() === '!=') {
      const op = take();
      const same = equal(left, unary());
      return op === '==' ? same : !same;
    }
    return left;
  };
  const unary = (): GithubValue => {
    if (peek() === '!') {
      take();
      return !truthy(unary());
    }
    return primary();
  };
  const primary = (): GithubValue => {
    const token = take();
    assert.ok(token !== undefined, `an expression that ends early: ${source}`);
    if (token === '(') {
      const value = or();
      take(')');
      return value;
    }
    if (token.startsWith("'")) return token.slice(1, -1).replaceAll("''", "'");
    if (/^\d/.test(token)) return Number(token);
    if (token === 'true' || token === 'false') return token === 'true';
    if (token === 'null') return null;
    if (peek() === '(') {
      take();
      const args: GithubValue[] = [];
      while (peek() !== ')') {
        args.push(or());
        if (peek() === ',') take();
      }
      take(')');
      return call(token, args, status);
    }
    let value: GithubValue | GithubValue[] = context[token] ?? null;
    let filtered = false;
    while (peek() === '.') {
      take();
      const key = take();
      if (key === '*') {
        value = isObject(value) ? Object.values(value) : [];
        filtered = true;
      } else if (filtered)
        value = (value as GithubValue[]).map((item) => (isObject(item) ? (item[key] ?? null) : null));
      else value = isObject(value) ? (value[key] ?? null) : null;
    }
    return value;
  };
  const value = or();
  assert.equal(at, tokens.length, `an expression with more after it: ${source}`);
  return value;
}

function call(name: string, args: GithubValue[], status: GithubStatus): GithubValue {
  switch (name) {
    case 'contains': {
      const [search, item] = args;
      if (Array.isArray(search)) return search.some((element) => equal(element, item ?? null));
      return asString(search ?? null)
        .toLowerCase()
        .includes(asString(item ?? null).toLowerCase());
    }
    case 'format':
      return asString(args[0] ?? null).replace(/\{(\d+)\}/g, (_, index: string) =>
        asString(args[Number(index) + 1] ?? null),
      );
    case 'join': {
      const [items, separator] = args;
      const list = Array.isArray(items) ? items : [items ?? null];
      return list.map((item) => asString(item)).join(separator === undefined ? ',' : asString(separator));
    }
    case 'toJSON':
      return JSON.stringify(args[0] ?? null, null, 2);
    case 'cancelled':
      return status.cancelled;
    case 'failure':
      return status.failure;
    case 'always':
      return true;
    default:
      assert.fail(`a function this evaluator does not know: ${name}`);
  }
}

function tokenize(source: string): string[] {
  const tokens: string[] = [];
  const pattern = /\s*('(?:[^']|'')*'|&&|\|\||==|!=|[!().,*]|[A-Za-z_][A-Za-z0-9_-]*|\d+(?:\.\d+)?)/y;
  let at = 0;
  while (at < source.length) {
    if (/^\s*$/.test(source.slice(at))) break;
    pattern.lastIndex = at;
    const match = pattern.exec(source);
    assert.ok(match, `a token this evaluator does not know at ${at} in ${source}`);
    tokens.push(match[1]!);
    at = pattern.lastIndex;
  }
  return tokens;
}

function isObject(value: unknown): value is { [key: string]: GithubValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function truthy(value: GithubValue): boolean {
  return value !== null && value !== false && value !== 0 && value !== '';
}

function equal(left: GithubValue, right: GithubValue): boolean {
  if (typeof left === 'string' && typeof right === 'string') return left.toLowerCase() === right.toLowerCase();
  return left === right;
}

function asString(value: GithubValue): string {
  if (value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value, null, 2);
  return String(value);
}
