import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { gitIn } from './gitRepository';

/**
 * A cycle elsewhere in the repository does not stop a pipeline or a run of other modules: the
 * cycle-elsewhere fixture (two cycles, `iam/*` and `security/*`, and modules outside them, states checked
 * in) in a git repository, each change on a branch off main, through the CLI as CI runs it, and `terrace
 * plan` with the real terraform.
 */
const repo = path.resolve(__dirname, '../..');
const FIXTURE = path.join(repo, 'test/fixtures/cycle-elsewhere');
let top: string;
let git: (...args: string[]) => string;

function cli(...args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', path.join(repo, 'server/src/cli/cli.ts'), ...args], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1', NO_COLOR: '1' },
  });
}

/** A branch off main that appends a comment to each of `modules`' main.tf; checked out. */
function branch(name: string, modules: string[]): void {
  git('checkout', '-q', '-b', name, 'main');
  for (const module of modules) appendFileSync(path.join(top, module, 'main.tf'), `\n# ${name}\n`);
  git('commit', '-q', '-am', name);
}

function jobs(yaml: string): string[] {
  return Object.keys(parse(yaml)).filter((key) => key.startsWith('plan-') || key.startsWith('apply-'));
}

const LEFT_ALONE =
  'Warning: 2 dependency cycles elsewhere in the repository were left alone: none closes among these modules (see the Problems view, or terrace levels)';

describe('a cycle elsewhere in the repository', () => {
  before(() => {
    top = mkdtempSync(path.join(os.tmpdir(), 'terrace-cycles-'));
    cpSync(FIXTURE, top, { recursive: true });
    git = gitIn(top, 'initial');
  });
  after(() => rmSync(top, { recursive: true, force: true }));

  test('a change outside every cycle gets its pipeline, and one line about the cycles left alone', () => {
    branch('api', ['app/api']);
    const result = cli('generate', top, '--ci', 'gitlab', '--changed-only', '--base-ref', 'main');
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(jobs(result.stdout), ['plan-app-api', 'apply-app-api']);
    assert.equal(result.stderr.split('\n').filter((line) => line === LEFT_ALONE).length, 1, result.stderr);
    const github = cli('generate', top, '--ci', 'github', '--changed-only', '--base-ref', 'main');
    assert.equal(github.status, 0, github.stderr);
    assert.ok(github.stderr.includes(LEFT_ALONE));
    const split = cli('generate', top, '--ci', 'gitlab', '--changed-only', '--base-ref', 'main', '--split', 'level');
    assert.equal(split.status, 0, split.stderr);
  });

  test('a change to a module that reads from a cycle member: generated, without that member', () => {
    branch('audit', ['tools/audit']);
    const result = cli('generate', top, '--ci', 'gitlab', '--changed-only', '--base-ref', 'main');
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(jobs(result.stdout), ['plan-tools-audit', 'apply-tools-audit']);
    assert.deepEqual(parse(result.stdout)['plan-tools-audit'].needs, []);
    assert.ok(result.stderr.includes(LEFT_ALONE));
  });

  test('a change to two members of one cycle: refused, naming that cycle and no other', () => {
    branch('security', ['security/a', 'security/b']);
    const result = cli('generate', top, '--ci', 'gitlab', '--changed-only', '--base-ref', 'main');
    assert.equal(result.status, 1);
    assert.equal(result.stdout, '');
    assert.match(
      result.stderr,
      /Error: circular dependency among the modules this change reaches; a pipeline needs an order/,
    );
    assert.ok(result.stderr.includes('  security/a -> security/b -> security/a\n'), result.stderr);
    assert.ok(!result.stderr.includes('iam/'), result.stderr);
  });

  test('the whole pipeline of a graph with cycles is refused as before, naming every cycle', () => {
    git('checkout', '-q', 'main');
    const result = cli('generate', top, '--ci', 'gitlab');
    assert.equal(result.status, 1);
    assert.match(result.stderr, /circular dependency among the modules; a pipeline needs an order/);
    assert.ok(result.stderr.includes('  iam/policy -> iam/role -> iam/policy\n'));
    assert.ok(result.stderr.includes('  security/a -> security/b -> security/a\n'));
  });

  test('terrace plan --changed-only, with the real terraform: the same three', () => {
    const plan = (name: string) => {
      git('checkout', '-q', name);
      return cli('plan', top, '--changed-only', '--base-ref', 'main', '--parallelism', '2');
    };
    const api = plan('api');
    assert.equal(api.status, 0, api.stderr);
    assert.ok(api.stderr.includes(LEFT_ALONE), api.stderr);
    assert.match(api.stdout, /app\/api\s.*1 to add, 0 to change, 0 to destroy/);
    const audit = plan('audit');
    assert.equal(audit.status, 0, audit.stderr);
    assert.match(audit.stdout, /tools\/audit\s.*1 to add, 0 to change, 0 to destroy/);
    const security = plan('security');
    assert.equal(security.status, 1);
    assert.match(security.stderr, /circular dependency among the modules to plan/);
    assert.ok(security.stderr.includes('security/a -> security/b -> security/a'), security.stderr);
    assert.ok(!security.stderr.includes('iam/'), security.stderr);
    git('checkout', '-q', '--', '.');
    git('clean', '-qfdx');
  });

  test('terrace plan --module: the same rule for the modules chosen, with their dependencies', () => {
    git('checkout', '-q', 'main');
    const audit = cli('plan', top, '--module', 'tools/audit', '--parallelism', '2');
    assert.equal(audit.status, 0, audit.stderr);
    assert.ok(audit.stderr.includes(LEFT_ALONE), audit.stderr);
    const security = cli('plan', top, '--module', 'security/a', '--with-dependencies');
    assert.equal(security.status, 1);
    assert.ok(security.stderr.includes('security/a -> security/b -> security/a'), security.stderr);
    git('checkout', '-q', '--', '.');
    git('clean', '-qfdx');
  });
});
