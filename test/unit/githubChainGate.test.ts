import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { validateWorkflow } from '@action-validator/core';
import { parse } from 'yaml';
import { type GateStep, gateCommand } from '../../server/src/cli/gateCommand';
import { analyzeDirectory } from '../../server/src/engine/analysis';
import { defaultPipelineOptions } from '../../server/src/engine/config';
import { generatePipeline, jobSlugs } from '../../server/src/engine/pipeline';
import { TERRACE_VERSION } from '../../server/src/terraceVersion';
import { CLI, GatedRepository, requireGateTools } from './gatedRepository';
import { githubCondition, githubTemplate } from './githubExpression';
import { resultsOf, type Workflow, WorkflowRun } from './githubWorkflowRun';
import { REACH_MODULES } from './reachRepository';

/**
 * The GitHub pipeline of a change split by level, each dependent deciding from the outputs it reads: its chained
 * workflows valid for @action-validator/core, and run one after another as GitHub would run them
 * (`githubWorkflowRun.ts`), each started by the run before (`workflow_run`), with the real terraform on a copy of
 * the plan-reach fixture. Each job starts in a clean checkout, and each run's artifacts are a folder of their own:
 * what a level tells the next crosses runs as artifacts, or not at all. Levels 0, 1 and 2 are three workflows.
 */
const copies: GatedRepository[] = [];
const FILES = ['terrace.yml', 'terrace-2.yml', 'terrace-3.yml'];

interface ChainRun {
  repository: GatedRepository;
  runs: WorkflowRun[];
  texts: string[];
}

/**
 * The chain of `file`'s change (`extra`: generate's options; `--plan-only`: `planOnly` in .terrace.yaml), each file
 * valid, then run in turn.
 */
function runChain(file: string, from: string, to: string, ...extra: string[]): ChainRun {
  const repository = new GatedRepository();
  copies.push(repository);
  if (extra.includes('--plan-only')) {
    writeFileSync(
      path.join(repository.dir, '.terrace.yaml'),
      `gate:\n  command: node ${CLI}\ngithub:\n  planOnly: true\n`,
    );
    repository.git('commit', '-q', '-am', 'config');
    extra = extra.filter((option) => option !== '--plan-only');
  }
  repository.change(file, from, to);
  repository.generate('github', '.github/workflows/terrace.yml', '--split', 'level', ...extra);
  const read = (name: string) => readFileSync(path.join(repository.dir, '.github/workflows', name), 'utf8');
  const texts = FILES.map(read);
  const calledText = read('terrace-module.yml');
  assert.ok(!existsSync(path.join(repository.dir, '.github/workflows/terrace-4.yml')));
  for (const text of [...texts, calledText]) assert.deepEqual(validateWorkflow(text).errors, []);
  const called = parse(calledText) as Workflow;
  const runs: WorkflowRun[] = [];
  for (const [index, text] of texts.entries()) {
    const previous = runs.at(-1);
    const trigger = previous ? { id: previous.id, conclusion: previous.conclusion } : undefined;
    runs.push(
      new WorkflowRun(repository, parse(text) as Workflow, called, { id: index + 1, trigger, fresh: true }).run(),
    );
  }
  return { repository, runs, texts };
}

/** Whether terraform ran in a module's jobs (a skipped job ran nothing). */
function terraformRan(run: WorkflowRun, slug: string): boolean {
  return ['plan', 'apply'].some((job) => /Initializing|terraform_data/.test(run.logs[`module-${slug}/${job}`] ?? ''));
}

