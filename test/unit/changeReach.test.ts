import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { ChangedFilesError, changedFiles, changeReach, WorkspaceAnalysis } from '../../server/src/engine/analysis';
import { defaultOptions } from '../../server/src/engine/config';
import { gitIn } from './gitRepository';

/**
 * Changed-only pipelines: a temporary git repository holding the pipeline-local-backend fixture
 * under `infra/` (so the workspace is a subfolder of the repository), a `main` branch and a
 * feature branch with commits on top.
 */
const repo = path.resolve(__dirname, '../..');
const VPC = 'network/prod/eu-west-1/vpc';
const EKS = 'platform/prod/eu-west-1/eks';
const DB = 'data/prod/eu-west-1/db';
const API = 'app/prod/eu-west-1/api';

let git: (...args: string[]) => string;
let top: string;
let root: string;

async function affected(baseRef: string, includeUncommitted = false, libraryModules: string[] = []) {
  const files = await changedFiles(root, baseRef, { includeUncommitted });
  const analysis = new WorkspaceAnalysis(root, defaultOptions());
  await analysis.load();
  const result = changeReach(analysis.result(), files, { libraryModules });
  return { files, reached: [...result.reached.keys()], affected: [...result.affected].sort() };
}

/** Commits `changes` (path relative to the workspace → text appended) on a new branch off main. */
function branch(name: string, changes: Record<string, string>): void {
  git('checkout', '-q', '-b', name, 'main');
  for (const [file, text] of Object.entries(changes)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    appendFileSync(path.join(root, file), text);
  }
  git('add', '-A');
  git('commit', '-q', '-m', name);
}

