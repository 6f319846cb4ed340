import path from 'node:path';
import picomatch from 'picomatch';
import type { DiscoveryOptions } from '../config';
import { evaluateUnit, UNIT_FILE, type UnitSource, unitIncludes } from '../terragrunt';
import type { FileFacts } from './fileFacts';
import type { ScannedDir } from './workspaceScan';

/**
 * Which folders are root modules. `auto`: a folder whose files declare a backend or `cloud {}`
 * block is a root; one that only holds a `.terraform.lock.hcl` is a root unless some module
 * calls it as a child (then it is a library). `pattern`: the folders at the pattern's depth, and
 * one level deeper (submodules), that hold `.tf` files. Terragrunt units (`discoverUnits`) are
 * roots too, and the folders of their Terraform code are not.
 */
export function discoverRoots(
  dirs: ReadonlyMap<string, ScannedDir>,
  factsOf: (dir: ScannedDir) => readonly FileFacts[],
  options: DiscoveryOptions,
  units: DiscoveredUnits = NO_UNITS,
): string[] {
  const included = options.include.map((glob) => picomatch(glob, { dot: true }));
  const isIncluded = (id: string) => included.length === 0 || included.some((matches) => matches(id));
  const roots = new Set([...units.ids].filter(isIncluded));
  if (options.mode === 'pattern') {
    const depth = patternNames(options.pattern).length;
    for (const [id, dir] of dirs)
      if (isIncluded(id) && dir.tfFiles.length > 0 && [depth, depth + 1].includes(idDepth(id))) roots.add(id);
    return [...roots];
  }
  const called = calledDirs(dirs, factsOf);
  for (const [id, dir] of dirs) {
    // A unit's Terraform code is run by the unit: its own backend block is the unit's.
    if (!isIncluded(id) || units.codeDirs.has(dir.dir)) continue;
    const declaresBackend = factsOf(dir).some((facts) => facts.backends.length > 0);
    if (declaresBackend || (dir.hasLockFile && !called.has(dir.dir))) roots.add(id);
  }
  return [...roots];
}

/** The Terragrunt units of a workspace, by folder id, and the folders of their local Terraform code. */
export interface DiscoveredUnits {
  ids: ReadonlySet<string>;
  codeDirs: ReadonlySet<string>;
}

const NO_UNITS: DiscoveredUnits = { ids: new Set(), codeDirs: new Set() };

/**
 * Terragrunt units: folders with a `terragrunt.hcl` that has Terraform code to run, unless another
 * unit includes that file (a parent configuration found with `find_in_parent_folders()`).
 */
export function discoverUnits(dirs: ReadonlyMap<string, ScannedDir>, source: UnitSource): DiscoveredUnits {
  const candidates: [string, string][] = [];
  for (const [id, dir] of dirs) {
    const file = dir.terragruntFiles.find((name) => path.basename(name) === UNIT_FILE);
    const facts = file === undefined ? undefined : source.configOf(file);
    // Something to run: Terraform code beside it, a source, or an include that may give one. A
    // configuration with none of these is a parent whose children are elsewhere (or none yet).
    const runs =
      facts !== undefined && (dir.tfFiles.length > 0 || facts.source !== undefined || facts.includes.length > 0);
    if (file && runs) candidates.push([id, file]);
  }
  const included = new Set(candidates.flatMap(([, file]) => unitIncludes(file, source)));
  const units = candidates.filter(([, file]) => !included.has(file));
  const codeDirs = new Set<string>();
  for (const [, file] of units) {
    const codeDir = evaluateUnit(file, source).codeDir;
    if (codeDir !== undefined && codeDir !== path.dirname(file)) codeDirs.add(codeDir);
  }
  return { ids: new Set(units.map(([id]) => id)), codeDirs };
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
