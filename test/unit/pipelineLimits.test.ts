import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { validateWorkflow } from '@action-validator/core';
import { type AnalysisResult, analyzeDirectory } from '../../server/src/engine/analysis';
import { defaultPipelineOptions } from '../../server/src/engine/config';
import { generatePipeline, limitWarnings } from '../../server/src/engine/pipeline';
import { writeTerragruntLive } from '../realShapes/terragruntLive';
import { gitlabPreview, type PreviewJob } from './gitlabPreview';

/**
 * The pipelines of a Terragrunt live repository of real shape and size (300 units, about 1,000
 * dependency blocks), against what GitLab and GitHub accept: within the sizes the generator aims
 * at (half GitHub's 500 KB workflow limit; GitLab's docs' 200 KB), read by the real clients
 * (gitlab-ci-local, @action-validator/core), the GitLab `needs` following the graph after
 * `extends` is merged; a pipeline past a limit says which, with the figure and the way out.
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
    // 600 jobs: past GitLab.com Free's 500 active jobs, which the warning says, with the way out.
    assert.deepEqual(generated.warnings, [
      "the pipeline has 600 jobs: GitLab.com's Free tier allows 500 jobs in active pipelines; generate the pipeline of the modules a change affects (--changed-only --base-ref origin/main), as merge requests do.",
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

  test('each limit passed is named with its figure', () => {
    const files = (bytes: number) => [{ path: 'ci.yml', bytes }];
    assert.deepEqual(
      limitWarnings({ ci: 'github', files: files(612_000), jobs: 10, overNeeds: 0, changedOnly: false }),
      [
        'ci.yml is 612 KB: GitHub does not start runs of a workflow file larger than 500 KB; generate the pipeline of the modules a change affects (--changed-only --base-ref origin/main), as merge requests do.',
      ],
    );
    const gitlab = limitWarnings({ ci: 'gitlab', files: files(250_000), jobs: 400, overNeeds: 2, changedOnly: true });
    assert.deepEqual(gitlab, [
      "ci.yml is 250 KB: GitLab's docs warn that a configuration of about 200 KB passes its default size limit (measured after loading); even the modules this change affects are too many: plan the change in smaller steps.",
      "2 plan jobs have more than 50 dependencies, GitLab's default limit of needs per job: they wait for every earlier stage instead of their dependencies alone.",
    ]);
    assert.deepEqual(
      limitWarnings({ ci: 'gitlab', files: files(200_000), jobs: 500, overNeeds: 0, changedOnly: false }),
      [],
    );
  });
});
