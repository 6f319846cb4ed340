import path from 'node:path';
import { type ExtraFunctions, FILE_FUNCTIONS, folderRelative, unknown, type Value } from '../evaluation';

/** The functions of a Terragrunt configuration that read a file: Terraform's, `sops_decrypt_file` and `mark_as_read`. */
export const TERRAGRUNT_FILE_FUNCTIONS: ReadonlySet<string> = new Set([
  ...FILE_FUNCTIONS,
  'sops_decrypt_file',
  'mark_as_read',
]);

/** Where a Terragrunt configuration is being evaluated: what its path functions answer. */
export interface TerragruntContext {
  /** The configuration being parsed: the unit's `terragrunt.hcl`, or a file `read_terragrunt_config` reads. */
  configFile: string;
  /** The unit's folder: `get_original_terragrunt_dir()`. */
  unitDir: string;
  /** The included file in whose context this is evaluated, by include name; `""` for an unnamed include. */
  includes: ReadonlyMap<string, string>;
  /** The folder that holds the workspace, where parent searches stop (what lies beyond is not read). */
  workspaceRoot: string;
  /** `get_repo_root()`: the Git working tree around the unit, else the workspace folder. */
  repoRoot: string;
  /** Whether the workspace has this file (a `.hcl` file the scan listed, or another file it saw). */
  exists(file: string): boolean;
  /** Told each file `find_in_parent_folders` looks for: one added, moved or changed there changes what it finds. */
  lookedFor?(file: string): void;
  /**
   * What `find_in_parent_folders` found above each folder, by folder and name: a unit's includes and inputs
   * repeat each search, and units evaluated together share one (see `UnitSource.parentSearches`).
   */
  parentSearches?: Map<string, ParentSearch>;
  /** `read_terragrunt_config(file)`: the file's locals, inputs and attributes, evaluated for it. */
  read(file: string): Value;
}

/** `find_in_parent_folders(name)` above one folder: the file found (null: none), and every file looked for on the way. */
export interface ParentSearch {
  found: string | null;
  lookedFor: readonly string[];
}

/** A Terragrunt built-in: its answer depends on where the configuration is evaluated. */
type TerragruntFunction = (context: TerragruntContext, args: readonly Value[]) => Value;

/** Terragrunt's built-in functions in `context`, for `withFunctions`. */
export function terragruntFunctions(context: TerragruntContext): ExtraFunctions {
  // One table for every context: a unit's evaluation makes several contexts, and calls a few functions.
  return {
    get(name) {
      const fn = FUNCTIONS.get(name);
      return fn && ((args) => fn(context, args));
    },
  };
}

const configDir = (context: TerragruntContext): string => path.dirname(context.configFile);

/** The folder of the include named by the first argument (the first include without one), else undefined. */
function includeDir(context: TerragruntContext, args: readonly Value[]): string | undefined {
  const name = typeof args[0] === 'string' ? args[0] : undefined;
  const file = name !== undefined ? context.includes.get(name) : context.includes.values().next().value;
  return file === undefined ? undefined : path.dirname(file);
}

/** Functions whose value comes from the machine or the cloud account terragrunt runs in. */
const RUN_TIME = [
  'get_aws_account_id',
  'get_aws_account_alias',
  'get_aws_caller_identity_arn',
  'get_aws_caller_identity_user_id',
  'get_platform',
  'get_terraform_command',
  'get_terraform_cli_args',
  'get_working_dir',
  'run_cmd',
  'sops_decrypt_file',
  'local_exec',
];

