import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { validateWorkflow } from '@action-validator/core';
import { parse } from 'yaml';
import { type AnalysisResult, analyzeDirectory } from '../../server/src/engine/analysis';
import { defaultPipelineOptions, type PipelineOptions, parseTerraceConfig } from '../../server/src/engine/config';
import {
  GITLAB_MAX_NEEDS,
  generatePipeline,
  gitlabPipeline,
  isGeneratedByTerrace,
  jobSlugs,
  PipelineCycleError,
  type PipelinePlan,
  type PipelineRequest,
} from '../../server/src/engine/pipeline';
import { gitlabPreview } from './gitlabPreview';

/** The generated pipelines, parsed back, on the fixture monorepos. */
const repo = path.resolve(__dirname, '../..');
const LOCAL = path.join(repo, 'test/fixtures/pipeline-local-backend');
const MONOREPO = path.join(repo, 'examples/monorepo');

type Job = Record<string, unknown> & { needs?: { job: string; artifacts: boolean }[] };
type Yaml = Record<string, unknown>;

async function analysis(root: string): Promise<AnalysisResult> {
  return analyzeDirectory(root);
}

function options(yaml = ''): PipelineOptions {
  return yaml ? parseTerraceConfig(yaml, '.terrace.yaml').pipeline : defaultPipelineOptions();
}

/** The pipeline, its top-level keys as written and each job as GitLab sees it (`gitlabPreview`). */
function generate(result: AnalysisResult, request: Partial<PipelineRequest> = {}) {
  const generated = generatePipeline(result, { ci: 'gitlab', options: options(), ...request });
  const yaml = parse(generated.text) as Yaml;
  const preview = gitlabPreview(generated.text);
  for (const job of generated.jobs) yaml[job] = preview[job];
  return { ...generated, yaml };
}

/** The jobs of the local-backend fixture, the same in both CIs: per level, the plans, then the applies. */
const LOCAL_JOBS = [
  'plan-network-prod-eu-west-1-vpc',
  'apply-network-prod-eu-west-1-vpc',
  'plan-data-prod-eu-west-1-db',
  'plan-platform-prod-eu-west-1-eks',
  'apply-data-prod-eu-west-1-db',
  'apply-platform-prod-eu-west-1-eks',
  'plan-app-prod-eu-west-1-api',
  'apply-app-prod-eu-west-1-api',
];

const slug = (id: string) => id.replaceAll('/', '-');
const needsOf = (yaml: Yaml, job: string) => ((yaml[job] as Job).needs ?? []).map((need) => need.job);