describe('GitHub split by level: each dependent decides from the outputs it reads, across the chained workflows', () => {
  before(() => {
    requireGateTools();
  });
  after(() => {
    for (const copy of copies) copy.remove();
  });

  test('a change to cidr: its readers plan and apply after net/vpc applied, the others are skipped, as --all-dependents leaves the states', () => {
    const chain = runChain('net/vpc/main.tf', '10.0.0.0/16', '10.1.0.0/16');
    const [first, second, third] = chain.runs as [WorkflowRun, WorkflowRun, WorkflowRun];
    assert.deepEqual(resultsOf(first), { 'module-net-vpc': 'success', forward: 'success' });
    assert.deepEqual(resultsOf(second), {
      decide: 'success',
      'module-app-api': 'success',
      'module-app-worker': 'skipped',
      'module-data-db': 'success',
      'module-obs-all': 'success',
      forward: 'success',
    });
    // app/api's url is made of vpc_id, which its apply did not change.
    assert.deepEqual(resultsOf(third), { decide: 'success', 'module-app-web': 'skipped' });
    assert.deepEqual(second.said('decide'), [
      "app/api: starts: net/vpc's apply changed cidr",
      'app/worker: skipped as far as net/vpc goes: reads vpc_id of net/vpc: unchanged by its apply',
      'data/db: starts: reads outputs of net/vpc named only at run time, and its apply changed cidr',
      "obs/all: starts: net/vpc's apply changed cidr",
    ]);
    assert.deepEqual(third.said('decide'), [
      'app/web: skipped as far as app/api goes: reads url of app/api: unchanged by its apply',
    ]);
    // The plan job read net/vpc's record from the artifact its run's decide job passed on.
    assert.equal(second.said('module-app-api/plan')[0], "app/api: planning, as net/vpc's apply changed cidr");
    assert.deepEqual(second.said('module-app-api/apply'), [
      'app/api: applied; no output changed',
      'app/web: skipped as far as app/api goes: reads url of app/api: unchanged by its apply',
    ]);
    // Planned after net/vpc applied: on the new cidr.
    assert.match(readFileSync(chain.repository.statePath('app/api'), 'utf8'), /"10\.1\.0\.0\/16"/);
    assert.ok(!terraformRan(second, 'app-worker') && !terraformRan(third, 'app-web'));
    assert.ok(terraformRan(second, 'obs-all'));
    // What the second run passed on: every module's record so far, the skipped one's as unaffected.
    const passed = JSON.parse(
      readFileSync(path.join(chain.repository.top, 'artifacts/2/terrace-records/terrace-records.json'), 'utf8'),
    ) as Record<string, { status: string; stage: string }>;
    assert.deepEqual(
      Object.fromEntries(Object.entries(passed).map(([id, record]) => [id, `${record.stage} ${record.status}`])),
      {
        'net/vpc': 'apply applied',
        'app/api': 'apply applied',
        'app/worker': 'plan unaffected',
        'data/db': 'apply applied',
        'obs/all': 'apply applied',
      },
    );
    // No value of the sensitive output in what the runs pass on.
    const artifacts = GatedRepository.texts(path.join(chain.repository.top, 'artifacts'), (name) =>
      name.endsWith('.json'),
    );
    assert.match(artifacts, /"token":"unchanged"/);
    assert.ok(!artifacts.includes('s3cr3t-token-value'));

    // The same change through the chain of every dependent: the same states.
    const everything = runChain('net/vpc/main.tf', '10.0.0.0/16', '10.1.0.0/16', '--all-dependents');
    assert.deepEqual(resultsOf(everything.runs[2]!), { 'module-app-web': 'success' });
    for (const id of REACH_MODULES)
      assert.deepEqual(chain.repository.state(id), everything.repository.state(id), `${id}'s state`);
  });

  test('a change that alters no output: every reader that names what it reads is skipped, the reason in the decide job', () => {
    const chain = runChain('net/vpc/main.tf', 'team = "network"', 'team = "platform"');
    const [, second, third] = chain.runs as [WorkflowRun, WorkflowRun, WorkflowRun];
    assert.deepEqual(resultsOf(second), {
      decide: 'success',
      'module-app-api': 'skipped',
      'module-app-worker': 'skipped',
      // A key known only at run time: it plans, as terrace plan does.
      'module-data-db': 'success',
      'module-obs-all': 'skipped',
      forward: 'success',
    });
    assert.deepEqual(resultsOf(third), { decide: 'success', 'module-app-web': 'skipped' });
    assert.deepEqual(second.said('decide'), [
      'app/api: skipped as far as net/vpc goes: reads cidr, vpc_id of net/vpc: unchanged by its apply',
      'app/worker: skipped as far as net/vpc goes: reads vpc_id of net/vpc: unchanged by its apply',
      'data/db: starts: it reads outputs named only at run time',
      'obs/all: skipped as far as net/vpc goes: reads every output (cidr, token, vpc_id) of net/vpc: unchanged by its apply',
    ]);
    assert.deepEqual(third.said('decide'), ['app/web: skipped as far as app/api goes: app/api is unaffected']);
    for (const slug of ['app-api', 'app-worker', 'obs-all']) assert.ok(!terraformRan(second, slug), slug);
    assert.equal(second.said('module-data-db/plan')[0], 'data/db: planning: it reads outputs named only at run time');
    // The reasons in the decide job's step summary, as code.
    assert.match(readFileSync(second.summary, 'utf8'), /^ {4}app\/worker: skipped as far as net\/vpc goes: /m);
  });

  test('plan only: a reader of a changed output starts, says it is stale until net/vpc applies, and so does its reader a workflow later', () => {
    const chain = runChain('net/vpc/main.tf', '10.0.0.0/16', '10.1.0.0/16', '--plan-only');
    const [, second, third] = chain.runs as [WorkflowRun, WorkflowRun, WorkflowRun];
    assert.deepEqual(resultsOf(second), {
      decide: 'success',
      'module-app-api': 'success',
      'module-app-worker': 'skipped',
      'module-data-db': 'success',
      'module-obs-all': 'success',
      forward: 'success',
    });
    assert.deepEqual(third.said('decide'), [
      'app/web: starts: after net/vpc applies: reads from app/api, which waits for it',
    ]);
    const waits = "not planned now: its plan would read values its upstreams' applies replace";
    assert.deepEqual(second.said('module-app-api/plan').slice(0, 2), [
      'app/api: after net/vpc applies: reads cidr (unknown)',
      `app/api: ${waits}`,
    ]);
    assert.deepEqual(third.said('module-app-web/plan').slice(0, 2), [
      'app/web: after net/vpc applies: reads from app/api, which waits for it',
      `app/web: ${waits}`,
    ]);
    for (const [run, slug] of [
      [second, 'app-api'],
      [second, 'obs-all'],
      [third, 'app-web'],
    ] as const)
      assert.ok(!terraformRan(run, slug), `terraform never started in ${slug}`);
  });

  test('a level whose run failed: the next workflow runs nothing, a changed module neither', () => {
    const chain = runChain('net/vpc/main.tf', 'team = "network"', 'team = var.missing');
    const [first, second, third] = chain.runs as [WorkflowRun, WorkflowRun, WorkflowRun];
    assert.deepEqual(resultsOf(first), { 'module-net-vpc': 'failure', forward: 'skipped' });
    assert.equal(first.conclusion, 'failure');
    assert.deepEqual(resultsOf(second), {
      decide: 'skipped',
      'module-app-api': 'skipped',
      'module-app-worker': 'skipped',
      'module-data-db': 'skipped',
      'module-obs-all': 'skipped',
      forward: 'skipped',
    });
    // A run whose every job was skipped concludes skipped: the next one runs nothing either.
    assert.equal(second.conclusion, 'skipped');
    assert.deepEqual(resultsOf(third), { decide: 'skipped', 'module-app-web': 'skipped' });
  });
});