const FUNCTIONS = new Map<string, TerragruntFunction>([
  ['find_in_parent_folders', findInParentFolders],
  ['read_terragrunt_config', readConfig],
  ['get_terragrunt_dir', configDir],
  ['get_original_terragrunt_dir', (context) => context.unitDir],
  ['get_parent_terragrunt_dir', (context, args) => includeDir(context, args) ?? configDir(context)],
  [
    'path_relative_to_include',
    (context, args) => folderRelative(includeDir(context, args) ?? configDir(context), configDir(context)),
  ],
  [
    'path_relative_from_include',
    (context, args) => folderRelative(configDir(context), includeDir(context, args) ?? configDir(context)),
  ],
  ['get_repo_root', (context) => context.repoRoot],
  ['get_path_to_repo_root', (context) => folderRelative(configDir(context), context.repoRoot)],
  ['get_path_from_repo_root', (context) => folderRelative(context.repoRoot, configDir(context))],
  ['get_env', (_context, args) => getEnv(args)],
  // What it marks is read (see `TERRAGRUNT_FILE_FUNCTIONS`); the function gives the path back.
  ['mark_as_read', (_context, args) => args[0] ?? null],
  ['get_terraform_commands_that_need_vars', () => [...NEED_VARS]],
  ['get_terraform_commands_that_need_locking', () => [...NEED_LOCKING]],
  ['get_terraform_commands_that_need_input', () => ['apply', 'import', 'init', 'plan', 'refresh']],
  ['get_terraform_commands_that_need_parallelism', () => ['apply', 'plan', 'destroy']],
  ...RUN_TIME.map((name): [string, TerragruntFunction] => [
    name,
    () => unknown(`${name}() is only known where terragrunt runs`),
  ]),
]);

/**
 * `find_in_parent_folders(name = "terragrunt.hcl", fallback)`: the first `name` in the folders
 * above the configuration's, up to the workspace's root (what lies beyond is not read).
 */
function findInParentFolders(context: TerragruntContext, args: readonly Value[]): Value {
  const name = typeof args[0] === 'string' ? args[0] : 'terragrunt.hcl';
  const found = searchParents(context, name);
  if (found !== null) return found;
  if (args.length > 1) return args[1]!;
  return {
    unknown: true,
    error: true,
    reasons: [`find_in_parent_folders: no ${name} above this folder in the workspace`],
  };
}

/** The first `name` in the folders above the configuration's, up to the workspace's root; null when none. */
function searchParents(context: TerragruntContext, name: string): string | null {
  const search = searchAbove(path.dirname(context.configFile), name, context);
  if (context.lookedFor) for (const file of search.lookedFor) context.lookedFor(file);
  return search.found;
}

const NOTHING_ABOVE: ParentSearch = { found: null, lookedFor: [] };

/** The search from the folder above `dir` upwards: each folder's answer kept, so sibling units share those above them. */
function searchAbove(dir: string, name: string, context: TerragruntContext): ParentSearch {
  if (dir === context.workspaceRoot || !dir.startsWith(context.workspaceRoot)) return NOTHING_ABOVE;
  const key = `${dir}\0${name}`;
  const known = context.parentSearches?.get(key);
  if (known) return known;
  const parent = path.dirname(dir);
  const candidate = path.join(parent, name);
  let search: ParentSearch;
  if (context.exists(candidate)) search = { found: candidate, lookedFor: [candidate] };
  else {
    const above = searchAbove(parent, name, context);
    search = { found: above.found, lookedFor: [candidate, ...above.lookedFor] };
  }
  context.parentSearches?.set(key, search);
  return search;
}

function readConfig(context: TerragruntContext, args: readonly Value[]): Value {
  const file = args[0];
  if (typeof file !== 'string') return unknown('read_terragrunt_config() needs a file name');
  const absolute = path.resolve(path.dirname(context.configFile), file);
  if (context.exists(absolute)) return context.read(absolute);
  if (args.length > 1) return args[1]!;
  return { unknown: true, error: true, reasons: [`read_terragrunt_config: ${file} is not a file of the workspace`] };
}

/** `get_env(name, default)`: the default (what runs on a machine that does not set it), else unknown. */
function getEnv(args: readonly Value[]): Value {
  if (args.length > 1) return args[1]!;
  const name = typeof args[0] === 'string' ? args[0] : '?';
  return unknown(`get_env("${name}") is only known where terragrunt runs`);
}

const NEED_VARS = ['apply', 'console', 'destroy', 'import', 'plan', 'push', 'refresh'];
const NEED_LOCKING = ['apply', 'destroy', 'import', 'init', 'plan', 'refresh', 'taint', 'untaint'];
