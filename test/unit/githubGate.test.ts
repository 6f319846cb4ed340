import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { validateWorkflow } from '@action-validator/core';
import { parse } from 'yaml';
import { CLI, GatedRepository } from './gatedRepository';
import { type GithubValue, githubCondition, githubTemplate } from './githubExpression';

/**
 * The GitHub workflow of a change, each dependent deciding from the outputs it reads: valid for
 * @action-validator/core, and run here as GitHub would run it, job after job, with the real terraform on a copy
 * of the plan-reach fixture (its states outside the repository): each caller job's `if:` and inputs evaluated as
 * GitHub evaluates them, from the results and outputs of the jobs it needs; in the reusable workflow, each step's
 * `if:` evaluated and its `run:` run by bash as written, with the step's environment and a GITHUB_OUTPUT file whose
 * lines become the step's outputs. Checkout, setup and the artifact actions are not run: the jobs share one
 * checkout, where the plan file already is. Terrace is the built `node dist/cli.js`.
 */
type Job = Record<string, unknown> & {
  with?: Record<string, string>;
  needs?: string[];
  if?: string;
  env?: Record<string, string>;
  outputs?: Record<string, string>;
  steps: (Record<string, unknown> & { run?: string; if?: string; id?: string })[];
};
interface Workflow {
  on: { workflow_call?: { outputs?: Record<string, { value: string }> } };
  jobs: Record<string, Job>;
}
interface JobResult {
  result: 'success' | 'skipped' | 'failure';
  outputs: Record<string, string>;
}

const copies: GatedRepository[] = [];

class WorkflowRun {
  readonly results: Record<string, JobResult> = {};
  /** Each job's log: what its steps printed (stderr and stdout). */
  readonly logs: Record<string, string> = {};
  readonly summary = path.join(mkdtempSync(path.join(os.tmpdir(), 'terrace-summary-')), 'summary.md');

  constructor(
    readonly repository: GatedRepository,
    readonly caller: Workflow,
    readonly called: Workflow,
  ) {}

  /** Every job of the caller, in the order written (each after the jobs it needs). */
  run(): this {
    for (const [id, job] of Object.entries(this.caller.jobs)) this.results[id] = this.callerJob(id, job);
    return this;
  }

  private callerJob(id: string, job: Job): JobResult {
    const needs: Record<string, GithubValue> = {};
    for (const need of job.needs ?? []) needs[need] = this.results[need] as unknown as GithubValue;
    // No if: success(), every job it needs succeeded.
    const healthy = Object.values(needs).every((need) => (need as { result: string }).result === 'success');
    // failure(): a job before it failed, through the needs of the jobs it needs.
    const ancestors = new Set<string>();
    const visit = (of: string) => {
      for (const need of this.caller.jobs[of]!.needs ?? [])
        if (!ancestors.has(need)) {
          ancestors.add(need);
          visit(need);
        }
    };
    visit(id);
    const failure = [...ancestors].some((ancestor) => this.results[ancestor]!.result === 'failure');
    if (job.if === undefined ? !healthy : !githubCondition(job.if, { needs }, { failure, cancelled: false }))
      return { result: 'skipped', outputs: {} };
    const inputs: Record<string, GithubValue> = { upstream: '{}' };
    for (const [name, value] of Object.entries(job.with ?? {})) inputs[name] = githubTemplate(value, { needs });
    const jobs: Record<string, GithubValue> = {};
    for (const [name, called] of Object.entries(this.called.jobs)) {
      const calledNeeds: Record<string, GithubValue> = {};
      for (const need of called.needs ?? []) calledNeeds[need] = jobs[need]!;
      if (called.if !== undefined && !githubCondition(called.if, { needs: calledNeeds, inputs })) {
        jobs[name] = { result: 'skipped', outputs: {} };
        continue;
      }
      const done = this.calledJob(`${id}/${name}`, called, inputs);
      jobs[name] = done as unknown as GithubValue;
      if (done.result === 'failure') return { result: 'failure', outputs: {} };
    }
    const outputs: Record<string, string> = {};
    for (const [name, { value }] of Object.entries(this.called.on.workflow_call?.outputs ?? {}))
      outputs[name] = githubTemplate(value, { jobs });
    return { result: 'success', outputs };
  }

  private calledJob(name: string, job: Job, inputs: Record<string, GithubValue>): JobResult {
    const github = { workspace: this.repository.dir };
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(job.env ?? {})) env[key] = githubTemplate(value, { inputs, github });
    const defaults = githubTemplate(
      ((job['defaults'] as { run: { 'working-directory': string } }).run['working-directory'] as string) ?? '.',
      { inputs },
    );
    const steps: Record<string, GithubValue> = {};
    this.logs[name] = '';
    for (const step of job.steps) {
      if (step.if !== undefined && !githubCondition(step.if, { steps, inputs })) continue;
      if (step.run === undefined) continue;
      const output = path.join(this.repository.top, 'github-output');
      writeFileSync(output, '');
      const where = step['working-directory'] as string | undefined;
      const cwd = path.resolve(this.repository.dir, where ? githubTemplate(where, { github }) : defaults);
      const ran = spawnSync('bash', ['-e', '-c', step.run], {
        cwd,
        encoding: 'utf8',
        env: {
          ...process.env,
          ...env,
          GITHUB_OUTPUT: output,
          GITHUB_WORKSPACE: this.repository.dir,
          GITHUB_STEP_SUMMARY: this.summary,
          CHECKPOINT_DISABLE: '1',
          TF_IN_AUTOMATION: '1',
          NO_COLOR: '1',
        },
      });
      this.logs[name] += ran.stdout + ran.stderr;
      if (ran.status !== 0) return { result: 'failure', outputs: {} };
      const written: Record<string, string> = {};
      for (const line of readFileSync(output, 'utf8').split('\n')) {
        const eq = line.indexOf('=');
        if (eq > 0) written[line.slice(0, eq)] = line.slice(eq + 1);
      }
      if (step.id !== undefined) steps[step.id] = { outputs: written };
    }
    const outputs: Record<string, string> = {};
    for (const [key, value] of Object.entries(job.outputs ?? {})) outputs[key] = githubTemplate(value, { steps });
    return { result: 'success', outputs };
  }

  /** What Terrace said in a job (`module-app-api/plan`): its lines that name a module of the fixture. */
  said(job: string): string[] {
    return (this.logs[job] ?? '').split('\n').filter((line) => /^(app|net|obs|data)\/\w+: /.test(line));
  }
}

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

const resultsOf = (run: WorkflowRun) =>
  Object.fromEntries(Object.entries(run.results).map(([id, { result }]) => [id, result]));

describe('GitHub: a changed-only workflow whose dependents decide from the outputs they read', () => {
  before(() => {
    const terraform = spawnSync('terraform', ['version'], { encoding: 'utf8' });
    if (terraform.error || terraform.status !== 0) throw new Error('cannot run: terraform is not installed');
    if (!existsSync(CLI)) throw new Error('cannot run: dist/cli.js is missing (node esbuild.mjs builds it)');
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
