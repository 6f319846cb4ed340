import { mkdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Where runs keep their files, all under `<workspace>/.terrace/` (which belongs in .gitignore):
 *
 *     .terrace/state.json                        the run states of the modules (stateFile.ts)
 *     .terrace/locks/<module id>.lock            one per module being run (moduleLock.ts)
 *     .terrace/runs/<timestamp>/report.json      what each module of the run did, and why (reportFile.ts)
 *     .terrace/runs/<timestamp>/<module id>/     plan.tfplan, terraform.log, summary.json
 */
export const TERRACE_DIR = '.terrace';

export function stateFile(root: string): string {
  return path.join(root, TERRACE_DIR, 'state.json');
}

export function locksDir(root: string): string {
  return path.join(root, TERRACE_DIR, 'locks');
}

/** A module's lock file: the id with `/` escaped, so every module has one flat file. */
export function lockFile(root: string, id: string): string {
  return path.join(locksDir(root), `${encodeURIComponent(id)}.lock`);
}

/** A module's folder inside a run: its id as a path, the workspace root module (`.`) as `_root`. */
export function moduleRunDir(runDir: string, id: string): string {
  return path.join(runDir, ...(id === '.' ? ['_root'] : id.split('/')));
}

export const PLAN_FILE = 'plan.tfplan';
export const LOG_FILE = 'terraform.log';
export const SUMMARY_FILE = 'summary.json';
export const REPORT_FILE = 'report.json';

/**
 * Creates the folder of a new run, `.terrace/runs/<UTC timestamp>[-<n>]`: names sort by time, and
 * two runs started in the same millisecond get two folders.
 */
export function createRunDir(root: string, now = new Date()): { id: string; dir: string } {
  const runs = path.join(root, TERRACE_DIR, 'runs');
  mkdirSync(runs, { recursive: true });
  const stamp = now.toISOString().replace(/:/g, '-');
  for (let n = 1; ; n++) {
    const id = n === 1 ? stamp : `${stamp}-${n}`;
    const dir = path.join(runs, id);
    try {
      mkdirSync(dir);
      return { id, dir };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
