import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { REACH_MODULES, ReachRepository, rows } from './reachRepository';

/**
 * `terrace apply --changed-only` with the real terraform on the plan-reach fixture: after a module applies, each
 * dependent is planned and applied only when an output it reads changed; the states it leaves are those of
 * applying every dependent in order (`--all-dependents`, in a second copy).
 */
let gated: ReachRepository;
let everything: ReachRepository;

/** The two copies after the same change: one applied from the outputs read, one applying every dependent. */
function applyBoth(file: string, from: string, to: string) {
  for (const repository of [gated, everything]) {
    repository.reset();
    repository.change(file, from, to);
  }
  const result = gated.terrace('apply', '--auto-approve');
  const all = everything.terrace('apply', '--auto-approve', '--all-dependents');
  assert.equal(all.status, 0, all.stderr);
  assert.deepEqual(everything.ran(), REACH_MODULES);
  for (const id of REACH_MODULES) assert.deepEqual(gated.state(id), everything.state(id), `${id}'s state`);
  return result;
}

describe('terrace apply, from the outputs each dependent reads (real terraform)', () => {
  before(() => {
    gated = new ReachRepository();
    everything = new ReachRepository();
  });
  after(() => {
    gated.remove();
    everything.remove();
  });

  test('an output that changes: the dependents that read it are planned and applied, the others never started', () => {
    const result = applyBoth('net/vpc/main.tf', '10.0.0.0/16', '10.1.0.0/16');
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(rows(result.stdout), {
      'net/vpc': 'applied: 0 added, 1 changed, 0 destroyed; outputs changed: cidr',
      'app/api': 'applied: 0 added, 1 changed, 0 destroyed',
      'app/worker': 'skipped: reads vpc_id of net/vpc: unchanged by its apply',
      // Its key is known only at run time: planned, and its plan has nothing to do.
      'data/db': 'no changes',
      'obs/all': 'applied: 0 added, 1 changed, 0 destroyed',
      'app/web': 'skipped: reads url of app/api: unchanged by its apply',
    });
    assert.deepEqual(gated.ran(), ['app/api', 'data/db', 'net/vpc', 'obs/all']);
    for (const id of ['app/worker', 'app/web'])
      assert.ok(!existsSync(path.join(gated.top, id, '.terraform')), `no terraform init in ${id}`);
    assert.match(result.stdout, /6 modules: 3 applied, 1 without changes, 2 unaffected in /);
    assert.match(result.stdout, /^▶ app\/api: planning and applying, as net\/vpc's apply changed cidr$/m);
    // Kept for its run state (hovers, the panel): what the run decided of each module it did not run.
    const state = JSON.parse(readFileSync(path.join(gated.top, '.terrace/state.json'), 'utf8'));
    assert.deepEqual(
      [state.modules['app/worker'].lastDecision.status, state.modules['app/worker'].lastDecision.reason],
      ['unaffected', 'reads vpc_id of net/vpc: unchanged by its apply'],
    );
    assert.equal(state.modules['app/api'].lastDecision, undefined);
    // Applied: nothing is left to plan anywhere.
    for (const id of REACH_MODULES) assert.equal(gated.planExitCode(id), 0, `${id} plans no changes`);
  });

  test('a change that alters no output: the upstream alone applies; the run report says why of each module', () => {
    const result = applyBoth('net/vpc/main.tf', 'team = "network"', 'team = "platform"');
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(gated.ran(), ['data/db', 'net/vpc']);
    const report = JSON.parse(readFileSync(path.join(gated.lastRun(), 'report.json'), 'utf8'));
    assert.equal(report.kind, 'deploy');
    const byId = Object.fromEntries(report.modules.map((module: { id: string }) => [module.id, module]));
    assert.deepEqual(byId['net/vpc'].outputs, { cidr: 'unchanged', token: 'unchanged', vpc_id: 'unchanged' });
    assert.equal(byId['net/vpc'].result, 'applied: 0 added, 1 changed, 0 destroyed');
    assert.equal(byId['obs/all'].status, 'unaffected');
    assert.equal(byId['obs/all'].reason, 'reads every output (cidr, token, vpc_id) of net/vpc: unchanged by its apply');
    assert.equal(byId['app/web'].reason, 'app/api is unaffected');
  });

  test('a sensitive output that changes: whoever reads it applies, and its values are in no file Terrace writes', () => {
    const result = applyBoth('net/vpc/main.tf', 's3cr3t-token-value', 'n3w-s3cr3t-value');
    assert.equal(result.status, 0, result.stderr);
    const table = rows(result.stdout);
    assert.equal(table['net/vpc'], 'applied: 0 added, 0 changed, 0 destroyed; outputs changed: token');
    assert.equal(table['obs/all'], 'applied: 0 added, 1 changed, 0 destroyed');
    assert.equal(table['app/api'], 'skipped: reads cidr, vpc_id of net/vpc: unchanged by its apply');
    // obs/all reads the value through terraform_remote_state, which keeps no output sensitive: terraform's own
    // plan of it prints the value, in its log and its lines. Nothing else Terrace writes holds it.
    const files = gated.written({ except: 'obs/all/terraform.log' });
    const lines = result.stdout
      .split('\n')
      .filter((line) => !line.startsWith('obs/all '))
      .join('\n');
    for (const value of ['s3cr3t-token-value', 'n3w-s3cr3t-value'])
      assert.ok(!files.includes(value) && !lines.includes(value), `${value} appears nowhere Terrace writes`);
  });

  test('without --auto-approve and no terminal to ask on: refused before anything runs', () => {
    gated.reset();
    gated.change('net/vpc/main.tf', '10.0.0.0/16', '10.1.0.0/16');
    const result = gated.terrace('apply');
    assert.equal(result.status, 1);
    assert.match(
      result.stderr,
      /asks before it applies each plan, and its input is not a terminal; pass --auto-approve/,
    );
    assert.ok(!existsSync(path.join(gated.top, '.terrace')), 'nothing ran');
  });

  test('at a terminal, it asks: "no" applies nothing and skips the dependents; "yes" applies', () => {
    gated.reset();
    gated.change('net/vpc/main.tf', '10.0.0.0/16', '10.1.0.0/16');
    const before = readFileSync(path.join(gated.top, 'net/vpc/terraform.tfstate'), 'utf8');
    const declined = atTerminal(gated, 'no\n');
    assert.equal(declined.status, 1, declined.output);
    assert.match(declined.output, /Apply the plan of net\/vpc \(0 to add, 1 to change, 0 to destroy/);
    assert.match(declined.output, /✖ net\/vpc: failed: not applied: the plan was not approved/);
    assert.match(declined.output, /⊘ app\/api: skipped: upstream dependencies failed: net\/vpc/);
    assert.equal(readFileSync(path.join(gated.top, 'net/vpc/terraform.tfstate'), 'utf8'), before);

    const approved = atTerminal(gated, 'yes\nyes\nyes\n');
    assert.equal(approved.status, 0, approved.output);
    assert.match(approved.output, /✔ net\/vpc: applied: 0 added, 1 changed, 0 destroyed; outputs changed: cidr/);
    assert.equal((approved.output.match(/Apply the plan of /g) ?? []).length, 3, 'net/vpc, app/api and obs/all');
  });
});

/** `terrace apply` on a pseudo-terminal (util-linux `script`), typing `answers`. */
function atTerminal(repository: ReachRepository, answers: string): { status: number | null; output: string } {
  const repo = path.resolve(__dirname, '../..');
  const command = [
    process.execPath,
    '--import',
    'tsx',
    path.join(repo, 'server/src/cli/cli.ts'),
    'apply',
    repository.top,
    '--changed-only',
    '--base-ref',
    'main',
    '--parallelism',
    '1',
  ]
    .map((arg) => `'${arg.replaceAll("'", "'\\''")}'`)
    .join(' ');
  const result = spawnSync('script', ['-qec', command, '/dev/null'], {
    cwd: repo,
    input: answers,
    encoding: 'utf8',
    env: { ...process.env, TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1', NO_COLOR: '1' },
  });
  return { status: result.status, output: result.stdout.replaceAll('\r\n', '\n') };
}
