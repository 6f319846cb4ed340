import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ReachRepository, rows } from './reachRepository';

/**
 * A changed-only plan decides each dependent from the outputs it reads, with the real terraform: the plan-reach
 * fixture (states checked in) in a git repository, one change at a time, through `terrace plan --changed-only`.
 */
let repository: ReachRepository;
const plan = (...extra: string[]) => repository.terrace('plan', ...extra);
const ran = () => repository.ran();
const reset = () => repository.reset();
const change = (file: string, from: string, to: string) => repository.change(file, from, to);

describe('a changed-only plan, from the outputs each dependent reads (real terraform)', () => {
  before(() => {
    repository = new ReachRepository();
  });
  after(() => repository.remove());

  test('an upstream change that alters no output: every dependent unaffected, terraform never started in them', () => {
    reset();
    change('net/vpc/main.tf', 'team = "network"', 'team = "platform"');
    const result = plan();
    assert.equal(result.status, 0, result.stderr);
    // data/db reads an output by a key known only at run time: planned.
    assert.deepEqual(ran(), ['data/db', 'net/vpc']);
    assert.deepEqual(rows(result.stdout), {
      'net/vpc': '0 to add, 1 to change, 0 to destroy',
      'app/api': 'skipped: reads cidr, vpc_id of net/vpc: unchanged in its plan',
      'app/worker': 'skipped: reads vpc_id of net/vpc: unchanged in its plan',
      'data/db': 'no changes',
      'obs/all': 'skipped: reads every output (cidr, token, vpc_id) of net/vpc: unchanged in its plan',
      'app/web': 'skipped: app/api is unaffected',
    });
    for (const id of ['app/api', 'app/worker', 'obs/all', 'app/web'])
      assert.ok(!existsSync(path.join(repository.top, id, '.terraform')), `no terraform init in ${id}`);
    assert.match(result.stdout, /6 modules: 1 with changes, 1 without changes, 4 unaffected/);
  });

  test('an output read by one dependent and not another, known only after apply; a second hop waits too', () => {
    reset();
    change('net/vpc/main.tf', '10.0.0.0/16', '10.1.0.0/16');
    const result = plan();
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(ran(), ['net/vpc']);
    assert.deepEqual(rows(result.stdout), {
      'net/vpc': '0 to add, 1 to change, 0 to destroy',
      'app/api': 'after net/vpc applies: reads cidr (unknown)',
      'app/worker': 'skipped: reads vpc_id of net/vpc: unchanged in its plan',
      'data/db': 'after net/vpc applies: reads outputs named only at run time, and cidr (unknown) changes',
      'obs/all': 'after net/vpc applies: reads cidr (unknown)',
      'app/web': 'after net/vpc applies: reads from app/api, which waits for it',
    });
    // Stale modules have changes to come: with --detailed-exitcode, 2.
    assert.equal(plan('--detailed-exitcode').status, 2);
  });

  test('a sensitive output that changes: whoever reads it waits, and its values are in no file Terrace writes', () => {
    reset();
    change('net/vpc/main.tf', 's3cr3t-token-value', 'n3w-s3cr3t-value');
    const result = plan();
    assert.equal(result.status, 0, result.stderr);
    const table = rows(result.stdout);
    assert.equal(table['obs/all'], 'after net/vpc applies: reads token (changed)');
    assert.equal(table['app/api'], 'skipped: reads cidr, vpc_id of net/vpc: unchanged in its plan');
    const files = repository.written();
    assert.ok(files.includes('"token": "changed"'), 'the summary names the output and its kind');
    for (const value of ['s3cr3t-token-value', 'n3w-s3cr3t-value'])
      assert.ok(!files.includes(value) && !result.stdout.includes(value), `${value} appears nowhere Terrace writes`);
  });

  test('a dependent with a change of its own is planned, and marked stale', () => {
    reset();
    change('net/vpc/main.tf', '10.0.0.0/16', '10.1.0.0/16');
    change('app/api/main.tf', 'https://api.internal/', 'https://api.example/');
    const result = plan();
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(ran(), ['app/api', 'net/vpc']);
    assert.equal(
      rows(result.stdout)['app/api'],
      'changes to outputs only (1) (stale: after net/vpc applies: reads cidr (unknown))',
    );
    assert.equal(rows(result.stdout)['app/web'], 'after net/vpc applies: reads from app/api, which waits for it');
  });

  test('an upstream whose plan fails: its dependents are skipped as before', () => {
    reset();
    change('net/vpc/main.tf', 'input = var.cidr', 'input = var.nowhere');
    const result = plan();
    assert.equal(result.status, 1);
    assert.deepEqual(ran(), ['net/vpc']);
    assert.equal(rows(result.stdout)['app/api'], 'skipped: upstream dependencies failed: net/vpc');
  });

  test('--all-dependents plans every dependent, as before', () => {
    reset();
    change('net/vpc/main.tf', 'team = "network"', 'team = "platform"');
    const result = plan('--all-dependents');
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(ran(), ['app/api', 'app/web', 'app/worker', 'data/db', 'net/vpc', 'obs/all']);
  });
});
