/**
 * Lines each said once, in the order they first come, one that came more than once with how many reads
 * it stands for: a read in a child module that a root calls with `count = 8331` is 8,331 reads of one
 * block, each with the same text, which a terminal or the Problems view would list 8,331 times.
 */
export function onceEach(lines: readonly string[]): string[] {
  return countedOnce(lines, (line) => line).map(({ item, count }) => `${item}${readsNote(count)}`);
}

/** Items each once, with how many times its key came, in the order the keys first come. */
export function countedOnce<T>(items: readonly T[], key: (item: T) => string): { item: T; count: number }[] {
  const counted = new Map<string, { item: T; count: number }>();
  for (const item of items) {
    const entry = counted.get(key(item));
    if (entry) entry.count++;
    else counted.set(key(item), { item, count: 1 });
  }
  return [...counted.values()];
}

/** ` (8331 reads)` after a text that stands for that many, nothing after one that stands for one. */
export function readsNote(count: number): string {
  return count === 1 ? '' : ` (${count} reads)`;
}