describe('GitLab pipeline', () => {
  test('a plan and an apply job per module, named after the module id, in level order', async () => {
    const { yaml, jobs } = generate(await analysis(LOCAL));
    assert.deepEqual(jobs, LOCAL_JOBS);
    assert.deepEqual(yaml['stages'], [
      'deploy-plan-0',
      'deploy-apply-0',
      'deploy-plan-1',
      'deploy-apply-1',
      'deploy-plan-2',
      'deploy-apply-2',
    ]);
    assert.equal((yaml['plan-data-prod-eu-west-1-db'] as Job)['stage'], 'deploy-plan-1');
    assert.equal((yaml['apply-app-prod-eu-west-1-api'] as Job)['stage'], 'deploy-apply-2');
    assert.deepEqual(yaml['variables'], { TF_IN_AUTOMATION: 'true' });
  });

  test('variables: TF_MODULE_PATH and one per pattern segment', async () => {
    const { yaml } = generate(await analysis(MONOREPO));
    assert.deepEqual((yaml['plan-network-prod-eu-central-1-vpc'] as Job)['variables'], {
      TF_MODULE_PATH: 'network/prod/eu-central-1/vpc',
      TF_SERVICE: 'network',
      TF_ENVIRONMENT: 'prod',
      TF_REGION: 'eu-central-1',
      TF_MODULE: 'vpc',
      TERRACE_LOCK: 'terraform-network-prod-eu-central-1-vpc',
    });
    assert.deepEqual((yaml['apply-platform-stage-eu-central-1-ec2-rabbitmq'] as Job)['variables'], {
      TF_MODULE_PATH: 'platform/stage/eu-central-1/ec2/rabbitmq',
      TF_SERVICE: 'platform',
      TF_ENVIRONMENT: 'stage',
      TF_REGION: 'eu-central-1',
      TF_MODULE: 'ec2',
      TF_SUBMODULE: 'rabbitmq',
      TERRACE_LOCK: 'terraform-platform-stage-eu-central-1-ec2-rabbitmq',
    });
  });

  test('needs: a plan waits for exactly its dependencies’ applies, an apply for its own plan', async () => {
    const result = await analysis(MONOREPO);
    const { yaml } = generate(result);
    assert.equal(result.modules.length, 14);
    for (const module of result.modules) {
      const dependencies = [...new Set(result.edges.filter((edge) => edge.from === module.id).map((edge) => edge.to))];
      assert.deepEqual(
        needsOf(yaml, `plan-${slug(module.id)}`).sort(),
        dependencies.map((dep) => `apply-${slug(dep)}`).sort(),
        `needs of plan-${slug(module.id)}`,
      );
      assert.deepEqual((yaml[`apply-${slug(module.id)}`] as Job).needs, [
        { job: `plan-${slug(module.id)}`, artifacts: true, optional: false },
      ]);
    }
    // Every edge appears once; level 0 plans start at once (`needs: []`, not the stage order).
    const planNeeds = result.modules.flatMap((module) => needsOf(yaml, `plan-${slug(module.id)}`));
    assert.equal(planNeeds.length, new Set(result.edges.map((edge) => `${edge.from}>${edge.to}`)).size);
    assert.deepEqual((yaml['plan-network-prod-eu-central-1-vpc'] as Job).needs, []);
    // Level 3's api does not wait for level 2's rabbitmq (another environment).
    assert.deepEqual(needsOf(yaml, 'plan-app-prod-eu-central-1-api').sort(), [
      'apply-network-prod-eu-central-1-dns',
      'apply-platform-prod-eu-central-1-eks',
      'apply-platform-prod-eu-central-1-rds',
    ]);
  });

  test('scripts, the plan artifact, the .terraform cache and the manual gate', async () => {
    const { yaml } = generate(await analysis(LOCAL));
    const plan = yaml['plan-platform-prod-eu-west-1-eks'] as Job;
    // The shell expands the variable: the job's own folder. The plan file is at the checkout's root,
    // named after the lock: its artifact path names no folder.
    assert.deepEqual(plan['script'], [
      'cd "$TF_MODULE_PATH"',
      'terraform init -input=false',
      'terraform plan -input=false -out="$CI_PROJECT_DIR/$TERRACE_LOCK.tfplan"',
    ]);
    assert.equal((plan['variables'] as Yaml)['TF_MODULE_PATH'], 'platform/prod/eu-west-1/eks');
    assert.deepEqual(plan['artifacts'], {
      name: 'plan-platform-prod-eu-west-1-eks',
      paths: ['terraform-platform-prod-eu-west-1-eks.tfplan'],
      expire_in: '1 week',
    });
    assert.deepEqual(plan['cache'], [
      {
        key: 'terraform-platform-prod-eu-west-1-eks',
        paths: ['platform/prod/eu-west-1/eks/.terraform/'],
        policy: 'pull-push',
        when: 'on_success',
      },
    ]);
    assert.equal(plan['when'], undefined);
    const apply = yaml['apply-platform-prod-eu-west-1-eks'] as Job;
    assert.deepEqual(apply['script'], [
      'cd "$TF_MODULE_PATH"',
      'terraform init -input=false',
      'terraform apply -input=false "$CI_PROJECT_DIR/$TERRACE_LOCK.tfplan"',
    ]);
    assert.equal(apply['when'], 'manual');
    assert.equal(apply['allow_failure'], false);
    assert.equal(apply['resource_group'], 'terraform-platform-prod-eu-west-1-eks');
    assert.equal(plan['resource_group'], 'terraform-platform-prod-eu-west-1-eks');
    assert.deepEqual(apply['variables'], plan['variables']);
  });

  test('execution and gitlab settings: binary, args, env, prefix, image, autoApprove, no cache', async () => {
    const config = options(`
execution:
  binary: tofu
  initArgs: ["-backend-config=backend.hcl"]
  planArgs: ["-lock-timeout=60s", "-parallelism=5"]
  env: { TF_LOG: warn }
gitlab:
  stagePrefix: infra
  image: { name: ghcr.io/opentofu/opentofu:1.9, entrypoint: [""] }
  autoApprove: true
  cache: false
  variables: { FOO: 1 }
  rules: [{ if: '$CI_COMMIT_BRANCH == "main"' }]
`);
    const { yaml } = generate(await analysis(LOCAL), { options: config });
    assert.deepEqual(yaml['variables'], { TF_IN_AUTOMATION: 'true', TF_LOG: 'warn', FOO: '1' });
    assert.deepEqual(yaml['default'], { image: { name: 'ghcr.io/opentofu/opentofu:1.9', entrypoint: [''] } });
    assert.deepEqual(yaml['workflow'], { rules: [{ if: '$CI_COMMIT_BRANCH == "main"' }] });
    assert.equal((yaml['stages'] as string[])[0], 'infra-plan-0');
    const plan = yaml['plan-network-prod-eu-west-1-vpc'] as Job;
    assert.deepEqual(plan['script'], [
      'cd "$TF_MODULE_PATH"',
      'tofu init -input=false -backend-config=backend.hcl',
      'tofu plan -input=false -out="$CI_PROJECT_DIR/$TERRACE_LOCK.tfplan" -lock-timeout=60s -parallelism=5',
    ]);
    assert.equal(plan['cache'], undefined);
    const apply = yaml['apply-network-prod-eu-west-1-vpc'] as Job;
    assert.equal(apply['when'], undefined, 'autoApprove: no manual gate');
    assert.equal(apply['stage'], 'infra-apply-0');
  });

  test('jobDefaults for every job, overwrites per job type', async () => {
    const config = options(`
gitlab:
  jobDefaults:
    image: hashicorp/terraform:1.11
    tags: [terraform]
    before_script: [aws sts get-caller-identity]
    after_script: [echo done]
    variables: { AWS_REGION: eu-west-1 }
    id_tokens: { AWS_OIDC: { aud: https://gitlab.example.com } }
    secrets: { CREDS: { vault: ci/terraform/creds@ns, file: true } }
    artifacts: { paths: [report.json], expire_in: 2 days }
  overwrites:
    - type: apply
      tags: [production]
      variables: { APPROVED: "yes" }
      rules:
        - if: '$CI_COMMIT_BRANCH == "main"'
        - when: never
`);
    const { yaml } = generate(await analysis(LOCAL), { options: config });
    const plan = yaml['plan-data-prod-eu-west-1-db'] as Job;
    assert.deepEqual(plan['image'], { name: 'hashicorp/terraform:1.11' });
    assert.deepEqual(plan['tags'], ['terraform']);
    assert.deepEqual(plan['before_script'], ['aws sts get-caller-identity']);
    assert.deepEqual(plan['after_script'], ['echo done']);
    assert.deepEqual(plan['id_tokens'], { AWS_OIDC: { aud: 'https://gitlab.example.com' } });
    assert.deepEqual(plan['secrets'], { CREDS: { vault: 'ci/terraform/creds@ns', file: true } });
    assert.deepEqual(plan['variables'], {
      AWS_REGION: 'eu-west-1',
      TF_MODULE_PATH: 'data/prod/eu-west-1/db',
      TF_SERVICE: 'data',
      TF_ENVIRONMENT: 'prod',
      TF_REGION: 'eu-west-1',
      TF_MODULE: 'db',
      TERRACE_LOCK: 'terraform-data-prod-eu-west-1-db',
    });
    assert.deepEqual(plan['artifacts'], {
      name: 'plan-data-prod-eu-west-1-db',
      paths: ['terraform-data-prod-eu-west-1-db.tfplan', 'report.json'],
      expire_in: '2 days',
    });
    assert.equal(plan['rules'], undefined);

    const apply = yaml['apply-data-prod-eu-west-1-db'] as Job;
    assert.deepEqual(apply['tags'], ['production'], 'the overwrite replaces the default tags');
    assert.deepEqual(apply['image'], { name: 'hashicorp/terraform:1.11' }, 'defaults not overwritten stay');
    assert.equal((apply['variables'] as Yaml)['APPROVED'], 'yes');
    assert.equal((apply['variables'] as Yaml)['AWS_REGION'], 'eu-west-1', 'variables merge');
    // GitLab refuses `when` beside `rules`: the gate moves into the rule that runs the job.
    assert.equal(apply['when'], undefined);
    assert.deepEqual(apply['rules'], [
      { if: '$CI_COMMIT_BRANCH == "main"', when: 'manual', allow_failure: false },
      { when: 'never' },
    ]);
    assert.deepEqual(apply['artifacts'], { paths: ['report.json'], expire_in: '2 days' });
  });

  test('2,000 overwrites of 50 variables each merge in linear time (each merge copied them all: about a minute)', async () => {
    const overwrites = Array.from({ length: 2000 }, (_, i) => {
      const variables = Array.from({ length: 50 }, (_, j) => `V${i}_${j}: x`).join(', ');
      return `    - { type: plan, variables: { ${variables} } }`;
    });
    const config = options(`gitlab:\n  planOnly: true\n  overwrites:\n${overwrites.join('\n')}\n`);
    const result = await analysis(LOCAL);
    const started = performance.now();
    const { text } = generatePipeline(result, {
      ci: 'gitlab',
      options: config,
      changed: { baseRef: 'origin/main', modules: new Set(['app/prod/eu-west-1/api']) },
    });
    const seconds = (performance.now() - started) / 1000;
    // The yaml package checks a mapping's keys for repeats pairwise: not on 100,000 keys. (gitlab-ci-local
    // takes minutes over them: the job's own variables and its template's are read as written.)
    const yaml = parse(text, { uniqueKeys: false }) as Yaml;
    const job = yaml['plan-app-prod-eu-west-1-api'] as Job;
    const level = yaml[job['extends'] as string] as Job;
    const template = yaml[level['extends'] as string] as Job;
    const variables = { ...(template['variables'] as Yaml), ...(job['variables'] as Yaml) };
    assert.equal(Object.keys(variables).length, 2000 * 50 + 6, 'every overwrite’s variables, and the module’s');
    assert.equal(variables['V1999_49'], 'x');
    assert.ok(seconds < 10, `${seconds.toFixed(1)} s`);
  });

  test('planOnly: plan jobs only, in dependency order', async () => {
    const { yaml, jobs } = generate(await analysis(LOCAL), { options: options('gitlab: { planOnly: true }') });
    assert.deepEqual(yaml['stages'], ['deploy-plan-0', 'deploy-plan-1', 'deploy-plan-2']);
    assert.ok(jobs.every((job) => job.startsWith('plan-')));
    assert.deepEqual(needsOf(yaml, 'plan-app-prod-eu-west-1-api'), [
      'plan-data-prod-eu-west-1-db',
      'plan-platform-prod-eu-west-1-eks',
    ]);
  });

  test('a selection keeps only its jobs, with needs restricted to jobs present', async () => {
    const result = await analysis(LOCAL);
    const modules = new Set(['data/prod/eu-west-1/db', 'app/prod/eu-west-1/api']);
    const { yaml, jobs, text } = generate(result, { changed: { baseRef: 'origin/main', modules } });
    assert.deepEqual(jobs, [
      'plan-data-prod-eu-west-1-db',
      'apply-data-prod-eu-west-1-db',
      'plan-app-prod-eu-west-1-api',
      'apply-app-prod-eu-west-1-api',
    ]);
    assert.deepEqual(yaml['stages'], ['deploy-plan-1', 'deploy-apply-1', 'deploy-plan-2', 'deploy-apply-2']);
    assert.deepEqual(needsOf(yaml, 'plan-data-prod-eu-west-1-db'), []);
    assert.deepEqual(needsOf(yaml, 'plan-app-prod-eu-west-1-api'), ['apply-data-prod-eu-west-1-db']);
    // No gate in the request: every dependent of a change plans and applies, as --all-dependents says.
    assert.match(
      text,
      /terrace generate --ci gitlab --changed-only --base-ref origin\/main --all-dependents --output \.gitlab-ci\.yml/,
    );
  });

  test('nothing changed: one no-op job that says so', async () => {
    const { yaml, jobs } = generate(await analysis(LOCAL), {
      changed: { baseRef: 'origin/main', modules: new Set() },
    });
    assert.deepEqual(jobs, ['no-changes']);
    assert.deepEqual(yaml['stages'], ['deploy-plan-0']);
    assert.deepEqual((yaml['no-changes'] as Job)['script'], [
      "echo 'No Terraform module changed since origin/main: nothing to plan or apply.'",
    ]);
    assert.equal((yaml['no-changes'] as Job)['stage'], 'deploy-plan-0');
  });

  test('the header says the file is generated and how to regenerate it', async () => {
    const { text } = generate(await analysis(LOCAL));
    const lines = text.split('\n');
    assert.equal(lines[0], '# Generated by Terrace from the Terraform module graph (4 modules, 8 jobs). Do not edit:');
    assert.equal(
      lines[1],
      '# regenerate with `terrace generate --ci gitlab --output .gitlab-ci.yml` from the workspace folder.',
    );
    assert.ok(isGeneratedByTerrace(text));
    assert.ok(!isGeneratedByTerrace('stages: [build]\n'));
  });

  test('deterministic: two analyses of the same tree give byte-identical YAML', async () => {
    const first = generate(await analysis(MONOREPO)).text;
    const second = generate(await analysis(MONOREPO)).text;
    assert.equal(first, second);
    const github = (result: AnalysisResult) => generatePipeline(result, { ci: 'github', options: options() }).text;
    assert.equal(github(await analysis(MONOREPO)), github(await analysis(MONOREPO)));
  });

  test('YAML 1.1: values GitLab would read as booleans stay strings', async () => {
    const config = options('gitlab: { variables: { ENABLED: "yes", OFF: "off" } }');
    const { text } = generate(await analysis(LOCAL), { options: config });
    assert.match(text, /ENABLED: "yes"/);
    assert.match(text, /"OFF": "off"/);
  });

  test('refuses a graph with a cycle, naming the cycle', async () => {
    const result = await analysis(path.join(repo, 'test/fixtures/cycle-three-modules'));
    assert.throws(
      () => generatePipeline(result, { ci: 'gitlab', options: options() }),
      (error: unknown) =>
        error instanceof PipelineCycleError &&
        JSON.stringify(error.cycles) ===
          JSON.stringify([['network/vpc', 'security/firewall', 'platform/eks', 'network/vpc']]) &&
        error.message.includes('network/vpc -> security/firewall -> platform/eks -> network/vpc'),
    );
  });

  test('more dependencies than GitLab allows in needs: the plan waits for the stage order instead', () => {
    const plan = (dependencies: number): PipelinePlan => {
      const deps = Array.from({ length: dependencies }, (_, i) => `dep${String(i).padStart(2, '0')}`);
      const module = (id: string, level: number, dependencies: string[]) => ({
        id,
        kind: 'module' as const,
        path: id,
        slug: id,
        level,
        variables: { TF_MODULE_PATH: id },
        segments: {},
        dependencies,
      });
      return {
        modules: [...deps.map((id) => module(id, 0, [])), module('top', 1, deps)],
        levels: [0, 1],
        skipped: [],
        components: 0,
        cyclesLeftAlone: 0,
      };
    };
    const { gitlab, execution } = defaultPipelineOptions();
    const planTop = (dependencies: number) =>
      new Map(gitlabPipeline(plan(dependencies), gitlab, execution, '').jobs).get('plan-top') as Job;
    const within = planTop(GITLAB_MAX_NEEDS);
    assert.equal(within.needs?.length, GITLAB_MAX_NEEDS);
    const beyond = planTop(GITLAB_MAX_NEEDS + 1);
    assert.equal(beyond.needs, undefined, 'no needs: the job runs after all of stage deploy-apply-0');
    const pipeline = gitlabPipeline(plan(GITLAB_MAX_NEEDS + 1), gitlab, execution, '');
    const templates = new Map(pipeline.templates);
    assert.equal(beyond['extends'], '.terrace-plan-1');
    assert.equal(templates.get('.terrace-plan-1')?.['stage'], 'deploy-plan-1');
  });

  test('job slugs: / becomes -, the root is "root", colliding ids get a hash of the id', () => {
    const slugs = jobSlugs(['a/b-c', 'a-b/c', '.', 'apps/v1.2']);
    assert.equal(slugs.get('.'), 'root');
    assert.equal(slugs.get('apps/v1.2'), 'apps-v1-2');
    assert.match(slugs.get('a/b-c')!, /^a-b-c-[0-9a-f]{6}$/);
    assert.match(slugs.get('a-b/c')!, /^a-b-c-[0-9a-f]{6}$/);
    assert.notEqual(slugs.get('a/b-c'), slugs.get('a-b/c'));
  });
});

