import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { validateWorkflow } from '@action-validator/core';
import { parse } from 'yaml';
import { type AnalysisResult, analyzeDirectory } from '../../server/src/engine/analysis';
import { defaultPipelineOptions } from '../../server/src/engine/config';
import { generatePipeline, jobSlugs } from '../../server/src/engine/pipeline';
import { githubSubstituted } from './githubExpression';
import { ensureNode24, GITLAB_CI_LOCAL, gitlabRepository, NODE24 } from './gitlabPreview';

/**
 * A folder's name is data in the generated pipelines, whatever the platform would read in it. A
 * workspace whose root modules sit in folders named like GitLab variables (`$HOME`, `${CI_JOB_TOKEN}`,
 * `%CI_JOB_TOKEN%`), glob patterns (`[ab]` beside `a`, `{x,y}`), an exclusion (`!bang`) and a GitHub
 * expression (`${{ 'other' }}` beside `other`), each root keeping its own folder's name as an output.
 * GitLab: gitlab-ci-local runs the pipeline, each job in its own copy of the repository
 * (`--shell-isolation`, no artifacts copied back to the source), so a plan file reaches its apply job
 * through the plan job's artifact or not at all. GitHub: @action-validator/core reads the workflows,
 * and their strings are evaluated as GitHub's template reader does.
 */
const repo = path.resolve(__dirname, '../..');
const FOLDERS = [
  '$HOME',
  '${CI_JOB_TOKEN}',
  '%CI_JOB_TOKEN%',
  '[ab]',
  'a',
  '{x,y}',
  '!bang',
  "${{ 'other' }}",
  'other',
];
const MODULES = FOLDERS.map((folder) => `m/${folder}`);

const ROOT_TF = `terraform {
  backend "local" {}
}

resource "terraform_data" "here" {
  input = basename(abspath(path.root))
}

output "folder" {
  value = terraform_data.here.output
}
`;

let work: string;
let result: AnalysisResult;
let slugs: Map<string, string>;

before(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'terrace-folder-names-'));
  for (const id of MODULES) {
    mkdirSync(path.join(work, id), { recursive: true });
    writeFileSync(path.join(work, id, 'main.tf'), ROOT_TF);
  }
  result = await analyzeDirectory(work);
  assert.deepEqual(result.modules.map((module) => module.id).sort(), [...MODULES].sort());
  slugs = jobSlugs(MODULES);
});
after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('GitLab: a folder named like a variable or a glob runs in that folder, its plan reaching its apply', () => {
  test('each job cds into the literal folder, and the apply applies the plan its artifact carried', () => {
    const terraform = spawnSync('terraform', ['version'], { encoding: 'utf8' });
    if (terraform.error || terraform.status !== 0) throw new Error('cannot run: terraform is not installed');
    ensureNode24();
    // Without the cache: gitlab-ci-local copies a job's cache through a shell line that holds its paths
    // unquoted (bash stops on `${{` as a bad substitution); GitLab's runner reads them as paths. A cache
    // only saves init time; the variable, the script and the plan's artifact are what this tests.
    writeFileSync(path.join(work, '.terrace.yaml'), 'gitlab:\n  cache: false\n');
    const output = path.join(work, '.gitlab-ci.yml');
    const generated = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'server/src/cli/cli.ts', 'generate', work, '--ci', 'gitlab', '--output', output],
      { cwd: repo, encoding: 'utf8' },
    );
    assert.equal(generated.status, 0, generated.stderr);

    // What is written: a value GitLab would expand is raw; the others stay plain.
    const yaml = parse(readFileSync(output, 'utf8')) as Record<string, Record<string, unknown>>;
    const variablesOf = (id: string) => yaml[`plan-${slugs.get(id)}`]!['variables'] as Record<string, unknown>;
    assert.deepEqual(variablesOf('m/$HOME')['TF_MODULE_PATH'], { value: 'm/$HOME', expand: false });
    assert.deepEqual(variablesOf('m/%CI_JOB_TOKEN%')['TF_MODULE_PATH'], { value: 'm/%CI_JOB_TOKEN%', expand: false });
    assert.equal(variablesOf('m/[ab]')['TF_MODULE_PATH'], 'm/[ab]');
    assert.deepEqual(yaml['.terrace-plan']!['artifacts'], {
      name: '$CI_JOB_NAME',
      paths: ['$TERRACE_LOCK.tfplan'],
      expire_in: '1 week',
    });

    gitlabRepository(work);
    const manual = MODULES.flatMap((id) => ['--manual', `apply-${slugs.get(id)}`]);
    const run = spawnSync(NODE24, [GITLAB_CI_LOCAL, '--shell-isolation', '--no-artifacts-to-source', ...manual], {
      cwd: work,
      encoding: 'utf8',
      env: { ...process.env, CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1', NO_COLOR: '1', FORCE_COLOR: '0' },
      timeout: 240_000,
    });
    const log = run.stdout + run.stderr;
    assert.equal(run.status, 0, log.slice(-4000));
    const applied: Record<string, string> = {};
    for (const id of MODULES) {
      const slug = slugs.get(id)!;
      for (const kind of ['plan', 'apply'])
        assert.match(log, new RegExp(`PASS\\s+${kind}-${slug}\\s`), `${kind} ${id}`);
      // The plan job's artifact holds the plan file; the apply job, in a copy of its own, applied it in the folder.
      assert.ok(existsSync(path.join(work, `.gitlab-ci-local/artifacts/plan-${slug}/terraform-${slug}.tfplan`)), id);
      const state = path.join(work, '.gitlab-ci-local/builds', `apply-${slug}`, id, 'terraform.tfstate');
      applied[id] = existsSync(state) ? JSON.parse(readFileSync(state, 'utf8')).outputs.folder.value : '(no state)';
    }
    assert.deepEqual(applied, Object.fromEntries(MODULES.map((id) => [id, id.slice('m/'.length)])));
  });
});