describe('changed modules', () => {
  before(() => {
    top = mkdtempSync(path.join(os.tmpdir(), 'terrace-changed-'));
    root = path.join(top, 'infra');
    cpSync(path.join(repo, 'test/fixtures/pipeline-local-backend'), root, { recursive: true });
    writeFileSync(path.join(top, 'README.md'), 'outside the workspace\n');
    git = gitIn(top, 'initial');
  });
  after(() => rmSync(top, { recursive: true, force: true }));

  test('a changed module and everything that depends on it', async () => {
    branch('eks-change', { [`${EKS}/main.tf`]: '\n# resized\n' });
    const result = await affected('main');
    assert.deepEqual(result.files, [`${EKS}/main.tf`]);
    assert.deepEqual(result.reached, [EKS]);
    assert.deepEqual(result.affected, [API, EKS]);
  });

  test('a changed library module: every root that calls it, and their dependents', async () => {
    branch('tags-change', { 'modules/tags/main.tf': '\n# new tag\n' });
    const result = await affected('main');
    assert.deepEqual(result.reached, [API, DB]);
    assert.deepEqual(result.affected, [API, DB]);
  });

  test('a change at the bottom of the graph: every module', async () => {
    branch('vpc-change', { [`${VPC}/main.tf`]: '\n# wider\n', [`${VPC}/extra.auto.tfvars`]: 'a = 1\n' });
    const result = await affected('main');
    assert.deepEqual(result.reached, [VPC]);
    assert.deepEqual(result.affected, [API, DB, VPC, EKS]);
  });

  test('files no module reads (in the workspace folder and outside it): nothing', async () => {
    git('checkout', '-q', '-b', 'docs-change', 'main');
    appendFileSync(path.join(root, 'README.md'), 'more\n');
    appendFileSync(path.join(top, 'README.md'), 'more\n');
    git('commit', '-q', '-am', 'docs');
    const result = await affected('main');
    assert.deepEqual(
      result.files,
      ['../README.md', 'README.md'],
      'the files of the repository, relative to the workspace',
    );
    assert.deepEqual(result.affected, []);
  });

  test('the merge base, not the tip of the ref: later commits on main do not count', async () => {
    branch('db-change', { [`${DB}/main.tf`]: '\n# bigger\n' });
    git('checkout', '-q', 'main');
    appendFileSync(path.join(root, VPC, 'main.tf'), '\n# on main meanwhile\n');
    git('commit', '-q', '-am', 'main moves on');
    git('checkout', '-q', 'db-change');
    const result = await affected('main');
    assert.deepEqual(result.reached, [DB]);
    assert.deepEqual(result.affected, [API, DB]);
  });

  test('uncommitted and untracked files count only when asked (the editor)', async () => {
    git('checkout', '-q', '-b', 'dirty', 'main');
    appendFileSync(path.join(root, EKS, 'main.tf'), '\n# not committed\n');
    writeFileSync(path.join(root, VPC, 'new.tf'), '# untracked\n');
    assert.deepEqual((await affected('main')).affected, []);
    const dirty = await affected('main', true);
    assert.deepEqual(dirty.files, [`${VPC}/new.tf`, `${EKS}/main.tf`].sort());
    assert.deepEqual(dirty.reached, [VPC, EKS].sort());
    git('checkout', '-q', '--', '.');
    rmSync(path.join(root, VPC, 'new.tf'));
  });

  test('declared library folders: a change anywhere in them counts for the roots calling into them', async () => {
    branch('library-docs', { 'modules/README.md': 'shared modules\n' });
    assert.deepEqual((await affected('main')).affected, []);
    const result = await affected('main', false, ['modules']);
    assert.deepEqual(result.reached, [API, DB]);
  });

  test('an unknown ref or a folder outside git: a clear error', async () => {
    await assert.rejects(changedFiles(root, 'no-such-branch', { includeUncommitted: false }), (error: Error) => {
      assert.ok(error instanceof ChangedFilesError);
      assert.match(error.message, /cannot find the merge base of 'no-such-branch' and HEAD/);
      return true;
    });
    const outside = mkdtempSync(path.join(os.tmpdir(), 'terrace-nogit-'));
    try {
      await assert.rejects(changedFiles(outside, 'main', { includeUncommitted: false }), /is not in a git repository/);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test('a base ref that starts with "-" is refused as no revision, before git reads it as an option', async () => {
    git('checkout', '-q', 'eks-change');
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', path.join(repo, 'server/src/cli/cli.ts'), ...args], {
        cwd: repo,
        encoding: 'utf8',
      });
    for (const ref of ['--octopus', '--independent', '--fork-point'])
      for (const command of [
        ['generate', root, '--ci', 'gitlab', '--changed-only', `--base-ref=${ref}`],
        ['plan', root, '--changed-only', `--base-ref=${ref}`],
        ['affected', root, `--base-ref=${ref}`],
      ]) {
        const run = cli(...command);
        assert.equal(run.status, 2, `${command[0]} ${ref}: ${run.stderr}`);
        assert.equal(run.stdout, '', 'no pipeline, no plan');
        assert.equal(
          run.stderr.split('\n')[0],
          `terrace: --base-ref '${ref}' is not a revision: a base ref cannot start with '-' (git would read it as an option)`,
        );
      }
    // The editor's requests reach git through changedFiles, which refuses it too.
    await assert.rejects(changedFiles(root, '--octopus', { includeUncommitted: true }), (error: Error) => {
      assert.ok(error instanceof ChangedFilesError);
      assert.equal(
        error.message,
        "'--octopus' is not a revision: a base ref cannot start with '-' (git would read it as an option)",
      );
      return true;
    });
  });

  test('terrace generate --changed-only: only the affected jobs; no change gives the no-op job', () => {
    git('checkout', '-q', 'eks-change');
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', path.join(repo, 'server/src/cli/cli.ts'), ...args], {
        cwd: repo,
        encoding: 'utf8',
      });
    const changed = cli('generate', root, '--ci', 'gitlab', '--changed-only', '--base-ref', 'main');
    assert.equal(changed.status, 0, changed.stderr);
    const yaml = parse(changed.stdout);
    assert.deepEqual(
      Object.keys(yaml).filter((key) => key.startsWith('plan-') || key.startsWith('apply-')),
      [
        'plan-platform-prod-eu-west-1-eks',
        'apply-platform-prod-eu-west-1-eks',
        'plan-app-prod-eu-west-1-api',
        'apply-app-prod-eu-west-1-api',
      ],
    );
    assert.deepEqual(yaml['plan-platform-prod-eu-west-1-eks'].needs, [], 'vpc is not in the pipeline');
    assert.match(
      changed.stderr,
      /1 changed file\(s\) since main: 1 module\(s\) read them, 2 in the pipeline with their dependents/,
    );

    git('checkout', '-q', 'main');
    const none = cli('generate', root, '--ci', 'github', '--changed-only', '--base-ref', 'main');
    assert.equal(none.status, 0, none.stderr);
    assert.deepEqual(Object.keys(parse(none.stdout).jobs), ['no-changes']);

    const usage = cli('generate', root, '--ci', 'gitlab', '--changed-only');
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /--changed-only needs --base-ref <ref>/);
  });
});
