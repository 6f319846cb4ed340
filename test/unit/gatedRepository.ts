import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Git, gitIn } from './gitRepository';
import { REACH_MODULES } from './reachRepository';

/**
 * A copy of the plan-reach fixture for the pipelines of a change: its states moved out of the repository into a
 * folder of their own (`states/`), which every backend and every `terraform_remote_state` names by its absolute
 * path, as a remote backend is one place whichever job's copy of the repository runs. `main` is what is deployed;
 * `change()` commits a change on a branch; `generate()` writes the pipeline of what it reaches, whose jobs run
 * Terrace as built (`node dist/cli.js`).
 */
const repo = path.resolve(__dirname, '../..');
const FIXTURE = path.join(repo, 'test/fixtures/plan-reach');
export const CLI = path.join(repo, 'dist/cli.js');

/** What the gated pipelines' tests run: the real terraform, and Terrace's CLI as built. Throws, saying why, without them. */
export function requireGateTools(): void {
  const terraform = spawnSync('terraform', ['version'], { encoding: 'utf8' });
  if (terraform.error || terraform.status !== 0) throw new Error('cannot run: terraform is not installed');
  if (!existsSync(CLI)) throw new Error('cannot run: dist/cli.js is missing (node esbuild.mjs builds it)');
}

export class GatedRepository {
  readonly top = mkdtempSync(path.join(os.tmpdir(), 'terrace-gated-'));
  readonly dir = path.join(this.top, 'repo');
  readonly states = path.join(this.top, 'states');
  readonly git: Git;

  constructor() {
    cpSync(FIXTURE, this.dir, { recursive: true });
    for (const id of REACH_MODULES) {
      mkdirSync(path.join(this.states, id), { recursive: true });
      // The paths the reads name, in the code and in the states that recorded them.
      const absolute = (text: string) =>
        text
          .replaceAll('"../../net/vpc/terraform.tfstate"', JSON.stringify(this.statePath('net/vpc')))
          .replaceAll('"../api/terraform.tfstate"', JSON.stringify(this.statePath('app/api')));
      const state = path.join(this.dir, id, 'terraform.tfstate');
      writeFileSync(this.statePath(id), absolute(readFileSync(state, 'utf8')));
      rmSync(state);
      const file = path.join(this.dir, id, 'main.tf');
      const text = readFileSync(file, 'utf8').replace(
        'backend "local" {}',
        `backend "local" {\n    path = ${JSON.stringify(this.statePath(id))}\n  }`,
      );
      writeFileSync(file, absolute(text));
    }
    writeFileSync(path.join(this.dir, '.terrace.yaml'), `gate:\n  command: node ${CLI}\n`);
    this.git = gitIn(this.dir, 'deployed');
    this.git('remote', 'add', 'origin', 'git@gitlab.example.com:acme/infra.git');
  }

  statePath(id: string): string {
    return path.join(this.states, id, 'terraform.tfstate');
  }

  /**
   * A module's state as terraform keeps it: its outputs and managed resources (this copy's folder as `<top>`). A
   * data source's entry is what the last plan read, refreshed by every plan: a pipeline that applies a plan of no
   * changes (every dependent, `--all-dependents`) writes the new read there, one that skips the module does not.
   */
  state(id: string): { outputs: unknown; resources: unknown } {
    const state = JSON.parse(readFileSync(this.statePath(id), 'utf8').replaceAll(this.top, '<top>'));
    const managed = (state.resources as { mode: string }[]).filter((resource) => resource.mode === 'managed');
    return { outputs: state.outputs, resources: managed };
  }

  /** `from` replaced by `to` in `file`, committed on the branch `change`. */
  change(file: string, from: string, to: string): void {
    const full = path.join(this.dir, file);
    const text = readFileSync(full, 'utf8');
    assert.ok(text.includes(from), `${file} holds ${from}`);
    this.git('checkout', '-q', '-b', 'change');
    writeFileSync(full, text.replace(from, to));
    this.git('commit', '-q', '-am', 'change');
  }

  /** `terrace generate --changed-only --base-ref main` into `output` (relative), committed; returns its text. */
  generate(ci: 'gitlab' | 'github', output: string, ...extra: string[]): string {
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(repo, 'server/src/cli/cli.ts'),
        'generate',
        this.dir,
        '--ci',
        ci,
        '--changed-only',
        '--base-ref',
        'main',
        '--output',
        path.join(this.dir, output),
        ...extra,
      ],
      { cwd: repo, encoding: 'utf8' },
    );
    assert.equal(run.status, 0, run.stderr);
    this.git('add', '-A');
    this.git('commit', '-q', '-m', 'pipeline');
    return readFileSync(path.join(this.dir, output), 'utf8');
  }

  /** The text of every file in `dir` (recursively) whose name passes `keep`. */
  static texts(dir: string, keep: (name: string) => boolean): string {
    const out: string[] = [];
    for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
      if (entry.isFile() && keep(entry.name)) out.push(readFileSync(path.join(entry.parentPath, entry.name), 'utf8'));
    return out.join('\n');
  }

  remove(): void {
    rmSync(this.top, { recursive: true, force: true });
  }
}
