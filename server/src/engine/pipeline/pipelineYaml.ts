/**
 * Block-style YAML for the generated pipelines: plain data (mappings in insertion order, lists,
 * strings, numbers, booleans, null) in the layout the `yaml` package uses, in a fraction of its
 * time (a 1,000-module pipeline is 1.5 MB: `yaml`'s generic Document takes ~400 ms for it on
 * this machine, far over the generator's 100 ms budget). A string is written plain only when it is safe for YAML 1.1 readers (GitLab's, GitHub's)
 * and 1.2 readers alike; anything else is double-quoted (JSON's string syntax is valid YAML), so
 * `on`, `yes`, `no`, `1.0`, `x: y`, `#x` keep their type. The unit tests parse the output back
 * with `yaml` as YAML 1.1 and compare it with the input.
 *
 * Speed: the text of a large pipeline is collected as short pieces joined once per top-level
 * entry (a job), not grown with `+=`. A string grown piece by piece is a tree of millions of
 * small nodes that all stay alive until the end, and the garbage collector copies and marks
 * them again and again; the pieces of one entry die young instead.
 */
export function yamlText(value: unknown): string {
  if (isMapping(value) && hasEntries(value)) return yamlEntries(Object.entries(value), 0);
  if (Array.isArray(value) && value.length > 0) {
    const out: string[] = [];
    sequence(out, value, 0);
    return out.join('');
  }
  return `${inline(value)}\n`;
}

/**
 * The entries of a block mapping indented by `indent` spaces, as `yamlText` writes a mapping:
 * entries with an undefined value are left out. The entries may be produced one at a time (a
 * generator), so a pipeline's jobs need not all exist at once.
 */
export function yamlEntries(entries: Iterable<readonly [string, unknown]>, indent: number): string {
  const chunks: string[] = [];
  for (const [key, value] of entries) if (value !== undefined) chunks.push(yamlEntry(key, value, indent));
  return chunks.join('');
}

/** One `key: value` entry of a block mapping indented by `indent` spaces (its nested lines below it). */
export function yamlEntry(key: string, value: unknown, indent: number): string {
  const out: string[] = [];
  // Not from the cache of openers: top-level keys are job names, each seen once.
  const start = `${spaces(indent)}${scalar(key)}:`;
  valueText(out, { inline: `${start} `, block: `${start}\n` }, value, indent + 2);
  return out.join('');
}

/** The `key:` line that opens a nested block, whose lines the caller writes (indented further). */
export function yamlBlockKey(key: string, indent: number): string {
  return `${spaces(indent)}${scalar(key)}:\n`;
}

function mapping(out: string[], map: Record<string, unknown>, indent: number): void {
  for (const key in map) {
    const item = map[key];
    if (item !== undefined) valueText(out, keyOpener(key, indent, false), item, indent + 2);
  }
}

function sequence(out: string[], list: readonly unknown[], indent: number): void {
  for (const item of list) {
    const texts = constantTextsOf(item);
    if (texts === undefined) listItem(out, item, indent);
    else reuse(out, texts.item, indent, (itemOut) => listItem(itemOut, item, indent));
  }
}

function listItem(out: string[], item: unknown, indent: number): void {
  if (isMapping(item) && hasEntries(item)) {
    // `- key: value`, the other keys aligned under the first.
    let first = true;
    for (const key in item) {
      const value = item[key];
      if (value === undefined) continue;
      valueText(out, first ? keyOpener(key, indent, true) : keyOpener(key, indent + 2, false), value, indent + 4);
      first = false;
    }
  } else valueText(out, dashOpener(indent), item, indent + 2);
}

/**
 * The start of a line that holds a value, `key:` or `-` after the indentation, in its two forms:
 * before an inline value (`key: `) and before a nested block on the next lines (`key:\n`).
 */
interface Opener {
  inline: string;
  block: string;
}

