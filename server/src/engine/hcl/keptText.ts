/**
 * Names and short literals, one copy each across a workspace's files (`bucket`, `region`, a state's bucket
 * name: tens of thousands of copies at 10,000 modules). Bounded: emptied when full, as a long editing session
 * types many names that no file keeps.
 */
const interned = new Map<string, string>();
const INTERNED_LENGTH = 40;
const INTERNED_MAX = 100_000;

/**
 * The text from `start` to `end` for a document to keep: copied, as V8 makes a slice of 13 characters or more a
 * view of its source, which keeps the whole file's text alive (every file's, in a workspace's facts: 35 MB at
 * 10,000 modules, copied by each young-generation collection while the analysis runs); a short one shared.
 */
export function keptText(text: string, start: number, end: number): string {
  const slice = text.slice(start, end);
  if (slice.length > INTERNED_LENGTH) return ` ${slice}`.slice(1);
  const known = interned.get(slice);
  if (known !== undefined) return known;
  if (interned.size >= INTERNED_MAX) interned.clear();
  const kept = slice.length < 13 ? slice : ` ${slice}`.slice(1);
  interned.set(kept, kept);
  return kept;
}
