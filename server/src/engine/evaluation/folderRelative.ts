import path from 'node:path';

/**
 * `to` as seen from the folder `from`: `/`-separated, with `../` to go up, `.` for the folder itself
 * (`path.relative`, as Terraform, Terragrunt and the graph's ids write paths). Two absolute paths with
 * no `.`, `..`, empty or trailing segment, the usual case (every dependency edge, every unit's id), are
 * compared by their characters: `path.relative` resolves and normalises both first, a fifth of
 * Terragrunt edges' matching at 3,000 units.
 */
export function folderRelative(from: string, to: string): string {
  if (from === to) return '.';
  if (path.sep === '/' && isPlain(from) && isPlain(to)) return plainRelative(from, to);
  const relative = path.relative(from, to);
  return relative === '' ? '.' : relative.split(path.sep).join('/');
}

const NOT_PLAIN = /\/\/|\/\.\.?(?:\/|$)/;

function isPlain(file: string): boolean {
  return file.startsWith('/') && (file.length === 1 || !file.endsWith('/')) && !NOT_PLAIN.test(file);
}

const SLASH = 47;

/** `path.posix.relative` of two different plain absolute paths. */
function plainRelative(from: string, to: string): string {
  // The root is the empty path here: every other path is its segments, each after a `/`.
  const a = from === '/' ? '' : from;
  const b = to === '/' ? '' : to;
  const shorter = Math.min(a.length, b.length);
  // Where the last segment both share ends.
  let shared = 0;
  let index = 0;
  while (index < shorter && a.charCodeAt(index) === b.charCodeAt(index)) {
    if (a.charCodeAt(index) === SLASH) shared = index;
    index++;
  }
  // One is the other's folder, or a folder above it.
  if (index === shorter && (a.length === shorter ? b.charCodeAt(index) : a.charCodeAt(index)) === SLASH) shared = index;
  let up = 0;
  for (let at = shared; at < a.length; at++) if (a.charCodeAt(at) === SLASH) up++;
  const down = b.slice(shared + 1);
  if (up === 0) return down === '' ? '.' : down;
  const ups = '../'.repeat(up);
  return down === '' ? ups.slice(0, -1) : ups + down;
}
