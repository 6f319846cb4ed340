import leven from 'leven';

/** How many names a "did you mean" offers. */
const MAX_SUGGESTIONS = 3;
/**
 * Past this many characters a misspelt name gets no suggestion: an edit distance costs the product of
 * the two lengths, and a name that long was not typed by hand.
 */
const MAX_NAME_LENGTH = 100;
/** Up to this many declared names, each is compared (those whose length or letters rule it out cheaply aside). */
const COMPARE_ALL = 1000;
/**
 * Past that, the names nearest in alphabetical order, and in the order of their reversed texts, this many on
 * each side: a typo leaves the part before it or the part after it intact, and the name meant sorts beside
 * the misspelt one by that part.
 */
const NEIGHBOURS = 64;

/**
 * The declared names closest to a misspelt one, nearest first: those within a third of its length in
 * edits (at least two), as a reader who typed `private_subnet_idz` meant `private_subnet_ids`.
 */
export function closestNames(name: string, declared: readonly string[]): string[] {
  if (name.length > MAX_NAME_LENGTH || declared.length === 0) return [];
  const index = nameIndex(declared);
  let found = index.answers.get(name);
  if (!found) {
    found = nearest(name, index.all.length <= COMPARE_ALL ? index.all : neighbours(index, name));
    index.answers.set(name, found);
  }
  return found;
}

/** A list of declared names made ready for the misses of its names: built once per list. */
interface NameIndex {
  all: readonly Candidate[];
  /** Sorted by name, and by reversed name (for the larger lists only). */
  byName: readonly Candidate[];
  byReversed: readonly Candidate[];
  answers: Map<string, string[]>;
}

interface Candidate {
  name: string;
  reversed: string;
  letters: number;
}

const indexes = new WeakMap<readonly string[], NameIndex>();

function nameIndex(declared: readonly string[]): NameIndex {
  let index = indexes.get(declared);
  if (!index) {
    const all = [...new Set(declared)]
      .filter((name) => name.length <= MAX_NAME_LENGTH + MAX_NAME_LENGTH / 3)
      .map((name) => ({ name, reversed: [...name].reverse().join(''), letters: letterMask(name) }));
    const large = all.length > COMPARE_ALL;
    index = {
      all,
      byName: large ? [...all].sort((a, b) => compare(a.name, b.name)) : [],
      byReversed: large ? [...all].sort((a, b) => compare(a.reversed, b.reversed)) : [],
      answers: new Map(),
    };
    indexes.set(declared, index);
  }
  return index;
}

/** The names beside `name` in both orders of a large list, each once. */
function neighbours(index: NameIndex, name: string): Candidate[] {
  const found = new Set<Candidate>();
  const around = (sorted: readonly Candidate[], key: (candidate: Candidate) => string, text: string) => {
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (compare(key(sorted[mid]!), text) < 0) low = mid + 1;
      else high = mid;
    }
    const from = Math.max(0, low - NEIGHBOURS);
    for (const candidate of sorted.slice(from, low + NEIGHBOURS)) found.add(candidate);
  };
  around(index.byName, (candidate) => candidate.name, name);
  around(index.byReversed, (candidate) => candidate.reversed, [...name].reverse().join(''));
  return [...found];
}

/**
 * The candidates within the name's limit of edits, nearest first (then by name), at most three. Once three
 * are found, the limit tightens to the third's distance: a candidate further in length, or whose letters
 * differ more (each edit changes at most two letters of the set a name uses), is not compared.
 */
function nearest(name: string, candidates: readonly Candidate[]): string[] {
  let limit = Math.max(2, Math.floor(name.length / 3));
  const letters = letterMask(name);
  const best: { name: string; distance: number }[] = [];
  for (const candidate of candidates) {
    if (Math.abs(candidate.name.length - name.length) > limit) continue;
    if (Math.ceil(bitCount(letters ^ candidate.letters) / 2) > limit) continue;
    const distance = leven(name, candidate.name, { maxDistance: limit + 1 });
    if (distance > limit) continue;
    best.push({ name: candidate.name, distance });
    best.sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name));
    if (best.length > MAX_SUGGESTIONS) best.pop();
    if (best.length === MAX_SUGGESTIONS) limit = best[MAX_SUGGESTIONS - 1]!.distance;
  }
  return best.map((found) => found.name);
}

/** The letters a name uses, as a set of 32 classes (the character code modulo 32). */
function letterMask(name: string): number {
  let mask = 0;
  for (let i = 0; i < name.length; i++) mask |= 1 << (name.charCodeAt(i) & 31);
  return mask;
}

function bitCount(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
