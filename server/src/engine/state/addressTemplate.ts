import { type Hole, isHole, type Template } from '../evaluation';

/**
 * Two state addresses with unknown parts (templates: literal text with holes, see
 * evaluation/textTemplate.ts) spells when one string can be read from both; the alignment that shows it says
 * what each hole would have to be: the bindings an inferred edge records.
 */

/** What a hole of one side stands for in a spells: the other side's text, or undefined where that is a hole too. */
export interface Binding {
  readonly hole: string;
  readonly side: 'reader' | 'writer';
  readonly value: string | undefined;
}

/*
 * Unification works on tokens: a character, or a hole. A hole stands for one or more characters (an
 * empty variable would make keys like `/search.tfstate`, which nobody writes), with no `/` for a
 * workspace. The search is the usual one for two patterns with wildcards: a table over positions in
 * both, filled from the end, whose cell says whether the rests can still spell one common string.
 */
type Token = { char: string } | { hole: Hole; side: 'reader' | 'writer' };

function tokens(parts: Template, side: 'reader' | 'writer'): Token[] {
  const out: Token[] = [];
  for (const part of parts) {
    if (isHole(part)) out.push({ hole: part, side });
    else for (const char of part) out.push({ char });
  }
  return out;
}

const isChar = (token: Token): token is { char: string } => 'char' in token;

/** Whether a hole may take this character. */
function takes(hole: Hole, char: string): boolean {
  return !(hole.segment && char === '/');
}

/**
 * Whether `reader` and `writer` can be the same address, and if so what each hole stands for in one
 * alignment that shows it (a hole facing only text takes that text; a hole facing a hole is unknown).
 * Undefined when they cannot.
 */
export function unify(reader: Template, writer: Template): Binding[] | undefined {
  const a = tokens(reader, 'reader');
  const b = tokens(writer, 'writer');
  const width = b.length + 1;
  // fits[i*width+j]: a[i..] and b[j..] can spell one string, where a hole at a[i] (b[j]) has already
  // taken a character when `open` says so. Four tables: open/closed for each side's current hole.
  const cells = (a.length + 1) * width;
  const memo = new Int8Array(cells * 4).fill(-1);

  // A hole "opens" once it has taken a character; an open hole may stop before the next token.
  const spells = (i: number, j: number, openA: boolean, openB: boolean): boolean => {
    const key = ((i * width + j) << 2) | (openA ? 2 : 0) | (openB ? 1 : 0);
    const known = memo[key]!;
    if (known !== -1) return known === 1;
    let result = false;
    const ta = a[i];
    const tb = b[j];
    if (ta === undefined && tb === undefined) result = true;
    else if (ta !== undefined && !isChar(ta) && openA && spells(i + 1, j, false, openB)) result = true;
    else if (tb !== undefined && !isChar(tb) && openB && spells(i, j + 1, openA, false)) result = true;
    else if (ta !== undefined && tb !== undefined) {
      if (isChar(ta) && isChar(tb)) result = ta.char === tb.char && spells(i + 1, j + 1, false, false);
      else if (!isChar(ta) && isChar(tb)) result = takes(ta.hole, tb.char) && spells(i, j + 1, true, false);
      else if (isChar(ta) && !isChar(tb)) result = takes(tb.hole, ta.char) && spells(i + 1, j, false, true);
      // Two holes facing each other take one common character (one that is not '/', which any hole
      // takes); once both have, taking more changes nothing: only ending one of them moves on.
      else if (!(openA && openB)) result = spells(i, j, true, true);
    }
    memo[key] = result ? 1 : 0;
    return result;
  };
  if (!spells(0, 0, false, false)) return undefined;
  return bindings(a, b, spells);
}

/** Walks one alignment the table allows and reads what each hole faced. */
function bindings(
  a: Token[],
  b: Token[],
  spells: (i: number, j: number, openA: boolean, openB: boolean) => boolean,
): Binding[] {
  const facing = new Map<Hole, { side: 'reader' | 'writer'; text: string; unknown: boolean }>();
  const note = (token: Token, text: string, unknown: boolean) => {
    if (isChar(token)) return;
    const seen = facing.get(token.hole) ?? { side: token.side, text: '', unknown: false };
    facing.set(token.hole, { side: seen.side, text: seen.text + text, unknown: seen.unknown || unknown });
  };
  let i = 0;
  let j = 0;
  let openA = false;
  let openB = false;
  while (i < a.length || j < b.length) {
    const ta = a[i];
    const tb = b[j];
    if (ta !== undefined && !isChar(ta) && openA && spells(i + 1, j, false, openB)) {
      i++;
      openA = false;
    } else if (tb !== undefined && !isChar(tb) && openB && spells(i, j + 1, openA, false)) {
      j++;
      openB = false;
    } else if (ta !== undefined && tb !== undefined && isChar(ta) && isChar(tb)) {
      i++;
      j++;
    } else if (ta !== undefined && tb !== undefined && !isChar(ta) && isChar(tb)) {
      note(ta, tb.char, false);
      j++;
      openA = true;
      openB = false;
    } else if (ta !== undefined && tb !== undefined && isChar(ta) && !isChar(tb)) {
      note(tb, ta.char, false);
      i++;
      openB = true;
      openA = false;
    } else if (ta !== undefined && tb !== undefined && !(openA && openB)) {
      // Two holes take one common character: neither is known from the other.
      note(ta, '', true);
      note(tb, '', true);
      openA = true;
      openB = true;
    } else break;
  }
  return [...facing].map(([hole, seen]) => ({
    hole: hole.hole,
    side: seen.side,
    value: seen.unknown ? undefined : seen.text,
  }));
}

/** Bindings as the JSON form shows them: each hole's value, null where it stays unknown. */
export function assumedValues(bindings: readonly Binding[]): Record<string, string | null> {
  const values: Record<string, string | null> = {};
  for (const binding of bindings) values[binding.hole] = binding.value ?? null;
  return values;
}

/** Bindings as a person reads them: `var.stack = "blue", bucket: unknown`. */
export function describeAssumed(bindings: readonly Binding[]): string {
  return bindings
    .map((binding) =>
      binding.value === undefined ? `${binding.hole}: unknown` : `${binding.hole} = ${JSON.stringify(binding.value)}`,
    )
    .join(', ');
}
