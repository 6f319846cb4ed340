import type { Dirent } from 'node:fs';
import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';
import type { DiscoveryOptions } from '../config';
import type { FolderFiles } from '../evaluation';
import { stackFileKind } from '../stacks';
import { isTerragruntFile, UNIT_FILE } from '../terragrunt';
import { isTerraformFile, isTofuFile, isTofuLockFile, isTofuVersionFile } from './engine';
import { nestedBackendFiles } from './nestedBackendFiles';
import { isIgnoredByTerraform } from './overrideFiles';
import { trackedIgnored } from './trackedIgnored';

/** One folder that holds Terraform files, with the files the analysis reads. */
export interface ScannedDir {
  /** Absolute path. */
  dir: string;
  /** Path relative to the root with `/`; `.` for the root itself. */
  id: string;
  /**
   * The configuration files the workspace's engine reads (see `engineFiles`), absolute, sorted: those of
   * `terraformFiles` and `tofuFiles` it reads. The scan lists Terraform's; the analysis applies the engine.
   */
  tfFiles: string[];
  /** `.tf` and `.tf.json` files, absolute, sorted. */
  terraformFiles: string[];
  /** `.tofu` and `.tofu.json` files (OpenTofu's only), absolute, sorted. */
  tofuFiles: string[];
  /** `terraform.tfvars` and `*.auto.tfvars` (and their `.json` forms), in Terraform's load order. */
  varFiles: string[];
  /** Partial backend configuration files matching `backendConfigFiles`, sorted. */
  backendFiles: string[];
  /** Other `*.tfvars` files (`prod.tfvars`): read only for an environment that names them, sorted. */
  environmentVarFiles: string[];
  /** Terragrunt configuration files (`terragrunt.hcl`, `root.hcl`, `env.hcl`, …), absolute, sorted. */
  terragruntFiles: string[];
  /** A Terraform Stack's component and deployment files (`*.tfcomponent.hcl`, `*.tfdeploy.hcl`, …), sorted. */
  stackFiles: string[];
  hasLockFile: boolean;
}

export interface ScanProblem {
  path: string;
  message: string;
}

export interface ScanResult {
  dirs: Map<string, ScannedDir>;
  problems: ScanProblem[];
  /** Folders whose entries could not be listed: a module there is unknown, so a state nobody writes may be its. */
  unreadable: string[];
  /** Git working trees: folders of the workspace with a `.git` entry, and the one around it, if any (Terragrunt's `get_repo_root()`). */
  gitRoots: string[];
  /** Files that say the workspace is OpenTofu's: a version pin, a lock file from its registry (the first found). */
  tofuSigns: string[];
  /** Every other file seen (`global.yaml`, `policy.json`), absolute: what `find_in_parent_folders` may find. */
  otherFiles: Set<string>;
  /**
   * The files that are symbolic links, by the file each links to (both absolute, the target as the link names
   * it): a change to the target is a change to each link, though git names only the target.
   */
  linksTo: Map<string, string[]>;
}

/** A folder with no files listed yet. */
export function emptyDir(dir: string, id: string): ScannedDir {
  return {
    dir,
    id,
    tfFiles: [],
    terraformFiles: [],
    tofuFiles: [],
    varFiles: [],
    backendFiles: [],
    environmentVarFiles: [],
    terragruntFiles: [],
    stackFiles: [],
    hasLockFile: false,
  };
}

/** Folders never worth reading: provider caches, Terragrunt's copies of the code, VCS data, JavaScript packages, Terrace's own runs. */
const SKIPPED = new Set(['.terraform', '.terragrunt-cache', '.git', 'node_modules', '.terrace']);

/** What a file is to the analysis, by its name. */
export function fileRole(
  name: string,
  backendMatchers: readonly ((name: string) => boolean)[],
):
  | keyof Pick<
      ScannedDir,
      | 'terraformFiles'
      | 'tofuFiles'
      | 'varFiles'
      | 'backendFiles'
      | 'environmentVarFiles'
      | 'terragruntFiles'
      | 'stackFiles'
    >
  | 'lock'
  | 'tofuSign'
  | undefined {
  if (isTerraformFile(name)) return isIgnoredByTerraform(name) ? undefined : 'terraformFiles';
  if (isTofuFile(name)) return isIgnoredByTerraform(name) ? undefined : 'tofuFiles';
  if (isTofuVersionFile(name)) return 'tofuSign';
  if (
    name === 'terraform.tfvars' ||
    name === 'terraform.tfvars.json' ||
    name.endsWith('.auto.tfvars') ||
    name.endsWith('.auto.tfvars.json')
  )
    return 'varFiles';
  if (name === '.terraform.lock.hcl') return 'lock';
  if (backendMatchers.some((matches) => matches(name))) return 'backendFiles';
  if (name.endsWith('.tfvars') || name.endsWith('.tfvars.json')) return 'environmentVarFiles';
  if (stackFileKind(name) !== undefined) return 'stackFiles';
  if (isTerragruntFile(name)) return 'terragruntFiles';
  return undefined;
}

