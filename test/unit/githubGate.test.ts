import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { validateWorkflow } from '@action-validator/core';
import { parse } from 'yaml';
import { CLI, GatedRepository, requireGateTools } from './gatedRepository';
import { githubCondition } from './githubExpression';
import { resultsOf, type Workflow, WorkflowRun } from './githubWorkflowRun';

/**
 * The GitHub workflow of a change, each dependent deciding from the outputs it reads: valid for
 * @action-validator/core, and run here as GitHub would run it, job after job (`githubWorkflowRun.ts`), with the
 * real terraform on a copy of the plan-reach fixture, the jobs sharing one checkout. Terrace is the built
 * `node dist/cli.js`.
 */
const copies: GatedRepository[] = [];

/** The gated workflow of `file`'s change (with `config` in .terrace.yaml), valid, then run. */
function runWorkflow(file: string, from: string, to: string, config = ''): WorkflowRun {
  const repository = new GatedRepository();
  copies.push(repository);
  if (config !== '') {
    writeFileSync(path.join(repository.dir, '.terrace.yaml'), `gate:\n  command: node ${CLI}\n${config}`);
    repository.git('commit', '-q', '-am', 'config');
  }
  repository.change(file, from, to);
  const text = repository.generate('github', '.github/workflows/terrace.yml');
  const calledText = readFileSync(path.join(repository.dir, '.github/workflows/terrace-module.yml'), 'utf8');
  assert.deepEqual(validateWorkflow(text).errors, []);
  assert.deepEqual(validateWorkflow(calledText).errors, []);
  return new WorkflowRun(repository, parse(text) as Workflow, parse(calledText) as Workflow).run();
}

