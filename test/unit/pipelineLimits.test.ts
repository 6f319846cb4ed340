import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { validateWorkflow } from '@action-validator/core';
import { parse } from 'yaml';
import { type AnalysisResult, analyzeDirectory } from '../../server/src/engine/analysis';
import { defaultPipelineOptions } from '../../server/src/engine/config';
import { generatePipeline, limitWarnings } from '../../server/src/engine/pipeline';
import { writeTerragruntLive } from '../realShapes/terragruntLive';
import { gitlabPreview, type PreviewJob } from './gitlabPreview';

interface GithubWorkflow {
  name: string;
  on: unknown;
  jobs: Record<string, { name: string; if?: string; needs?: string[] }>;
}

/**
 * The pipelines of a Terragrunt live repository of real shape and size (300 units, about 1,000
 * dependency blocks), against what GitLab and GitHub accept: within the sizes the generator aims
 * at (half GitHub's 500 KB workflow limit; GitLab's docs' 200 KB), read by the real clients
 * (gitlab-ci-local, @action-validator/core), the GitLab `needs` following the graph after
 * `extends` is merged; a pipeline past a limit says which, with the figure and the way out; split by
 * level, every file of it read by the same clients, in the graph's order.
 */
describe('pipelines at the size of a real live repository', () => {
  let tmp: string;
  let result: AnalysisResult;
  const options = defaultPipelineOptions();
  const slug = (id: string) => id.replaceAll('/', '-');

  before(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'terrace-pipeline-limits-'));
    writeTerragruntLive(tmp);
    result = await analyzeDirectory(tmp);
    assert.equal(result.modules.length, 300);
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  test('GitLab: at most 200 KB, valid for gitlab-ci-local, every needs following the graph', () => {
    const generated = generatePipeline(result, { ci: 'gitlab', options });
    assert.ok(generated.text.length <= 200_000, `${generated.text.length} bytes`);
    const jobs = gitlabPreview(generated.text) as Record<string, PreviewJob>;
    for (const module of result.modules) {
      const dependencies = result.graph.dependencies(module.id).map((dep) => `apply-${slug(dep)}`);
      const plan = jobs[`plan-${slug(module.id)}`]!;
      assert.deepEqual(plan.needs?.map((need) => need.job).sort(), dependencies.sort(), module.id);
      assert.equal(plan.variables?.['TF_MODULE_PATH'], module.id);
      assert.equal(plan['stage'], `deploy-plan-${module.level}`);
      assert.deepEqual(jobs[`apply-${slug(module.id)}`]!.needs, [
        { job: `plan-${slug(module.id)}`, artifacts: true, optional: false },
      ]);
      assert.equal(jobs[`apply-${slug(module.id)}`]!['when'], 'manual');
    }
    // 600 jobs: past GitLab.com Free's 500 active jobs, which the warning says, with the ways out.
    assert.deepEqual(generated.warnings, [
      "the pipeline has 600 jobs: GitLab.com's Free tier allows 500 jobs in active pipelines; generate the pipeline of the modules a change affects (--changed-only --base-ref origin/main), as merge requests do, or split it into a child pipeline per level, one after another (--split level).",
    ]);
  });

  test('GitLab: the changed-only pipeline the warning offers is within the limits and valid', () => {
    const changed = new Set(result.modules.filter((module) => module.id.startsWith('live/dev/')).map((m) => m.id));
    // And what depends on them, transitively, as `--changed-only` takes it.
    const affected = new Set(changed);
    for (const id of affected) for (const dependent of result.graph.dependents(id)) affected.add(dependent);
    const generated = generatePipeline(result, {
      ci: 'gitlab',
      options,
      changed: { baseRef: 'origin/main', modules: affected },
    });
    assert.deepEqual(generated.warnings, []);
    assert.ok(generated.jobs.length > 0 && generated.jobs.length <= 500, `${generated.jobs.length} jobs`);
    const jobs = gitlabPreview(generated.text) as Record<string, PreviewJob>;
    for (const id of affected) {
      const inPipeline = result.graph.dependencies(id).filter((dep) => affected.has(dep));
      assert.deepEqual(
        jobs[`plan-${slug(id)}`]!.needs?.map((need) => need.job).sort(),
        inPipeline.map((dep) => `apply-${slug(dep)}`).sort(),
      );
    }
  });

  test('GitHub: the workflow at most 250 KB, it and the reusable workflow valid, no warning', () => {
    const generated = generatePipeline(result, { ci: 'github', options });
    assert.ok(generated.text.length <= 250_000, `${generated.text.length} bytes`);
    assert.deepEqual(validateWorkflow(generated.text).errors, []);
    assert.equal(generated.companions.length, 1);
    assert.deepEqual(validateWorkflow(generated.companions[0]!.text).errors, []);
    assert.deepEqual(generated.warnings, []);
    assert.equal(generated.jobs.length, 300);
  });

  test('GitLab split by level: the parent and each child valid for gitlab-ci-local, within the limits, in level order, with the job settings', () => {
    const settings = defaultPipelineOptions();
    settings.gitlab = {
      ...settings.gitlab,
      image: 'hashicorp/terraform:1.11',
      rules: [{ if: '$CI_COMMIT_BRANCH == "main"' }],
      jobDefaults: { tags: ['terraform'], before_script: ['aws sts get-caller-identity'] },
      overwrites: [{ type: 'apply', settings: { tags: ['production'] } }],
    };
    const generated = generatePipeline(result, { ci: 'gitlab', options: settings, split: 'level' });
    // The 600 jobs the unsplit pipeline warns about: 19 of the parent and at most 90 of one child at once.
    assert.deepEqual(generated.warnings, []);
    const levels = [...new Set(result.modules.map((module) => module.level))].sort((a, b) => a - b);
    const children = generated.companions;
    assert.deepEqual(
      children.map((child) => child.path),
      levels.map((level) => `.gitlab-ci-level-${level}.yml`),
    );

    const parent = gitlabPreview(generated.text) as Record<string, PreviewJob>;
    assert.deepEqual(parent['workflow'], { rules: [{ if: '$CI_COMMIT_BRANCH == "main"' }] });
    assert.deepEqual(
      (parent['pipeline-files']!['artifacts'] as { paths: string[] }).paths,
      children.map((child) => child.path),
    );
    levels.forEach((level, index) => {
      const trigger = parent[`level-${level}`]!;
      assert.equal(trigger['stage'], `deploy-level-${level}`);
      assert.deepEqual(trigger['trigger'], {
        include: [{ artifact: `.gitlab-ci-level-${level}.yml`, job: 'pipeline-files' }],
        strategy: 'depend',
      });
      // Each level starts when the one before has succeeded, its child pipeline planned and applied.
      assert.deepEqual(
        trigger.needs?.map((need) => need.job),
        index === 0 ? ['pipeline-files'] : ['pipeline-files', `level-${levels[index - 1]}`],
      );
    });

    const childOf = new Map<string, number>();
    children.forEach((child, index) => {
      assert.ok(Buffer.byteLength(child.text) <= 200_000, `${child.path}: ${child.text.length} bytes`);
      assert.match(child.text, /^# Generated by Terrace: the child pipeline of level /);
      const jobs = gitlabPreview(child.text) as Record<string, PreviewJob>;
      // The workflow rules decide in the parent; a child keeps every job setting.
      assert.equal(jobs['workflow'], undefined);
      const modules = result.modules.filter((module) => module.level === levels[index]);
      for (const module of modules) {
        childOf.set(module.id, index);
        const plan = jobs[`plan-${slug(module.id)}`]!;
        const apply = jobs[`apply-${slug(module.id)}`]!;
        assert.equal(plan.variables?.['TF_MODULE_PATH'], module.id);
        assert.deepEqual(plan['tags'], ['terraform']);
        assert.deepEqual(apply['tags'], ['production']);
        assert.deepEqual(plan['before_script'], ['aws sts get-caller-identity']);
        assert.deepEqual(plan['image'], { name: 'hashicorp/terraform:1.11' });
        assert.equal(apply['when'], 'manual');
        assert.deepEqual(apply.needs, [{ job: `plan-${slug(module.id)}`, artifacts: true, optional: false }]);
        // A plan needs the applies of its dependencies in its own child pipeline: none, as a level's
        // modules depend on lower levels only, which earlier child pipelines applied.
        const sameChild = result.graph.dependencies(module.id).filter((dep) => modules.some((m) => m.id === dep));
        assert.deepEqual(
          plan.needs?.map((need) => need.job) ?? [],
          sameChild.map((dep) => `apply-${slug(dep)}`),
        );
      }
      assert.equal(Object.keys(jobs).filter((name) => /^(plan|apply)-/.test(name)).length, modules.length * 2);
    });
    for (const module of result.modules)
      for (const dep of result.graph.dependencies(module.id))
        assert.ok(childOf.get(dep)! < childOf.get(module.id)!, `${module.id} runs after ${dep}`);
    assert.equal(generated.jobs.length, 1 + levels.length + 600);
  });

  test('GitHub split by level: four workflows chained by workflow_run, each valid and within 250 KB, needs following the graph', () => {
    const generated = generatePipeline(result, { ci: 'github', options, split: 'level' });
    assert.deepEqual(generated.warnings, []);
    const texts = [generated.text, ...generated.companions.slice(0, -1).map((file) => file.text)];
    assert.deepEqual(
      generated.companions.map((file) => file.path),
      [
        '.github/workflows/terrace-2.yml',
        '.github/workflows/terrace-3.yml',
        '.github/workflows/terrace-4.yml',
        '.github/workflows/terrace-module.yml',
      ],
    );
    assert.deepEqual(validateWorkflow(generated.companions.at(-1)!.text).errors, []);
    const workflowOf = new Map<string, number>();
    const workflows = texts.map((text) => parse(text) as GithubWorkflow);
    texts.forEach((text, index) => {
      assert.ok(Buffer.byteLength(text) <= 250_000, `workflow ${index + 1}: ${text.length} bytes`);
      assert.deepEqual(validateWorkflow(text).errors, [], `workflow ${index + 1}`);
      for (const job of Object.values(workflows[index]!.jobs)) workflowOf.set(job.name, index);
    });
    assert.equal(workflowOf.size, 300);
    assert.deepEqual(workflows[0]!.on, options.github.on);
    workflows.forEach((workflow, index) => {
      if (index > 0)
        assert.deepEqual(workflow.on, {
          workflow_run: { workflows: [workflows[index - 1]!.name], types: ['completed'] },
        });
      for (const [id, job] of Object.entries(workflow.jobs)) {
        const dependencies = result.graph.dependencies(job.name);
        for (const dep of dependencies) assert.ok(workflowOf.get(dep)! <= index, `${job.name} after ${dep}`);
        const here = dependencies.filter((dep) => workflowOf.get(dep) === index).map((dep) => `module-${slug(dep)}`);
        assert.deepEqual([...(job.needs ?? [])].sort(), here.sort(), id);
        // A job that needs none waits for the workflow before to have succeeded; the others are skipped with what they need.
        assert.equal(
          job.if,
          index > 0 && here.length === 0 ? "github.event.workflow_run.conclusion == 'success'" : undefined,
        );
      }
    });
    assert.deepEqual(
      workflows.map((workflow) => workflow.name),
      [
        'Terraform: levels 0-7 (terrace.yml)',
        'Terraform: levels 8-10 (terrace.yml)',
        'Terraform: levels 11-12 (terrace.yml)',
        'Terraform: levels 13-17 (terrace.yml)',
      ],
    );
  });

  test('GitLab split: a level past the active jobs limit is split in parts, run one after another', async () => {
    const wide = mkdtempSync(path.join(os.tmpdir(), 'terrace-pipeline-wide-'));
    try {
      for (let i = 0; i < 300; i++) {
        mkdirSync(path.join(wide, `root-${i}`));
        writeFileSync(
          path.join(wide, `root-${i}`, 'main.tf'),
          `terraform {\n  backend "s3" {\n    bucket = "b"\n    key    = "${i}.tfstate"\n    region = "r"\n  }\n}\n`,
        );
      }
      const flat = await analyzeDirectory(wide);
      const generated = generatePipeline(flat, { ci: 'gitlab', options, split: 'level' });
      assert.deepEqual(generated.warnings, []);
      assert.deepEqual(
        generated.companions.map((child) => child.path),
        ['.gitlab-ci-level-0-part-1.yml', '.gitlab-ci-level-0-part-2.yml'],
      );
      const parent = gitlabPreview(generated.text) as Record<string, PreviewJob>;
      assert.deepEqual(
        parent['level-0-part-2']!.needs?.map((need) => need.job),
        ['pipeline-files', 'level-0-part-1'],
      );
      for (const child of generated.companions) {
        const jobs = Object.keys(gitlabPreview(child.text)).filter((name) => /^(plan|apply)-/.test(name));
        assert.equal(jobs.length, 300);
      }
    } finally {
      rmSync(wide, { recursive: true, force: true });
    }
  });

  test('each limit passed is named with its figure', () => {
    const files = (bytes: number) => [{ path: 'ci.yml', bytes }];
    const figures = { files: files(612_000), jobs: 10, overNeeds: 0, changedOnly: false, split: false };
    assert.deepEqual(limitWarnings({ ...figures, ci: 'github' }), [
      'ci.yml is 612 KB: GitHub does not start runs of a workflow file larger than 500 KB; generate the pipeline of the modules a change affects (--changed-only --base-ref origin/main), as merge requests do, or split it into workflows chained in dependency order (--split level).',
    ]);
    const gitlab = limitWarnings({
      ...figures,
      ci: 'gitlab',
      files: files(250_000),
      jobs: 400,
      overNeeds: 2,
      changedOnly: true,
    });
    assert.deepEqual(gitlab, [
      "ci.yml is 250 KB: GitLab's docs warn that a configuration of about 200 KB passes its default size limit (measured after loading); even the modules this change affects are too many: split it into a child pipeline per level, one after another (--split level), or plan the change in smaller steps.",
      "2 plan jobs have more than 50 dependencies, GitLab's default limit of needs per job: they wait for every earlier stage instead of their dependencies alone.",
    ]);
    assert.deepEqual(limitWarnings({ ...figures, ci: 'gitlab', files: files(200_000), jobs: 500 }), []);
    // Split already: the way out left is the changed-only pipeline.
    assert.deepEqual(limitWarnings({ ...figures, ci: 'github', split: true }), [
      'ci.yml is 612 KB: GitHub does not start runs of a workflow file larger than 500 KB; generate the pipeline of the modules a change affects (--changed-only --base-ref origin/main), as merge requests do: GitHub chains no more than four workflows.',
    ]);
    assert.deepEqual(limitWarnings({ ...figures, ci: 'gitlab', files: files(1000), jobs: 520, split: true }), [
      "the pipeline has 520 jobs at once (its own and its largest child pipeline's): GitLab.com's Free tier allows 500 jobs in active pipelines; generate the pipeline of the modules a change affects (--changed-only --base-ref origin/main), as merge requests do.",
    ]);
  });
});
