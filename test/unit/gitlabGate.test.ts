import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { GatedRepository, requireGateTools } from './gatedRepository';
import { ensureNode24, GITLAB_CI_LOCAL, NODE24 } from './gitlabPreview';
import { REACH_MODULES } from './reachRepository';

/**
 * The GitLab pipeline of a change, each dependent deciding from the outputs it reads, run by gitlab-ci-local with
 * the real terraform: the plan-reach fixture, its states in one folder outside the repository (as a remote
 * backend), each job in a copy of its own (`--shell-isolation`, no artifacts copied back), so what one job tells
 * another goes through the artifacts or not at all. The jobs run Terrace as built (`node dist/cli.js gate`); the
 * applies are started by hand (`--manual`), as a person would.
 */
const SLUGS = Object.fromEntries(REACH_MODULES.map((id) => [id, id.replace('/', '-')]));
const copies: GatedRepository[] = [];

interface PipelineRun {
  log: string;
  /** The lines of one job's log, without the job's name in front. */
  lines(job: string): string[];
  repository: GatedRepository;
}

/** The changed-only pipeline of `file`'s change, generated (`extra`: generate's options) and run whole. */
function runPipeline(file: string, from: string, to: string, ...extra: string[]): PipelineRun {
  const repository = new GatedRepository();
  copies.push(repository);
  repository.change(file, from, to);
  repository.generate('gitlab', '.gitlab-ci.yml', ...extra);
  const manual = REACH_MODULES.flatMap((id) => ['--manual', `apply-${SLUGS[id]}`]);
  const run = spawnSync(NODE24, [GITLAB_CI_LOCAL, '--shell-isolation', '--no-artifacts-to-source', ...manual], {
    cwd: repository.dir,
    encoding: 'utf8',
    env: { ...process.env, CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1', NO_COLOR: '1', FORCE_COLOR: '0' },
    timeout: 240_000,
  });
  const log = run.stdout + run.stderr;
  assert.equal(run.status, 0, log.slice(-4000));
  for (const id of REACH_MODULES)
    for (const kind of ['plan', 'apply'])
      assert.match(log, new RegExp(`PASS\\s+${kind}-${SLUGS[id]}\\s`), `${kind} ${id}`);
  const lines = (job: string) =>
    log
      .split('\n')
      .filter((line) => line.startsWith(`${job} `))
      .map((line) => line.slice(job.length).trim());
  return { log, lines, repository };
}

/** What Terrace said in a job: its lines of the log that name a module of the fixture. */
function said(run: PipelineRun, job: string): string[] {
  return run
    .lines(job)
    .filter((line) => REACH_MODULES.some((id) => line.startsWith(`> ${id}: `)))
    .map((line) => line.slice(2));
}

/** Whether terraform started in a job: a command of its script that runs it, or the folder init makes. */
function terraformRan(run: PipelineRun, job: string, id: string): boolean {
  const started = run.lines(job).some((line) => /^\$ .*\bterraform\b/.test(line));
  return started || existsSync(path.join(run.repository.dir, '.gitlab-ci-local/builds', job, id, '.terraform'));
}

describe('gitlab-ci-local runs a changed-only pipeline whose dependents decide from the outputs they read', () => {
  before(() => {
    requireGateTools();
    ensureNode24();
  });
  after(() => {
    for (const copy of copies) copy.remove();
  });

  test('a change that alters no output: the upstream plans and applies; each dependent ends before init, saying why', () => {
    const run = runPipeline('net/vpc/main.tf', 'team = "network"', 'team = "platform"');
    assert.deepEqual(said(run, 'plan-net-vpc'), [
      'net/vpc: planning: its own files changed',
      'net/vpc: planned; its outputs: cidr (unchanged), token (unchanged), vpc_id (unchanged)',
    ]);
    assert.deepEqual(said(run, 'plan-app-api'), [
      'app/api: skipped: reads cidr, vpc_id of net/vpc: unchanged in its plan',
    ]);
    assert.deepEqual(said(run, 'plan-app-worker'), [
      'app/worker: skipped: reads vpc_id of net/vpc: unchanged in its plan',
    ]);
    assert.deepEqual(said(run, 'plan-obs-all'), [
      'obs/all: skipped: reads every output (cidr, token, vpc_id) of net/vpc: unchanged in its plan',
    ]);
    assert.deepEqual(said(run, 'plan-app-web'), ['app/web: skipped: app/api is unaffected']);
    // A key known only at run time: planned, as terrace plan does.
    assert.equal(said(run, 'plan-data-db')[0], 'data/db: planning: it reads outputs named only at run time');
    assert.deepEqual(said(run, 'apply-net-vpc'), [
      'net/vpc: applying its saved plan',
      'net/vpc: applied; no output changed',
    ]);
    assert.deepEqual(said(run, 'apply-app-api'), [
      'app/api: skipped: reads cidr, vpc_id of net/vpc: unchanged by its apply',
    ]);
    assert.deepEqual(said(run, 'apply-app-web'), ['app/web: skipped: app/api is unaffected']);
    for (const id of ['app/api', 'app/worker', 'obs/all', 'app/web'])
      for (const kind of ['plan', 'apply'])
        assert.ok(!terraformRan(run, `${kind}-${SLUGS[id]}`, id), `terraform never started in ${kind}-${SLUGS[id]}`);
    assert.ok(terraformRan(run, 'plan-data-db', 'data/db'));
    // The change is applied: the tag is in net/vpc's state.
    assert.match(readFileSync(run.repository.statePath('net/vpc'), 'utf8'), /"team": "platform"/);
  });

  test('a change to an output: its readers wait at plan time, then plan afresh and apply after it; the states are those of applying everything', () => {
    const change: [string, string, string] = ['net/vpc/main.tf', '10.0.0.0/16', '10.1.0.0/16'];
    const run = runPipeline(...change);
    assert.deepEqual(
      said(run, 'plan-net-vpc').at(-1),
      'net/vpc: planned; its outputs: cidr (unknown), token (unchanged), vpc_id (unchanged)',
    );
    const waits = "not planned now: its plan would read values its upstreams' applies replace";
    assert.deepEqual(said(run, 'plan-app-api'), [
      'app/api: after net/vpc applies: reads cidr (unknown)',
      `app/api: ${waits}`,
    ]);
    assert.deepEqual(said(run, 'plan-obs-all'), [
      'obs/all: after net/vpc applies: reads cidr (unknown)',
      `obs/all: ${waits}`,
    ]);
    assert.deepEqual(said(run, 'plan-data-db'), [
      'data/db: after net/vpc applies: reads outputs named only at run time, and cidr (unknown) changes',
      `data/db: ${waits}`,
    ]);
    assert.deepEqual(said(run, 'plan-app-web'), [
      'app/web: after net/vpc applies: reads from app/api, which waits for it',
      `app/web: ${waits}`,
    ]);
    assert.deepEqual(said(run, 'plan-app-worker'), [
      'app/worker: skipped: reads vpc_id of net/vpc: unchanged in its plan',
    ]);
    for (const id of ['app/api', 'obs/all', 'data/db', 'app/web', 'app/worker'])
      assert.ok(!terraformRan(run, `plan-${SLUGS[id]}`, id), `terraform never started in plan-${SLUGS[id]}`);

    assert.deepEqual(said(run, 'apply-net-vpc').at(-1), 'net/vpc: applied; outputs changed: cidr');
    assert.deepEqual(said(run, 'apply-app-api'), [
      "app/api: planning and applying, as net/vpc's apply changed cidr",
      'app/api: applied; no output changed',
    ]);
    assert.deepEqual(said(run, 'apply-obs-all')[0], "obs/all: planning and applying, as net/vpc's apply changed cidr");
    assert.deepEqual(
      said(run, 'apply-data-db')[0],
      'data/db: planning and applying, as reads outputs of net/vpc named only at run time, and its apply changed cidr',
    );
    assert.deepEqual(said(run, 'apply-app-worker'), [
      'app/worker: skipped: reads vpc_id of net/vpc: unchanged by its apply',
    ]);
    // app/api's url is made of vpc_id, which did not change.
    assert.deepEqual(said(run, 'apply-app-web'), ['app/web: skipped: reads url of app/api: unchanged by its apply']);
    // Planned afresh after net/vpc applied: the plan in apply-app-api read the new cidr.
    assert.ok(run.lines('apply-app-api').some((line) => line.includes('"10.1.0.0/16"')));

    // The same change through the pipeline of every dependent: the same states.
    const everything = runPipeline(...change, '--all-dependents');
    for (const id of REACH_MODULES)
      assert.deepEqual(run.repository.state(id), everything.repository.state(id), `${id}'s state`);

    // net/vpc's sensitive output: in no record the jobs pass on, and in nothing Terrace said.
    const records = GatedRepository.texts(path.join(run.repository.dir, '.gitlab-ci-local/artifacts'), (name) =>
      name.endsWith('.json'),
    );
    assert.match(records, /"token":"unchanged"/);
    const terraceLines = REACH_MODULES.flatMap((id) =>
      ['plan', 'apply'].flatMap((kind) => said(run, `${kind}-${SLUGS[id]}`)),
    ).join('\n');
    assert.ok(!records.includes('s3cr3t-token-value') && !terraceLines.includes('s3cr3t-token-value'));
  });
});