/** An inline scalar or empty collection after `opener`, or a nested block indented by `indent` below it. */
function valueText(out: string[], opener: Opener, value: unknown, indent: number): void {
  const anchor = anchorOf(value);
  if (anchor?.written) {
    out.push(opener.inline, '*', anchor.name, '\n');
    return;
  }
  if (isFlow(value)) {
    out.push(opener.inline);
    if (anchor) {
      anchor.written = true;
      out.push('&', anchor.name, ' ');
    }
    out.push(flow(value), '\n');
    return;
  }
  if (!((isMapping(value) && hasEntries(value)) || (Array.isArray(value) && value.length > 0))) {
    out.push(opener.inline, inline(value), '\n');
    return;
  }
  if (anchor !== undefined) {
    // The first place a value is written names it; every later place refers to it (above).
    anchor.written = true;
    out.push(opener.inline, '&', anchor.name, '\n');
  } else out.push(opener.block);
  const texts = constantTextsOf(value);
  if (texts === undefined) block(out, value, indent);
  else reuse(out, texts.block, indent, (blockOut) => block(blockOut, value, indent));
}

function block(out: string[], value: object, indent: number): void {
  if (Array.isArray(value)) sequence(out, value, indent);
  else mapping(out, value as Record<string, unknown>, indent);
}

/** The text `write` makes at `indent`, made the first time only and then taken from `texts`. */
function reuse(out: string[], texts: string[], indent: number, write: (out: string[]) => void): void {
  let text = texts[indent];
  if (text === undefined) {
    const fresh: string[] = [];
    write(fresh);
    text = fresh.join('');
    texts[indent] = text;
  }
  out.push(text);
}

/**
 * A value the writer writes once per place (as a list item or a nested block, per indentation)
 * and then reuses the text of: for the parts a pipeline repeats in every job, such as GitHub's
 * checkout and setup steps. Frozen, all the way down, so that it cannot change under its text.
 * Returns `value`.
 */
export function yamlConstant<T extends object>(value: T): T {
  freezeDeep(value);
  constantTexts.set(value, { item: [], block: [] });
  return value;
}

/**
 * How the writer is to write a collection, kept on the collection itself under symbols that are not
 * enumerable (entries, spreads and JSON never see them): a registry of 20,000 collections a pipeline
 * (a `WeakSet`, a `WeakMap`) cost a tenth of generating one, most of it the garbage collector's.
 */
const FLOW = Symbol('yaml flow');
const ANCHOR = Symbol('yaml anchor');
interface Marked {
  [FLOW]?: true;
  [ANCHOR]?: { name: string; written: boolean };
}

/**
 * A mapping or list written in full where it is first written as a mapping value (`key: &name`),
 * and as an alias (`key: *name`) everywhere after: for what two jobs of a module share. `name`
 * must be a YAML anchor name (letters, digits, `-`, `_`) unique in the document. Returns `value`.
 */
export function yamlAnchored<T extends object>(name: string, value: T): T {
  Object.defineProperty(value, ANCHOR, { value: { name, written: false } });
  return value;
}

function anchorOf(value: unknown): { name: string; written: boolean } | undefined {
  return typeof value === 'object' && value !== null ? (value as Marked)[ANCHOR] : undefined;
}

function isFlow(value: unknown): value is object {
  return typeof value === 'object' && value !== null && (value as Marked)[FLOW] === true;
}

/**
 * A list of scalars or a mapping of scalars written on one line, `[a, b]` or `{ k: v }`: for the
 * short collections every job has (its needs, its variables), where a line per item costs more
 * bytes than the items. Returns `value`.
 */
export function yamlFlow<T extends readonly unknown[] | Record<string, string | number | boolean>>(value: T): T {
  Object.defineProperty(value, FLOW, { value: true });
  return value;
}