/** Whether a file named `name` is one of the files of its folder that a folder read (`FolderFiles`) takes. */
export function readInFolder(
  files: FolderFiles,
  name: string,
  backendMatchers: readonly ((name: string) => boolean)[],
): boolean {
  const role = fileRole(name, backendMatchers);
  switch (files) {
    case 'code':
      return role === 'terraformFiles' || role === 'tofuFiles';
    case 'stack':
      return role === 'stackFiles';
    default:
      return (
        (role !== undefined && role !== 'stackFiles' && role !== 'tofuSign' && role !== 'terragruntFiles') ||
        name === UNIT_FILE
      );
  }
}

/** Terraform loads terraform.tfvars first, then *.auto.tfvars in lexical order; later values win. */
export function varFileOrder(a: string, b: string): number {
  const rank = (file: string) => (path.basename(file).startsWith('terraform.tfvars') ? 0 : 1);
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** A symbolic link to a folder, followed only after every real folder was read. */
interface FolderLink {
  full: string;
  id: string;
  /** The real path of the folder it points to. */
  target: string;
  /** The real path of the folder that holds the link. */
  parent: string;
  rules: readonly { base: string; ig: Ignore }[];
}

/**
 * Walks `root` and lists every folder with Terraform, OpenTofu or Terragrunt files. Skips `.terraform/`, `.git/`,
 * `node_modules/`, what `.gitignore` files ignore (each applies to its own folder and below; not a file
 * Git tracks all the same, unless Git is not to be asked) and
 * the `exclude` globs. Symbolic links to folders are followed after the real folders, so a module
 * is always named by its real path: a link to a folder of the workspace is an alias, reported and
 * not read again; a link out of it is read once, under the link's name; a loop is cut and reported.
 */
/** The folder to analyse is the file system's root (`/`, `C:\`): refused rather than every file of the machine listed. */
export class FilesystemRootError extends Error {
  constructor(readonly root: string) {
    super(
      `${root} is the root of the file system: Terrace analyses a repository's folder, not every file of the ` +
        "machine (listing them ran for minutes); open the repository's folder instead",
    );
  }
}

export async function scanWorkspace(root: string, options: DiscoveryOptions): Promise<ScanResult> {
  if (path.parse(path.resolve(root)).root === path.resolve(root)) throw new FilesystemRootError(root);
  const result: ScanResult = {
    dirs: new Map(),
    problems: [],
    unreadable: [],
    gitRoots: enclosingGitRoot(root),
    tofuSigns: [],
    otherFiles: new Set(),
    linksTo: new Map(),
  };
  const excluded = options.exclude.map((glob) => picomatch(glob, { dot: true }));
  const backendMatchers = options.backendConfigFiles.map((glob) => picomatch(glob, { dot: true, basename: true }));
  const visited = new Map<string, string>();
  const links: FolderLink[] = [];
  // Asked of git once, and only when a .gitignore rule matches something (most scans never ask).
  let tracked: ReadonlySet<string> | undefined;
  const isTracked = (full: string): boolean => {
    tracked ??= options.askGit ? trackedIgnored(root) : new Set();
    return tracked.has(full);
  };

  /** `real` is the folder's real path: derived from its parent's, and asked of the system only behind a symbolic link. */
  function walk(dir: string, id: string, real: string, rules: readonly { base: string; ig: Ignore }[]): void {
    visited.set(real, id);
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      result.problems.push({ path: dir, message: describe(error) });
      result.unreadable.push(dir);
      return;
    }
    if (entries.some((entry) => entry.name === '.git')) result.gitRoots.push(dir);
    const ownRules = entries.some((entry) => entry.name === '.gitignore')
      ? gitignoreRules(dir, id, rules, result)
      : rules;
    const subdirs: [string, string, string][] = [];
    const scanned = emptyDir(dir, id);
    // Folders here are absolute and normalized already: joining by hand saves path.join's
    // normalizing on every entry of a large tree.
    const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
    for (const entry of entries) {
      const childId = id === '.' ? entry.name : `${id}/${entry.name}`;
      const full = prefix + entry.name;
      const isLink = entry.isSymbolicLink();
      const isDir = entry.isDirectory() || (isLink && isDirectory(full));
      if (isIgnored(ownRules, childId, isDir) && !isTracked(full)) continue;
      if (isDir) {
        if (SKIPPED.has(entry.name) || excluded.some((matches) => matches(childId))) continue;
        if (isLink) links.push({ full, id: childId, target: realOrSelf(full), parent: real, rules: ownRules });
        else subdirs.push([full, childId, (real.endsWith(path.sep) ? real : real + path.sep) + entry.name]);
        continue;
      }
      if (isLink) linkedFile(full, result.linksTo);
      const role = fileRole(entry.name, backendMatchers);
      if (role === 'lock') {
        scanned.hasLockFile = true;
        // One sign is enough: lock files are read only until one comes from OpenTofu's registry.
        if (result.tofuSigns.length === 0 && isTofuLockFile(full)) result.tofuSigns.push(full);
      } else if (role === 'tofuSign') result.tofuSigns.push(full);
      else if (role) scanned[role].push(full);
      else result.otherFiles.add(full);
    }
    if (
      scanned.terraformFiles.length > 0 ||
      scanned.tofuFiles.length > 0 ||
      scanned.terragruntFiles.length > 0 ||
      scanned.stackFiles.length > 0
    ) {
      scanned.terraformFiles.sort();
      scanned.tofuFiles.sort();
      scanned.tfFiles = [...scanned.terraformFiles];
      scanned.terragruntFiles.sort();
      scanned.stackFiles.sort();
      scanned.varFiles.sort(varFileOrder);
      scanned.backendFiles.push(
        ...nestedBackendFiles(
          prefix,
          subdirs.map(([full]) => full),
          backendMatchers,
        ),
      );
      scanned.backendFiles.sort();
      scanned.environmentVarFiles.sort();
      result.dirs.set(id, scanned);
    }
    for (const [full, childId, childReal] of subdirs) walk(full, childId, childReal, ownRules);
  }

  let rootReal: string;
  try {
    rootReal = realpathSync(root);
    walk(path.normalize(root), '.', rootReal, []);
  } catch (error) {
    result.problems.push({ path: root, message: describe(error) });
    return result;
  }
  // Links last (and those found behind links after them), so that a folder's real path always wins.
  for (let n = 0; n < links.length; n++) {
    const link = links[n]!;
    const skipped = skippedLink(link, visited, rootReal);
    if (skipped) result.problems.push({ path: link.full, message: skipped });
    else walk(link.full, link.id, link.target, link.rules);
  }
  return result;
}

