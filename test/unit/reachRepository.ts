import assert from 'node:assert/strict';
import { execFileSync, type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Git, gitIn } from './gitRepository';

/**
 * A copy of the plan-reach fixture (states checked in) in a git repository whose `main` is what is deployed,
 * for runs of `terrace plan` and `terrace apply` with the real terraform, and what each run did.
 */
const repo = path.resolve(__dirname, '../..');
const FIXTURE = path.join(repo, 'test/fixtures/plan-reach');
export const REACH_MODULES = ['app/api', 'app/web', 'app/worker', 'data/db', 'net/vpc', 'obs/all'];

export class ReachRepository {
  readonly top = mkdtempSync(path.join(os.tmpdir(), 'terrace-plan-reach-'));

  readonly git: Git;

  constructor() {
    cpSync(FIXTURE, this.top, { recursive: true });
    this.git = gitIn(this.top, 'deployed');
  }

  /** Back to what `main` deployed: files, states, no `.terrace/` nor `.terraform/`. */
  reset(): void {
    this.git('checkout', '-q', '--', '.');
    this.git('clean', '-qfdx');
  }

  remove(): void {
    rmSync(this.top, { recursive: true, force: true });
  }

  change(file: string, from: string, to: string): void {
    const full = path.join(this.top, file);
    const text = readFileSync(full, 'utf8');
    assert.ok(text.includes(from), `${file} holds ${from}`);
    writeFileSync(full, text.replace(from, to));
  }

  /** `terrace <command> <top> --changed-only --base-ref main …`, its input `input` (none: not a terminal). */
  terrace(command: 'plan' | 'apply', ...extra: string[]): SpawnSyncReturns<string> {
    return spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(repo, 'server/src/cli/cli.ts'),
        command,
        this.top,
        '--changed-only',
        '--base-ref',
        'main',
        ...extra,
      ],
      { cwd: repo, encoding: 'utf8', env: terraformTestEnv() },
    );
  }

  /** The modules terraform ran in during the last run: those with a log in its run folder. */
  ran(): string[] {
    const found: string[] = [];
    const walk = (dir: string, id: string) => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (!statSync(full).isDirectory()) continue;
        if (existsSync(path.join(full, 'terraform.log'))) found.push(id ? `${id}/${name}` : name);
        else walk(full, id ? `${id}/${name}` : name);
      }
    };
    walk(this.lastRun(), '');
    return found.sort();
  }

  lastRun(): string {
    const runs = path.join(this.top, '.terrace', 'runs');
    return path.join(runs, readdirSync(runs).sort().at(-1)!);
  }

  /** The text of every file Terrace wrote: under `.terrace/`, saved plans aside (and files ending `except`). */
  written(options: { except?: string } = {}): string {
    const texts: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        const skipped = options.except !== undefined && full.endsWith(options.except);
        if (statSync(full).isDirectory()) walk(full);
        else if (!name.endsWith('.tfplan') && !skipped) texts.push(readFileSync(full, 'utf8'));
      }
    };
    walk(path.join(this.top, '.terrace'));
    return texts.join('\n');
  }

  /** A module's state as terraform keeps it: its outputs and resources. */
  state(id: string): { outputs: unknown; resources: unknown } {
    const state = JSON.parse(readFileSync(path.join(this.top, id, 'terraform.tfstate'), 'utf8'));
    return { outputs: state.outputs, resources: state.resources };
  }

  /** `terraform plan -detailed-exitcode` in a module, after init: 0 when its state is what its files say. */
  planExitCode(id: string): number | null {
    const cwd = path.join(this.top, id);
    const env = terraformTestEnv();
    execFileSync('terraform', ['init', '-input=false', '-no-color'], { cwd, env, stdio: 'ignore' });
    return spawnSync('terraform', ['plan', '-input=false', '-no-color', '-detailed-exitcode'], { cwd, env }).status;
  }
}

function terraformTestEnv(): NodeJS.ProcessEnv {
  return { ...process.env, TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1', NO_COLOR: '1' };
}

/** Each module's result, as its status line says it when it finishes (the table's cells are cut short). */
export function rows(stdout: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const line of stdout.split('\n')) {
    const match = /^[✔±✖⊘■○⧗] (\S+): (.*?)(?: \((?:\d+m )?[\d.]+s\))?$/u.exec(line);
    if (match) found[match[1]!] = match[2]!;
  }
  return found;
}
