import path from 'node:path';
import picomatch from 'picomatch';
import type { DiscoveryOptions } from '../config';
import type { FileFacts } from './fileFacts';
import type { ScannedDir } from './workspaceScan';

/**
 * Which folders are root modules. `auto`: a folder whose files declare a backend or `cloud {}`
 * block is a root; one that only holds a `.terraform.lock.hcl` is a root unless some module
 * calls it as a child (then it is a library). `pattern`: the folders at the pattern's depth, and
 * one level deeper (submodules), that hold `.tf` files.
 */
export function discoverRoots(
  dirs: ReadonlyMap<string, ScannedDir>,
  factsOf: (dir: ScannedDir) => readonly FileFacts[],
  options: DiscoveryOptions,
): string[] {
  const included = options.include.map((glob) => picomatch(glob, { dot: true }));
  const isIncluded = (id: string) => included.length === 0 || included.some((matches) => matches(id));
  if (options.mode === 'pattern') {
    const depth = patternNames(options.pattern).length;
    return [...dirs.keys()].filter((id) => isIncluded(id) && [depth, depth + 1].includes(idDepth(id)));
  }
  const called = calledDirs(dirs, factsOf);
  const roots: string[] = [];
  for (const [id, dir] of dirs) {
    if (!isIncluded(id)) continue;
    const declaresBackend = factsOf(dir).some((facts) => facts.backends.length > 0);
    if (declaresBackend || (dir.hasLockFile && !called.has(dir.dir))) roots.push(id);
  }
  return roots;
}

/** Absolute folders that some module calls through a local `source` (`./x`, `../x`). */
function calledDirs(
  dirs: ReadonlyMap<string, ScannedDir>,
  factsOf: (dir: ScannedDir) => readonly FileFacts[],
): Set<string> {
  const called = new Set<string>();
  for (const dir of dirs.values()) {
    for (const facts of factsOf(dir)) {
      for (const call of facts.moduleCalls) {
        const source = localSource(call.source);
        if (source !== undefined) called.add(path.resolve(dir.dir, source));
      }
    }
  }
  return called;
}

/** The literal local path of a module `source`, or undefined for registry, git and other sources. */
export function localSource(expr: FileFacts['moduleCalls'][number]['source']): string | undefined {
  if (expr?.kind !== 'literal' || typeof expr.value !== 'string') {
    if (expr?.kind === 'template' && expr.parts.length === 1 && typeof expr.parts[0] === 'string')
      return localPath(expr.parts[0]);
    return undefined;
  }
  return localPath(expr.value);
}

function localPath(source: string): string | undefined {
  return source.startsWith('./') || source.startsWith('../') ? source : undefined;
}

/** The `{name}` segments of a pattern, in order. */
export function patternNames(pattern: string): string[] {
  return pattern.split('/').map((part) => part.replace(/^\{(.*)\}$/, '$1'));
}

/** A module's named segments: `platform/stage/eu-central-1/ec2/rabbitmq` gives service … module, submodule. */
export function moduleSegments(id: string, pattern: string): Record<string, string> {
  const names = patternNames(pattern);
  const parts = id === '.' ? [] : id.split('/');
  if (parts.length < names.length || parts.length > names.length + 1) return {};
  const segments: Record<string, string> = {};
  names.forEach((name, index) => {
    segments[name] = parts[index]!;
  });
  if (parts.length > names.length) segments['submodule'] = parts[names.length]!;
  return segments;
}

function idDepth(id: string): number {
  return id === '.' ? 0 : id.split('/').length;
}