/** The Git working tree the workspace folder is inside of, if any (looked up once, above the folder). */
function enclosingGitRoot(root: string): string[] {
  for (let dir = path.dirname(path.resolve(root)); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.git'))) return [dir];
    if (path.dirname(dir) === dir) return [];
  }
}

/** Whether `file` is inside `dir` (or is `dir`). */
export function folderContains(dir: string, file: string): boolean {
  return file === dir || file.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);
}

/** Why a link to a folder is not followed: a loop, a folder read already, or one the workspace leaves out. */
function skippedLink(link: FolderLink, visited: ReadonlyMap<string, string>, rootReal: string): string | undefined {
  if (folderContains(link.target, link.parent)) return 'skipped: a symbolic link loops back to a folder already read';
  const read = visited.get(link.target);
  if (read !== undefined)
    return `skipped: a symbolic link to ${read === '.' ? 'the workspace folder' : read}, read already under that name (an alias, not another module)`;
  // Inside the workspace but not read: an excluded, ignored or skipped folder stays out.
  if (folderContains(rootReal, link.target))
    return 'skipped: a symbolic link to a folder of the workspace that is left out';
  return undefined;
}

function gitignoreRules(
  dir: string,
  id: string,
  inherited: readonly { base: string; ig: Ignore }[],
  result: ScanResult,
): readonly { base: string; ig: Ignore }[] {
  try {
    const text = readFileSync(path.join(dir, '.gitignore'), 'utf8');
    return [...inherited, { base: id === '.' ? '' : `${id}/`, ig: ignore().add(text) }];
  } catch (error) {
    result.problems.push({ path: path.join(dir, '.gitignore'), message: describe(error) });
    return inherited;
  }
}

function isIgnored(rules: readonly { base: string; ig: Ignore }[], id: string, isDir: boolean): boolean {
  for (const { base, ig } of rules) {
    if (!id.startsWith(base)) continue;
    const relative = id.slice(base.length);
    if (ig.ignores(isDir ? `${relative}/` : relative)) return true;
  }
  return false;
}

/** Notes a link to a file under the file it names, resolved from the link's folder (a link that names nothing is left out). */
function linkedFile(link: string, linksTo: Map<string, string[]>): void {
  try {
    const target = path.resolve(path.dirname(link), readlinkSync(link));
    const links = linksTo.get(target);
    if (links) links.push(link);
    else linksTo.set(target, [link]);
  } catch {
    // Gone since it was listed.
  }
}

function realOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
