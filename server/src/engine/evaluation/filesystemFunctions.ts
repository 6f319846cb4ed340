import path from 'node:path';
import { type FunctionScope, str } from './functionArguments';
import { isObjectValue, isUnknown, unknown, type Value } from './value';
import { toStringValue, UnknownValue } from './valueConversion';

/** Terraform's filesystem functions that read no file: paths taken apart and made absolute. */

/** Go's `filepath.Clean` on slash paths. */
function cleanPath(p: string): string {
  if (p === '') return '.';
  const normalized = path.posix.normalize(p);
  return normalized.length > 1 ? normalized.replace(/\/$/, '') : normalized;
}

export function dirname(args: readonly Value[]): Value {
  const p = str('dirname', args[0]);
  return cleanPath(p.slice(0, p.lastIndexOf('/') + 1));
}

export function basename(args: readonly Value[]): Value {
  const p = str('basename', args[0]).replace(/\/+$/, '');
  if (p === '') return str('basename', args[0]).startsWith('/') ? '/' : '.';
  return p.slice(p.lastIndexOf('/') + 1);
}

export function abspath(args: readonly Value[], scope: FunctionScope): Value {
  const p = str('abspath', args[0]);
  if (path.isAbsolute(p)) return cleanPath(p.replace(/\\/g, '/'));
  const paths = scope.get('path') ?? null;
  const cwd = isObjectValue(paths) ? paths.cwd : undefined;
  if (cwd === undefined) return unknown('abspath() of a relative path needs path.cwd');
  if (isUnknown(cwd)) throw new UnknownValue(cwd);
  return path.resolve(toStringValue(cwd, 'path.cwd'), p).replace(/\\/g, '/');
}