describe('GitHub: a changed-only workflow whose dependents decide from the outputs they read', () => {
  before(() => {
    requireGateTools();
  });
  after(() => {
    for (const copy of copies) copy.remove();
  });

  test('a change to cidr: its readers start after net/vpc applied, the others show as skipped; the reasons in net/vpc’s log', () => {
    const run = runWorkflow('net/vpc/main.tf', '10.0.0.0/16', '10.1.0.0/16');
    assert.deepEqual(resultsOf(run), {
      'module-net-vpc': 'success',
      'module-app-api': 'success',
      'module-app-worker': 'skipped',
      'module-data-db': 'success',
      'module-obs-all': 'success',
      // app/api's url is made of vpc_id, which its apply did not change.
      'module-app-web': 'skipped',
    });
    assert.deepEqual(run.said('module-net-vpc/apply'), [
      'net/vpc: applied; outputs changed: cidr',
      "app/api: starts: net/vpc's apply changed cidr",
      'app/worker: skipped as far as net/vpc goes: reads vpc_id of net/vpc: unchanged by its apply',
      'data/db: starts: reads outputs of net/vpc named only at run time, and its apply changed cidr',
      "obs/all: starts: net/vpc's apply changed cidr",
    ]);
    assert.deepEqual(run.said('module-app-api/apply'), [
      'app/api: applied; no output changed',
      'app/web: skipped as far as app/api goes: reads url of app/api: unchanged by its apply',
    ]);
    assert.equal(run.said('module-app-api/plan')[0], "app/api: planning, as net/vpc's apply changed cidr");
    // Planned after net/vpc applied: on the new cidr.
    assert.match(readFileSync(run.repository.statePath('app/api'), 'utf8'), /"10\.1\.0\.0\/16"/);
    for (const id of ['app/worker', 'app/web']) assert.ok(!existsSync(path.join(run.repository.dir, id, '.terraform')));
    // The step summary holds the reasons as code, and no value of the sensitive output anywhere Terrace wrote.
    const summary = readFileSync(run.summary, 'utf8');
    assert.match(summary, /^ {4}app\/worker: skipped as far as net\/vpc goes: /m);
    const records = Object.values(run.results).map((result) => JSON.stringify(result.outputs));
    assert.match(run.results['module-net-vpc']!.outputs['record']!, /"token":"unchanged"/);
    // terraform's own plan of obs/all shows it (terraform_remote_state keeps no output sensitive): not Terrace's.
    const terraceLines = Object.keys(run.logs).flatMap((job) => run.said(job));
    for (const text of [summary, ...records, ...terraceLines]) assert.ok(!text.includes('s3cr3t-token-value'));
  });

  test('a change that alters no output: every reader that names what it reads shows as skipped', () => {
    const run = runWorkflow('net/vpc/main.tf', 'team = "network"', 'team = "platform"');
    assert.deepEqual(resultsOf(run), {
      'module-net-vpc': 'success',
      'module-app-api': 'skipped',
      'module-app-worker': 'skipped',
      // A key known only at run time: it plans, as terrace plan does.
      'module-data-db': 'success',
      'module-obs-all': 'skipped',
      'module-app-web': 'skipped',
    });
    assert.equal(run.said('module-data-db/plan')[0], 'data/db: planning: it reads outputs named only at run time');
  });

  test('an upstream whose plan fails: every module after it shows as skipped, two levels down too', () => {
    const run = runWorkflow('net/vpc/main.tf', 'team = "network"', 'team = var.missing');
    assert.deepEqual(resultsOf(run), {
      'module-net-vpc': 'failure',
      'module-app-api': 'skipped',
      'module-app-worker': 'skipped',
      'module-data-db': 'skipped',
      'module-obs-all': 'skipped',
      'module-app-web': 'skipped',
    });
  });

  test('plan only: a reader of a changed output starts, says it is stale until net/vpc applies, and ends before init', () => {
    const run = runWorkflow('net/vpc/main.tf', '10.0.0.0/16', '10.1.0.0/16', 'github:\n  planOnly: true\n');
    assert.deepEqual(resultsOf(run), {
      'module-net-vpc': 'success',
      'module-app-api': 'success',
      'module-app-worker': 'skipped',
      'module-data-db': 'success',
      'module-obs-all': 'success',
      'module-app-web': 'success',
    });
    const waits = "not planned now: its plan would read values its upstreams' applies replace";
    assert.deepEqual(run.said('module-app-api/plan').slice(0, 2), [
      'app/api: after net/vpc applies: reads cidr (unknown)',
      `app/api: ${waits}`,
    ]);
    assert.deepEqual(run.said('module-app-web/plan').slice(0, 2), [
      'app/web: after net/vpc applies: reads from app/api, which waits for it',
      `app/web: ${waits}`,
    ]);
    for (const id of ['app/api', 'app/web', 'obs/all', 'data/db'])
      assert.ok(!existsSync(path.join(run.repository.dir, id, '.terraform')), `terraform never started in ${id}`);
  });

  test('the if: of a dependent, as GitHub evaluates it: a failed or cancelled upstream skips it, whatever it says', () => {
    const repository = new GatedRepository();
    copies.push(repository);
    repository.change('net/vpc/main.tf', '10.0.0.0/16', '10.1.0.0/16');
    const jobs = (parse(repository.generate('github', 'w.yml')) as Workflow).jobs;
    const api = jobs['module-app-api']!.if!;
    const web = jobs['module-app-web']!.if!;
    const vpc = (result: string, starts: string) => ({ result, outputs: { starts, record: '' } });
    const skipped = { result: 'skipped', outputs: {} };
    assert.equal(githubCondition(api, { needs: { 'module-net-vpc': vpc('success', 'app-api obs-all') } }), true);
    assert.equal(githubCondition(api, { needs: { 'module-net-vpc': vpc('success', 'app-apix obs-all') } }), false);
    assert.equal(githubCondition(api, { needs: { 'module-net-vpc': vpc('success', '') } }), false);
    const failed = { failure: true, cancelled: false };
    assert.equal(githubCondition(api, { needs: { 'module-net-vpc': vpc('failure', 'app-api') } }, failed), false);
    assert.equal(githubCondition(api, { needs: { 'module-net-vpc': vpc('cancelled', 'app-api') } }), false);
    assert.equal(
      githubCondition(
        api,
        { needs: { 'module-net-vpc': vpc('success', 'app-api') } },
        { failure: false, cancelled: true },
      ),
      false,
    );
    // app/web needs app/api only: a skipped app/api is unaffected unless a job before it failed (failure() looks
    // at every ancestor job, net/vpc too).
    const apiStarts = { result: 'success', outputs: { starts: 'app-web' } };
    assert.deepEqual(jobs['module-app-web']!.needs, ['module-app-api']);
    assert.equal(githubCondition(web, { needs: { 'module-app-api': apiStarts } }), true);
    assert.equal(githubCondition(web, { needs: { 'module-app-api': skipped } }), false);
    assert.equal(githubCondition(web, { needs: { 'module-app-api': apiStarts } }, failed), false);
  });
});

after(() => {
  for (const copy of copies) rmSync(copy.top, { recursive: true, force: true });
});
