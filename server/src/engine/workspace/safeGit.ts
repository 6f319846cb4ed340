import { execFile, execFileSync } from 'node:child_process';
import os from 'node:os';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Git asked about a folder Terrace only reads, with every setting through which the read-only commands it
 * runs (`ls-files`, `diff --name-only`, `merge-base`, `rev-parse`, `config`) would start a program that the
 * repository's own configuration names (`.git/config` and what it includes arrive with the folder, from
 * whoever made it). From git's documentation (git-config, gitattributes, githooks):
 *
 * - `core.fsmonitor`: a hook command (or the built-in daemon) that `ls-files` and `diff` ask what changed.
 * - hooks (`core.hooksPath`, `.git/hooks`): `post-index-change` runs when a command rewrites the index;
 *   `GIT_OPTIONAL_LOCKS=0` keeps `diff` from refreshing the index on disk, and the hooks path is empty anyway.
 * - `filter.<driver>.clean` and `.process` (`.gitattributes` names the driver): run on a work-tree file to
 *   hash it when its stat data changed, as `diff` against the work tree does: every driver the configuration
 *   defines is emptied, and not required (see `neutralFilters`).
 * - `diff.external`, `diff.<driver>.command`, `diff.<driver>.textconv`: only for a patch, never for
 *   `--name-only`; `--no-ext-diff --no-textconv` where `diff` runs anyway.
 * - `core.pager`, `pager.<command>`: only on a terminal; stdout is a pipe here, and `--no-pager` says so.
 * - `core.sshCommand`, `core.gitProxy`, `credential.helper`, `core.askPass`, `gpg.program`, `uploadpack.*`:
 *   network, credentials and signatures, which these commands never touch; `GIT_TERMINAL_PROMPT=0` all the same.
 */
const SAFE_CONFIG = ['-c', 'core.fsmonitor=false', '-c', `core.hooksPath=${os.devNull}`];

/** The environment git runs with: the caller's, with no optional locks and no prompts. */
function safeEnv(): NodeJS.ProcessEnv {
  return { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat' };
}

/** `git <args>` in `dir`, with the settings above; extra `-c` settings (from `neutralFilters`) come first. */
function safeGitArgs(dir: string, args: readonly string[], config: readonly string[] = []): string[] {
  return ['--no-pager', ...SAFE_CONFIG, ...config, '-C', dir, ...args];
}

export interface SafeGitOptions {
  maxBuffer?: number;
  timeout?: number;
  /** Extra `-c` settings, e.g. `neutralFilters`. */
  config?: readonly string[];
}

/** Runs git (see above) and gives its stdout; rejects as `execFile` does, with `code` and `stderr`. */
export async function safeGit(dir: string, args: readonly string[], options: SafeGitOptions = {}): Promise<string> {
  const { stdout } = await run('git', safeGitArgs(dir, args, options.config), {
    env: safeEnv(),
    maxBuffer: options.maxBuffer ?? 64 * 1024 * 1024,
    timeout: options.timeout ?? 0,
    encoding: 'utf8',
  });
  return stdout;
}

/** The same, synchronous; stderr is dropped. */
export function safeGitSync(dir: string, args: readonly string[], options: SafeGitOptions = {}): string {
  return execFileSync('git', safeGitArgs(dir, args, options.config), {
    env: safeEnv(),
    encoding: 'utf8',
    maxBuffer: options.maxBuffer ?? 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
}

/**
 * `-c` settings that empty every filter driver the configuration seen from `dir` defines, for the commands
 * that hash work-tree files (`diff` against the work tree). Git lists them itself (`git config` runs
 * nothing), following includes. With a driver emptied, a file it would have cleaned is compared as it is on
 * disk: at worst a file whose stat data changed counts as changed.
 */
export async function neutralFilters(dir: string): Promise<string[]> {
  let listed: string;
  try {
    listed = await safeGit(dir, ['config', '-z', '--name-only', '--get-regexp', '^filter\\..+\\.(clean|process)$']);
  } catch {
    return []; // exit 1: no such setting
  }
  const drivers = new Set<string>();
  for (const name of listed.split('\0')) {
    const driver = /^filter\.(.+)\.(?:clean|process)$/is.exec(name)?.[1];
    if (driver !== undefined) drivers.add(driver);
  }
  return [...drivers].flatMap((driver) => [
    '-c',
    `filter.${driver}.clean=`,
    '-c',
    `filter.${driver}.process=`,
    '-c',
    `filter.${driver}.required=false`,
  ]);
}