describe('GitHub split by level: a module id is data in what the decide and forward jobs carry and say', () => {
  const WRITER = "m/it's $HOME";
  const READER = `m/\${{ 'r' }}`;
  const work = mkdtempSync(path.join(os.tmpdir(), 'terrace-chain-'));
  after(() => rmSync(work, { recursive: true, force: true }));

  /** `terrace gate <step>` in `cwd` with `env`, `stdin`; what it printed and returned, and its job outputs. */
  function gate(step: GateStep, cwd: string, env: Record<string, string>, stdin = '') {
    const output = path.join(cwd, 'github-output');
    writeFileSync(output, '');
    let err = '';
    const code = gateCommand(
      step,
      {},
      {
        env: { ...env, GITHUB_OUTPUT: output },
        cwd,
        stdin: () => stdin,
        out: () => undefined,
        err: (text) => {
          err += text;
        },
      },
    );
    return { code, err, outputs: readFileSync(output, 'utf8') };
  }

  test('the specs come out of the YAML as written; decide and forward name the modules as they are', async () => {
    const dir = path.join(work, 'names');
    mkdirSync(path.join(dir, WRITER), { recursive: true });
    mkdirSync(path.join(dir, READER), { recursive: true });
    writeFileSync(
      path.join(dir, WRITER, 'main.tf'),
      'terraform {\n  backend "local" {}\n}\noutput "v" {\n  value = "1"\n}\n',
    );
    writeFileSync(
      path.join(dir, READER, 'main.tf'),
      `terraform {\n  backend "local" {}\n}\ndata "terraform_remote_state" "w" {\n  backend = "local"\n  config = { path = "../it's $HOME/terraform.tfstate" }\n}\noutput "x" {\n  value = data.terraform_remote_state.w.outputs.v\n}\n`,
    );
    const result = await analyzeDirectory(dir);
    const slugs = jobSlugs([WRITER, READER]);
    const reads = new Map([[READER, new Map([[WRITER, new Set(['v'])]])]]);
    const generate = (reached: string[]) =>
      generatePipeline(result, {
        ci: 'github',
        options: defaultPipelineOptions(),
        changed: {
          baseRef: 'main',
          modules: new Set([WRITER, READER]),
          gate: { terrace: TERRACE_VERSION, reached: new Set(reached), reads },
        },
        split: 'level',
      });
    const pipeline = generate([WRITER]);
    assert.deepEqual(pipeline.warnings, []);
    const [second, called] = pipeline.companions;
    for (const text of [pipeline.text, second!.text, called!.text]) assert.deepEqual(validateWorkflow(text).errors, []);
    const first = parse(pipeline.text) as Workflow;
    const next = parse(second!.text) as Workflow;

    // forward, in the first workflow: its module's job's record, under the id as it is.
    const forwardSpec = githubTemplate(first.jobs['forward']!.env!['TERRACE_GATE']!, {});
    assert.deepEqual(JSON.parse(forwardSpec).modules, { [WRITER]: slugs.get(WRITER) });
    const record = {
      terrace: TERRACE_VERSION,
      module: WRITER,
      stage: 'apply',
      status: 'applied',
      outputs: { v: 'unchanged' },
    };
    const needs = {
      [`module-${slugs.get(WRITER)}`]: { result: 'success', outputs: { record: JSON.stringify(record) } },
    };
    const checkout = path.join(work, 'checkout');
    mkdirSync(checkout);
    const forwarded = gate('forward', checkout, { TERRACE_GATE: forwardSpec }, JSON.stringify(needs, null, 2));
    assert.deepEqual([forwarded.code, forwarded.err], [0, "records passed on: 1 (this workflow's modules: 1)\n"]);
    assert.deepEqual(JSON.parse(readFileSync(path.join(checkout, 'terrace-records.json'), 'utf8')), {
      [WRITER]: record,
    });

    // decide, in the second: what the reader reads of the writer, and the reason in the names as they are.
    const decideSpec = githubTemplate(next.jobs['decide']!.env!['TERRACE_GATE']!, {});
    assert.deepEqual(JSON.parse(decideSpec).reads, { [READER]: { [WRITER]: '= v' } });
    const decided = gate('decide', checkout, { TERRACE_GATE: decideSpec });
    assert.deepEqual(
      [decided.code, decided.err, decided.outputs],
      [0, `${READER}: skipped as far as ${WRITER} goes: reads v of ${WRITER}: unchanged by its apply\n`, 'starts=\n'],
    );
    // The reader's job: its spec as written, and its plan job downloads the records.
    const job = next.jobs[`module-${slugs.get(READER)}`]!;
    assert.equal(JSON.parse(githubTemplate(job.with!['gate'] as string, {})).module, READER);
    assert.deepEqual(JSON.parse(githubTemplate(job.with!['gate'] as string, {})).earlier, [WRITER]);
    assert.equal(job.with!['earlier'], true);

    // A changed reader runs whatever decide says, but only when decide ran: the workflow before succeeded.
    const changedIf = (parse(generate([WRITER, READER]).companions[0]!.text) as Workflow).jobs[
      `module-${slugs.get(READER)}`
    ]!.if!;
    const decide = (result: string) => ({ needs: { decide: { result, outputs: { starts: '' } } } });
    assert.equal(githubCondition(changedIf, decide('success')), true);
    assert.equal(githubCondition(changedIf, decide('skipped')), false);
    assert.equal(githubCondition(job.if!, decide('success')), false);
    assert.equal(
      githubCondition(job.if!, { needs: { decide: { result: 'success', outputs: { starts: slugs.get(READER)! } } } }),
      true,
    );
  });

  test('decide and forward refuse what is not theirs, in one line', () => {
    const checkout = path.join(work, 'refuse');
    mkdirSync(checkout);
    const spec = (over: Record<string, unknown>) =>
      JSON.stringify({
        terrace: TERRACE_VERSION,
        after: 'applies',
        modules: { 'app/api': 'app-api' },
        reads: {},
        earlier: true,
        ...over,
      });
    assert.equal(
      gate('decide', checkout, { TERRACE_GATE: spec({}) }).err,
      'Error: terrace-records.json is missing: the records the workflow before this one passed on (its artifact terrace-records)\n',
    );
    writeFileSync(path.join(checkout, 'terrace-records.json'), '{}');
    assert.equal(
      gate('decide', checkout, { TERRACE_GATE: spec({ reads: { 'app/api': { 'net/vpc': '= cidr' } } }) }).err,
      'Error: terrace-records.json holds no record of net/vpc, which app/api reads: the workflows before this one pass on the record of every module they ran\n',
    );
    assert.equal(
      gate('decide', checkout, { TERRACE_GATE: spec({ reads: { 'app/web': {} } }) }).err,
      'Error: TERRACE_GATE: reads: app/web is not one of its modules\n',
    );
    assert.equal(
      gate('forward', checkout, { TERRACE_GATE: spec({}) }, '{"module-app-api": {"result": "success", "outputs": {}}}')
        .err,
      'Error: the job module-app-api (app/api) ended success without a record\n',
    );
    assert.equal(
      gate('forward', checkout, { TERRACE_GATE: spec({}) }, '{}').err,
      'Error: the needs on stdin has no job module-app-api, the job of app/api\n',
    );
    const skipped = gate(
      'forward',
      checkout,
      { TERRACE_GATE: spec({}) },
      '{"module-app-api": {"result": "skipped", "outputs": {}}}',
    );
    assert.equal(skipped.code, 0);
    assert.deepEqual(JSON.parse(readFileSync(path.join(checkout, 'terrace-records.json'), 'utf8')), {
      'app/api': { terrace: TERRACE_VERSION, module: 'app/api', stage: 'plan', status: 'unaffected' },
    });
  });
});

after(() => {
  for (const copy of copies) copy.remove();
});
