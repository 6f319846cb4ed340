import { type Dirent, readdirSync } from 'node:fs';
import path from 'node:path';

const SKIPPED_DIRS = new Set(['.terraform', 'node_modules', '.git']);

/** Every file under `dir` whose name matches `pattern`, in a stable order; provider caches skipped. */
export function hclFiles(dir: string, pattern: RegExp): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : hclFiles(full, pattern);
      return pattern.test(entry.name) ? [full] : [];
    });
}