function flow(value: object): string {
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[${value.map(flowScalar).join(', ')}]`;
  const entries = Object.entries(value).filter(([, item]) => item !== undefined);
  if (entries.length === 0) return '{}';
  return `{ ${entries.map(([key, item]) => `${flowScalar(key)}: ${flowScalar(item)}`).join(', ')} }`;
}

/** A scalar inside `[...]` or `{...}`, where `,` and brackets end a plain scalar: such text is quoted. */
function flowScalar(value: unknown): string {
  if (typeof value === 'object' && value !== null) throw new TypeError('a flow collection holds scalars only');
  const text = inline(value);
  return typeof value === 'string' && /[,[\]{}]/.test(text) && !text.startsWith('"') ? JSON.stringify(value) : text;
}

/** A constant's text by indentation: as a list item (`- ...`) and as the lines of a nested block. */
interface ConstantTexts {
  item: string[];
  block: string[];
}
const constantTexts = new WeakMap<object, ConstantTexts>();

function constantTextsOf(value: unknown): ConstantTexts | undefined {
  return typeof value === 'object' && value !== null ? constantTexts.get(value) : undefined;
}

function freezeDeep(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  for (const item of Object.values(value)) freezeDeep(item);
  Object.freeze(value);
}

/**
 * Openers made once per key and indentation: most keys recur in every job, and the cost of a
 * large pipeline's text is the number of pieces joined (three per line of a key and a value
 * this way, opener, value and newline, against six with indentation, key, colon and space
 * apart). Keys are the pipeline's own and the configuration's, a few dozen; the limit only
 * guards against a caller writing arbitrary data.
 */
const keyOpeners: Map<string, Opener>[] = [];
const dashKeyOpeners: Map<string, Opener>[] = [];
const MAX_CACHED_KEYS = 10_000;
let cachedKeys = 0;

function keyOpener(key: string, indent: number, dash: boolean): Opener {
  const byIndent = dash ? dashKeyOpeners : keyOpeners;
  let openers = byIndent[indent];
  if (openers === undefined) {
    openers = new Map();
    byIndent[indent] = openers;
  }
  let opener = openers.get(key);
  if (opener === undefined) {
    if (++cachedKeys > MAX_CACHED_KEYS) {
      for (const cache of [...keyOpeners, ...dashKeyOpeners]) cache?.clear();
      cachedKeys = 1;
    }
    const start = `${spaces(indent)}${dash ? '- ' : ''}${scalar(key)}:`;
    opener = { inline: `${start} `, block: `${start}\n` };
    openers.set(key, opener);
  }
  return opener;
}

/** `- ` before an inline value, `-\n` before a nested block. */
const dashOpeners: Opener[] = [];
function dashOpener(indent: number): Opener {
  dashOpeners[indent] ??= { inline: `${spaces(indent)}- `, block: `${spaces(indent)}-\n` };
  return dashOpeners[indent];
}

/** Indentation strings made once, not once per line. */
const SPACES: string[] = [''];
function spaces(count: number): string {
  while (SPACES.length <= count) SPACES.push(`${SPACES.at(-1)} `);
  return SPACES[count]!;
}

/** Whether a mapping has an entry to write (entries with an undefined value are left out). */
function hasEntries(map: Record<string, unknown>): boolean {
  for (const key in map) if (map[key] !== undefined) return true;
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

/**
 * Plain when unambiguous for YAML 1.1 and 1.2, else double-quoted. Not cached: a cache keyed by
 * string hashes every string it sees (most of a pipeline's are new: paths, job names) and holds
 * them all, which costs more than the test it saves.
 */
export function scalar(text: string): string {
  return isPlainSafe(text) ? text : JSON.stringify(text);
}

/** Letters, digits and a few punctuation marks; no `: `, ` #`, leading indicator or trailing space. */
const PLAIN =
  /^[A-Za-z_$/.(~][\w$/.()@%+=,'"~*^-]*(?: [\w$/.()@%+=,'"~*^|&<>!?[\]{}:-]*[\w$/.()@%+=,'"~*^|&<>!?[\]{}-])*$/;
/** YAML 1.1 booleans and nulls (the 1.2 ones are among them), `.inf` / `.nan`. */
const SPECIAL =
  /^(?:[yYnN~]|yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|\.(?:inf|Inf|INF|nan|NaN|NAN))$/;
/** The longest word `SPECIAL` matches (`false`): longer strings need not be tested. */
const SPECIAL_MAX_LENGTH = 5;

/** YAML 1.1 reads `.5`, `.` and `.1e+3` as floats. */
const FLOAT_LIKE = /^\.[0-9.]*(?:[eE][-+]?[0-9]+)?$/;

/**
 * The common case: names, paths, ids and commands (words of letters, digits and `_./=-`, one
 * space apart, the first starting with a letter, `_` or `/`). Every such string passes `PLAIN`
 * and none holds `: `, ` #` or starts like a float, so one test decides it.
 */
const SIMPLE = /^[A-Za-z_/][\w./=-]*(?: [\w./=-]+)*$/;

function isPlainSafe(text: string): boolean {
  const special = text.length <= SPECIAL_MAX_LENGTH && SPECIAL.test(text);
  if (SIMPLE.test(text)) return !special;
  if (!PLAIN.test(text) || special || FLOAT_LIKE.test(text)) return false;
  // `: ` inside a plain scalar starts a mapping; a word ending in `:` before a space too.
  return !/:(?: |$)/.test(text) && !/ #/.test(text);
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
