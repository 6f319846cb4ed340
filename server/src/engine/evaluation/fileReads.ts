import path from 'node:path';
import picomatch from 'picomatch';
import { type CallExpr, type Expr, forEachSubexpression } from '../hcl';
import { isHole, showTemplate, type Template } from './textTemplate';
import { isUnknown, type Value } from './value';

/**
 * The files a node's plan reads: what a change must touch to alter it. Each kind of node says what it
 * reads (its folders, its variable and backend files, what it includes) with how, and the file functions
 * of its code name the rest; the analysis answers from them which nodes a change reaches.
 */

/** Terraform's functions that read files at plan time, each by its first argument (`fileset`: a folder and a pattern). */
export const FILE_FUNCTIONS: ReadonlySet<string> = new Set([
  'file',
  'filebase64',
  'filebase64sha256',
  'filebase64sha512',
  'fileexists',
  'filemd5',
  'filesha1',
  'filesha256',
  'filesha512',
  'fileset',
  'templatefile',
]);

/**
 * Which files of a folder Terraform reads: `code`, a module's configuration files; `working`, also what it
 * reads in the folder it runs in (variable files, backend files, the lock file); `stack`, a Stack's files.
 */
export type FolderFiles = 'code' | 'working' | 'stack';

/** What is read: one file, the files of a folder that Terraform reads, or the files below a folder that a pattern matches. */
export type ReadTarget =
  | { kind: 'file'; path: string }
  | { kind: 'folder'; dir: string; files: FolderFiles }
  /**
   * A path known in part, or a `fileset`: `pattern` is a regular expression over the path below `dir`
   * (`/`-separated); `shown` the absolute path, with what is not known as `${…}` and a fileset's glob.
   */
  | { kind: 'pattern'; dir: string; pattern: string; shown: string };

export interface FileRead {
  target: ReadTarget;
  /** How it is read, as a person says it: `include "root"`, `file()`, `module.vpc`, `read_terragrunt_config()`. */
  how: string;
  /** Where the configuration says so: a file and its 1-based line. */
  at?: { file: string; line: number };
}

/** Every call in `expr` of a function of `names` (Terraform's file functions), nested ones included, outermost first. */
export function fileCalls(expr: Expr, found: CallExpr[] = [], names: ReadonlySet<string> = FILE_FUNCTIONS): CallExpr[] {
  if (expr.kind === 'call' && names.has(expr.name)) found.push(expr);
  forEachSubexpression(expr, (inner) => fileCalls(inner, found, names));
  return found;
}

/**
 * What a call of a file function reads, its arguments evaluated by `evaluateArg` and relative paths taken
 * from `base` (Terraform's working folder; Terragrunt's, the configuration's folder). Undefined when its
 * path is an error (the plan fails on it: nothing is read) or no path at all.
 */
export function callRead(
  call: CallExpr,
  evaluateArg: (arg: Expr) => Value,
  base: string,
  file: string,
): FileRead | undefined {
  const [first, second] = call.args;
  if (first === undefined) return undefined;
  const at = { file, line: call.range.start.line + 1 };
  const named = pathTarget(evaluateArg(first), base);
  if (named === undefined) return undefined;
  if (call.name !== 'fileset') return { target: named, how: `${call.name}()`, at };
  const pattern = second === undefined ? undefined : evaluateArg(second);
  return { target: filesetTarget(named, pattern), how: 'fileset()', at };
}

/**
 * The file a path value names, taken from `base` when relative; for a path known in part, the files below its
 * known folder that its known text allows; for one not known at all, every file below `base` but documentation:
 * one read too many is an extra plan, one too few a plan missed. Undefined for an error or a value that is no path.
 */
export function pathTarget(value: Value, base: string): ReadTarget | undefined {
  if (typeof value === 'string') return value === '' ? undefined : { kind: 'file', path: path.resolve(base, value) };
  if (!isUnknown(value) || value.error) return undefined;
  const text: Template = value.text ?? [{ hole: '…', reasons: value.reasons, segment: false }];
  const first = text[0];
  const prefix = typeof first === 'string' ? first : '';
  // The folder is the known text up to its last `/` before anything unknown.
  const cut = prefix.lastIndexOf('/');
  const folder = cut < 0 ? '' : prefix.slice(0, cut);
  const rest: Template = [prefix.slice(cut + 1), ...text.slice(prefix === '' ? 0 : 1)];
  const pattern = text.every(isHole)
    ? ANY_BUT_DOCUMENTS
    : rest.map((part) => (isHole(part) ? (part.segment ? '[^/]*' : '.*') : escapeRegExp(part))).join('');
  const dir = path.resolve(base, folder);
  return { kind: 'pattern', dir, pattern, shown: `${dir}/${showTemplate(rest)}` };
}

/** `fileset(dir, pattern)`: the files below `dir` that the glob matches (any, when it is not known). */
function filesetTarget(dir: ReadTarget, pattern: Value | undefined): ReadTarget {
  const glob = typeof pattern === 'string' ? pattern : undefined;
  const below = glob === undefined ? '.*' : picomatch.makeRe(glob, { dot: true }).source.replace(/^\^|\$$/g, '');
  const shownGlob = glob ?? '${…}';
  if (dir.kind === 'file') return { kind: 'pattern', dir: dir.path, pattern: below, shown: `${dir.path}/${shownGlob}` };
  if (dir.kind === 'pattern') return { ...dir, pattern: `${dir.pattern}/${below}`, shown: `${dir.shown}/${shownGlob}` };
  return dir;
}

/**
 * Any file below a folder but documentation (`README`, `CHANGELOG`, `LICENSE`, `*.md`): what a path known not
 * at all may be. Documentation is what commits change most beside code, and no plan reads it by a path it
 * computes; a path that names one in part (`docs/${var.page}.md`) still counts it.
 */
const ANY_BUT_DOCUMENTS = '(?!(?:.*/)?(?:README|CHANGELOG|LICENSE)[^/]*$)(?!.*\\.md$).*';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One key per target: two reads of the same files are one. */
export function readKey(target: ReadTarget): string {
  switch (target.kind) {
    case 'file':
      return `f\0${target.path}`;
    case 'folder':
      return `d\0${target.dir}\0${target.files}`;
    default:
      return `p\0${target.dir}\0${target.pattern}`;
  }
}

/** Reads, each target once, with how and where it was found first. */
export class ReadSet {
  private readonly reads = new Map<string, FileRead>();

  add(read: FileRead): void {
    const key = readKey(read.target);
    if (!this.reads.has(key)) this.reads.set(key, read);
  }

  /** `read`, over any read of the same target found before: its reason says more (`include "root"` over the lookup that found it). */
  prefer(read: FileRead): void {
    this.reads.set(readKey(read.target), read);
  }

  list(): FileRead[] {
    return [...this.reads.values()];
  }
}