describe('GitHub Actions workflow', () => {
  /** The workflow and the reusable workflow it calls, parsed back. */
  const workflow = (result: AnalysisResult, yaml = '', changed?: PipelineRequest['changed']) => {
    const generated = generatePipeline(result, {
      ci: 'github',
      options: options(yaml),
      ...(changed ? { changed } : {}),
    });
    const called = generated.companions[0];
    return {
      ...generated,
      yaml: parse(generated.text) as Yaml,
      module: called ? (parse(called.text) as { on: Yaml; env: Yaml; jobs: Record<string, GithubJob> }) : undefined,
    };
  };
  type GithubJob = Record<string, unknown> & { needs?: string[]; steps: Yaml[]; with?: Yaml };
  const jobsOf = (yaml: Yaml) => yaml['jobs'] as Record<string, GithubJob>;

  test('valid for @action-validator/core, the workflow and the reusable workflow it calls, on the 14-module example and the no-op workflow', async () => {
    const result = await analysis(MONOREPO);
    for (const generated of [
      workflow(result),
      workflow(result, 'github: { planOnly: true }'),
      workflow(result, 'github: { autoApprove: true, runsOn: [self-hosted, linux] }'),
      workflow(result, 'github: { environment: "{environment}" }'),
      workflow(result, '', { baseRef: 'main', modules: new Set() }),
    ]) {
      assert.deepEqual(validateWorkflow(generated.text).errors, [], generated.text.slice(0, 400));
      for (const called of generated.companions)
        assert.deepEqual(validateWorkflow(called.text).errors, [], called.text);
    }
    assert.deepEqual(workflow(result, '', { baseRef: 'main', modules: new Set() }).companions, []);
  });

  test('Terragrunt units: valid, terragrunt installed and run in the unit jobs, terraform in the plain root’s', async () => {
    // The fixture's ops units form a cycle: the pipeline is made of a copy without them.
    const copy = mkdtempSync(path.join(os.tmpdir(), 'terrace-terragrunt-workflow-'));
    cpSync(path.join(repo, 'test/fixtures/terragrunt-units'), copy, { recursive: true });
    rmSync(path.join(copy, 'live/ops'), { recursive: true });
    const result = await analysis(copy);
    rmSync(copy, { recursive: true });
    const generated = workflow(result);
    assert.deepEqual(validateWorkflow(generated.text).errors, []);
    assert.deepEqual(validateWorkflow(generated.companions[0]!.text).errors, []);
    const jobs = jobsOf(generated.yaml);
    // Both kinds: a unit's job says so, and each kind's steps run for its own modules only.
    assert.equal(jobs['module-live-prod-apps-api']!.with?.['kind'], 'unit');
    assert.equal(jobs['module-shared-dns']!.with?.['kind'], undefined);
    const steps = (job: string, kind: 'unit' | 'module') =>
      generated
        .module!.jobs[job]!.steps.filter(
          (step) => step['run'] && step['if'] !== (kind === 'unit' ? "inputs.kind != 'unit'" : "inputs.kind == 'unit'"),
        )
        .map((step) => `${step['name']}: ${(step['run'] as string).split(' ').slice(0, 3).join(' ')}`);
    assert.deepEqual(steps('plan', 'unit'), [
      'Install Terragrunt: sudo curl -fsSL',
      'Init: terragrunt init -input=false',
      'Plan: terragrunt plan -input=false',
    ]);
    assert.equal(
      generated.module!.jobs['plan']!.steps.find(
        (step) => step['name'] === 'Plan' && step['if'] === "inputs.kind == 'unit'",
      )!['run'],
      'terragrunt plan -input=false -out="$TERRACE_PLAN"',
    );
    assert.deepEqual(steps('apply', 'unit').at(-1), 'Apply: terragrunt apply -input=false');
    assert.deepEqual(steps('plan', 'module'), [
      'Init: terraform init -input=false',
      'Plan: terraform plan -input=false',
    ]);
    assert.deepEqual(jobs['module-live-prod-apps-api']!.needs, [
      'module-live-prod-network-vpc',
      'module-live-prod-platform-eks',
      'module-shared-dns',
    ]);
  });

  test('the validator does catch a broken workflow (needs on a missing job)', async () => {
    const { text } = workflow(await analysis(LOCAL));
    const broken = text.replace('needs: [module-network-prod-eu-west-1-vpc]', 'needs: [module-nothing]');
    assert.notEqual(broken, text);
    assert.ok(validateWorkflow(broken).errors.length > 0);
  });

  test('a job per module calling the reusable workflow: needs following the graph, inputs, environment on apply, concurrency, plan artifact', async () => {
    const generated = workflow(await analysis(LOCAL), 'github: { environment: "{environment}-{service}" }');
    const { yaml, path: file, module } = generated;
    assert.equal(file, '.github/workflows/terrace.yml');
    assert.equal(generated.companions[0]!.path, '.github/workflows/terrace-module.yml');
    assert.ok('on' in yaml, 'the on: key survives YAML 1.1 (quoted)');
    const jobs = jobsOf(yaml);
    assert.deepEqual(
      Object.keys(jobs),
      LOCAL_JOBS.filter((job) => job.startsWith('plan-')).map((job) => job.replace(/^plan-/, 'module-')),
    );
    assert.equal(jobs['module-network-prod-eu-west-1-vpc']!['needs'], undefined);
    const api = jobs['module-app-prod-eu-west-1-api']!;
    assert.deepEqual(api['needs'], ['module-data-prod-eu-west-1-db', 'module-platform-prod-eu-west-1-eks']);
    assert.equal(api['name'], 'app/prod/eu-west-1/api');
    assert.equal(api['uses'], './.github/workflows/terrace-module.yml');
    assert.equal(api['secrets'], 'inherit');
    assert.deepEqual(api['with'], {
      slug: 'app-prod-eu-west-1-api',
      TF_MODULE_PATH: 'app/prod/eu-west-1/api',
      TF_SERVICE: 'app',
      TF_ENVIRONMENT: 'prod',
      TF_REGION: 'eu-west-1',
      TF_MODULE: 'api',
      environment: 'prod-app',
    });

    // The reusable workflow: plan, then apply in the module's environment, one lock per module.
    const { plan, apply } = module!.jobs as Record<string, GithubJob>;
    assert.deepEqual(Object.keys(module!.on['workflow_call'] as Yaml), ['inputs']);
    assert.deepEqual(module!.env, { TF_IN_AUTOMATION: 'true' });
    assert.deepEqual(apply!['needs'], ['plan']);
    assert.equal(apply!['environment'], '${{ inputs.environment }}');
    assert.deepEqual(apply!['concurrency'], { group: 'terraform-${{ inputs.slug }}', 'cancel-in-progress': false });
    assert.deepEqual(plan!['concurrency'], apply!['concurrency']);
    // The plan file at the workspace's root, named after the slug: uploaded and downloaded there.
    assert.equal((plan!['env'] as Yaml)['TERRACE_PLAN'], '${{ github.workspace }}/terraform-${{ inputs.slug }}.tfplan');
    assert.deepEqual(plan!['env'], apply!['env']);
    assert.deepEqual(plan!.steps.at(-2), { name: 'Plan', run: 'terraform plan -input=false -out="$TERRACE_PLAN"' });
    assert.deepEqual(plan!.steps.at(-1), {
      name: 'Upload the plan',
      uses: 'actions/upload-artifact@v4',
      with: { name: 'plan-${{ inputs.slug }}', path: 'terraform-${{ inputs.slug }}.tfplan', 'retention-days': 7 },
    });
    assert.deepEqual(
      apply!.steps.find((step) => step['uses'] === 'actions/download-artifact@v4'),
      {
        name: 'Download the plan',
        uses: 'actions/download-artifact@v4',
        with: { name: 'plan-${{ inputs.slug }}', path: '${{ github.workspace }}' },
      },
    );
    assert.deepEqual(apply!.steps.at(-1), { name: 'Apply', run: 'terraform apply -input=false "$TERRACE_PLAN"' });
    assert.deepEqual(apply!['defaults'], { run: { 'working-directory': '${{ inputs.TF_MODULE_PATH }}' } });
    assert.equal((apply!['env'] as Yaml)['TF_MODULE_PATH'], '${{ inputs.TF_MODULE_PATH }}');
  });

  test('autoApprove drops the environment gate; planOnly drops the applies', async () => {
    const result = await analysis(LOCAL);
    const auto = workflow(result, 'github: { autoApprove: true }').module!.jobs;
    assert.equal(auto['apply']!['environment'], undefined);
    const fixed = workflow(result).module!.jobs;
    assert.equal(fixed['apply']!['environment'], 'production');
    const plans = workflow(result, 'github: { planOnly: true }');
    assert.deepEqual(Object.keys(plans.module!.jobs), ['plan']);
    assert.deepEqual(jobsOf(plans.yaml)['module-app-prod-eu-west-1-api']!['needs'], [
      'module-data-prod-eu-west-1-db',
      'module-platform-prod-eu-west-1-eks',
    ]);
  });
});