describe('GitHub: a folder named like an expression or a glob is passed and uploaded as it is', () => {
  const WORKSPACE = '/home/runner/work/infra/infra';
  type Job = Record<string, unknown> & { with?: Record<string, string>; steps: Record<string, unknown>[] };
  const workflowOf = (root: AnalysisResult) => {
    const generated = generatePipeline(root, { ci: 'github', options: defaultPipelineOptions() });
    assert.deepEqual(validateWorkflow(generated.text).errors, []);
    assert.deepEqual(validateWorkflow(generated.companions[0]!.text).errors, []);
    return {
      jobs: (parse(generated.text) as { jobs: Record<string, Job> }).jobs,
      called: (parse(generated.companions[0]!.text) as { jobs: Record<string, Job> }).jobs,
    };
  };

  test('each job’s name and inputs evaluate to its own folder; each module keeps one lock of its own', () => {
    const { jobs, called } = workflowOf(result);
    const evaluated = Object.fromEntries(
      Object.values(jobs).map((job) => [
        githubEvaluated(job['name'] as string),
        githubEvaluated(job.with!['TF_MODULE_PATH']!),
      ]),
    );
    assert.deepEqual(evaluated, Object.fromEntries(MODULES.map((id) => [id, id])));
    // The escape as written: the expression whose value is `${{`.
    assert.equal(jobs[`module-${slugs.get("m/${{ 'other' }}")}`]!.with!['TF_MODULE_PATH'], "m/${{ '${{' }} 'other' }}");

    // Plan and apply of a module share its lock, which no other module's jobs take.
    const { plan, apply } = called;
    assert.deepEqual(plan!['concurrency'], apply!['concurrency']);
    const group = (plan!['concurrency'] as { group: string }).group;
    const locks = Object.values(jobs).map((job) => githubEvaluated(group, { 'inputs.slug': job.with!['slug']! }));
    assert.equal(new Set(locks).size, MODULES.length);
    assert.notEqual(locks[MODULES.indexOf('m/other')], locks[MODULES.indexOf("m/${{ 'other' }}")]);
  });

  test('the plan file’s path names no folder: no glob, no exclusion, nothing hidden', () => {
    const { jobs, called } = workflowOf(result);
    const upload = called['plan']!.steps.find((step) => step['uses'] === 'actions/upload-artifact@v4')!;
    const download = called['apply']!.steps.find((step) => step['uses'] === 'actions/download-artifact@v4')!;
    for (const job of Object.values(jobs)) {
      const contexts = { 'inputs.slug': job.with!['slug']!, 'github.workspace': WORKSPACE };
      const uploaded = githubEvaluated((upload['with'] as Record<string, string>)['path']!, contexts);
      assert.match(uploaded, /^terraform-[A-Za-z0-9_-]+\.tfplan$/, job['name'] as string);
      assert.equal(githubEvaluated((download['with'] as Record<string, string>)['path']!, contexts), WORKSPACE);
      for (const side of ['plan', 'apply'])
        assert.equal(
          githubEvaluated((called[side]!['env'] as Record<string, string>)['TERRACE_PLAN']!, contexts),
          `${WORKSPACE}/${uploaded}`,
        );
    }
  });

  test('Terragrunt stack units under .terragrunt-stack/: the uploaded plan file is in no hidden folder', async () => {
    const { jobs, called } = workflowOf(await analyzeDirectory(path.join(repo, 'test/fixtures/terragrunt-stack')));
    const upload = called['plan']!.steps.find((step) => step['uses'] === 'actions/upload-artifact@v4')!;
    const units = Object.values(jobs).filter((job) => job.with?.['TF_MODULE_PATH']?.includes('/.terragrunt-stack/'));
    assert.ok(units.length >= 2, 'the fixture has units in a stack');
    for (const job of units) {
      const uploaded = githubEvaluated((upload['with'] as Record<string, string>)['path']!, {
        'inputs.slug': job.with!['slug']!,
      });
      assert.deepEqual(
        uploaded.split('/').filter((segment) => segment.startsWith('.')),
        [],
        `${job['name']}: ${uploaded}`,
      );
    }
  });

  test('a base ref in the no-changes job’s message is text too', () => {
    const generated = generatePipeline(result, {
      ci: 'github',
      options: defaultPipelineOptions(),
      changed: { baseRef: '${{ github.token }}', modules: new Set() },
    });
    assert.deepEqual(validateWorkflow(generated.text).errors, []);
    const job = (parse(generated.text) as { jobs: Record<string, Job> }).jobs['no-changes']!;
    assert.equal(
      githubEvaluated(job.steps[0]!['run'] as string),
      "echo 'No Terraform module changed since ${{ github.token }}: nothing to plan or apply.'",
    );
  });
});

/**
 * A string as GitHub evaluates it: each `${{ … }}`, which ends at the first `}}` outside a quoted string
 * (as actions/runner's template reader finds it), replaced by its value: a string literal, or one of
 * `contexts`. Any other expression fails the test.
 */
function githubEvaluated(text: string, contexts: Record<string, string> = {}): string {
  return githubSubstituted(text, (inside) => {
    const expression = inside.trim();
    const literal = /^'((?:[^']|'')*)'$/.exec(expression);
    if (literal) return literal[1]!.replaceAll("''", "'");
    assert.ok(expression in contexts, `an expression GitHub would evaluate: ${expression} in ${text}`);
    return contexts[expression]!;
  });
}
