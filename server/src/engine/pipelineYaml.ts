/**
 * Block-style YAML for the generated pipelines: plain data (mappings in insertion order, lists,
 * strings, numbers, booleans, null) in the layout the `yaml` package uses, in a fraction of its
 * time (a 1,000-module pipeline is 1.5 MB: `yaml`'s generic Document takes ~400 ms for it on
 * this machine, far over the generator's 100 ms budget). A string is written plain only when it is safe for YAML 1.1 readers (GitLab's, GitHub's)
 * and 1.2 readers alike; anything else is double-quoted (JSON's string syntax is valid YAML), so
 * `on`, `yes`, `no`, `1.0`, `x: y`, `#x` keep their type. The unit tests parse the output back
 * with `yaml` as YAML 1.1 and compare it with the input.
 */
export function yamlText(value: unknown): string {
  if (isMapping(value) && hasKeys(value)) return mapping(value, '');
  if (Array.isArray(value) && value.length > 0) return sequence(value, '');
  return `${inline(value)}\n`;
}

function mapping(map: Record<string, unknown>, indent: string): string {
  let text = '';
  for (const key in map) {
    const item = map[key];
    if (item !== undefined) text += `${indent}${scalar(key)}:${valueText(item, `${indent}  `)}`;
  }
  return text;
}

function sequence(list: readonly unknown[], indent: string): string {
  let text = '';
  const nested = `${indent}    `;
  for (const item of list) {
    text += `${indent}-`;
    if (isMapping(item) && hasKeys(item)) {
      // `- key: value`, the other keys aligned under the first.
      let first = true;
      for (const key in item) {
        const value = item[key];
        if (value === undefined) continue;
        text += `${first ? ' ' : `${indent}  `}${scalar(key)}:${valueText(value, nested)}`;
        first = false;
      }
    } else text += valueText(item, `${indent}  `);
  }
  return text;
}

/** What follows `key:` or `-`: an inline scalar or empty collection, or a nested block on the next lines. */
function valueText(value: unknown, indent: string): string {
  if (isMapping(value) && hasKeys(value)) return `\n${mapping(value, indent)}`;
  if (Array.isArray(value) && value.length > 0) return `\n${sequence(value, indent)}`;
  return ` ${inline(value)}\n`;
}

function hasKeys(map: Record<string, unknown>): boolean {
  for (const _ in map) return true;
  return false;
}

function inline(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return scalar(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : scalar(String(value));
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return '[]';
  if (isMapping(value)) return '{}';
  throw new TypeError(`cannot write ${typeof value} as YAML`);
}

/** Plain when unambiguous for YAML 1.1 and 1.2, else double-quoted. Pipelines repeat most strings: cached. */
export function scalar(text: string): string {
  let written = scalarCache.get(text);
  if (written === undefined) {
    written = isPlainSafe(text) ? text : JSON.stringify(text);
    if (scalarCache.size > 1_000_000) scalarCache.clear();
    scalarCache.set(text, written);
  }
  return written;
}
const scalarCache = new Map<string, string>();

/** Letters, digits and a few punctuation marks; no `: `, ` #`, leading indicator or trailing space. */
const PLAIN =
  /^[A-Za-z_$/.(~][\w$/.()@%+=,'"~*^-]*(?: [\w$/.()@%+=,'"~*^|&<>!?[\]{}:-]*[\w$/.()@%+=,'"~*^|&<>!?[\]{}-])*$/;
/** YAML 1.1 booleans and nulls (the 1.2 ones are among them), `.inf` / `.nan`. */
const SPECIAL =
  /^(?:[yYnN~]|yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|\.(?:inf|Inf|INF|nan|NaN|NAN))$/;

/** YAML 1.1 reads `.5`, `.` and `.1e+3` as floats. */
const FLOAT_LIKE = /^\.[0-9.]*(?:[eE][-+]?[0-9]+)?$/;

/** The common case (names, paths, ids): one cheap test. */
const SIMPLE = /^[A-Za-z_/][\w./-]*$/;

function isPlainSafe(text: string): boolean {
  if (SIMPLE.test(text)) return !SPECIAL.test(text);
  if (!PLAIN.test(text) || SPECIAL.test(text) || FLOAT_LIKE.test(text)) return false;
  // `: ` inside a plain scalar starts a mapping; a word ending in `:` before a space too.
  return !/:(?: |$)/.test(text) && !/ #/.test(text);
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
