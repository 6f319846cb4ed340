import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { ensureNode24, GITLAB_CI_LOCAL, gitlabRepository, NODE24, type PreviewJob } from './gitlabPreview';

/**
 * The real client for the generated GitLab pipeline: gitlab-ci-local (a devDependency; it needs
 * Node >= 22, so it runs with the Node 24 that test/harness/setup.sh caches) reads the
 * `.gitlab-ci.yml` that `terrace generate` writes for a temporary copy of the
 * pipeline-local-backend fixture, validates it against GitLab's schema, lists its jobs and needs,
 * and runs them with its shell executor and the real `terraform` (builtin provider and local
 * backends only, so offline). Jobs run in the copy itself, as on a runner with one working tree,
 * so each module's local state is where its readers' `terraform_remote_state` looks.
 *
 * This test does not skip: without terraform, Node 24 or gitlab-ci-local it fails and says why.
 */
const repo = path.resolve(__dirname, '../..');

const VPC = 'network-prod-eu-west-1-vpc';
const EKS = 'platform-prod-eu-west-1-eks';
const DB = 'data-prod-eu-west-1-db';
const API = 'app-prod-eu-west-1-api';
const EDGES: [string, string][] = [
  [EKS, VPC],
  [DB, VPC],
  [API, EKS],
  [API, DB],
];

let work: string;
let git: (...args: string[]) => string;
/** `terrace generate` for the copy, into its `.gitlab-ci.yml`. */
function generate(...extra: string[]) {
  generateIn(work, ...extra);
}
function generateIn(dir: string, ...extra: string[]) {
  const run = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'server/src/cli/cli.ts',
      'generate',
      dir,
      '--ci',
      'gitlab',
      '--output',
      path.join(dir, '.gitlab-ci.yml'),
      ...extra,
    ],
    { cwd: repo, encoding: 'utf8' },
  );
  assert.equal(run.status, 0, run.stderr);
}
/** Runs gitlab-ci-local in the copy; terraform must not look for updates (offline). */
function ciLocal(...args: string[]) {
  return ciLocalIn(work, ...args);
}
function ciLocalIn(dir: string, ...args: string[]) {
  return spawnSync(NODE24, [GITLAB_CI_LOCAL, ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1', NO_COLOR: '1', FORCE_COLOR: '0' },
    timeout: 240_000,
  });
}

/**
 * Every job of the local-backend fixture's pipeline in `dir`, the applies started by hand: it passes,
 * each plan and apply with it. Returns the log, and where in it a pattern first shows.
 */
function runWholePipeline(dir: string): { log: string; at: (pattern: string) => number } {
  const manual = [VPC, EKS, DB, API].flatMap((module) => ['--manual', `apply-${module}`]);
  const run = ciLocalIn(dir, ...manual);
  const log = run.stdout + run.stderr;
  assert.equal(run.status, 0, log.slice(-4000));
  for (const module of [VPC, EKS, DB, API])
    for (const kind of ['plan', 'apply']) assert.match(log, new RegExp(`PASS\\s+${kind}-${module}\\b`));
  const at = (pattern: string) => {
    const index = log.search(new RegExp(pattern));
    assert.ok(index >= 0, `the log shows ${pattern}`);
    return index;
  };
  return { log, at };
}

describe('gitlab-ci-local runs the generated pipeline', () => {
  before(() => {
    const terraform = spawnSync('terraform', ['version'], { encoding: 'utf8' });
    if (terraform.error || terraform.status !== 0)
      throw new Error('cannot run: terraform is not installed (the README lists it as a requirement of this test)');
    ensureNode24();

    work = mkdtempSync(path.join(os.tmpdir(), 'terrace-gitlab-ci-local-'));
    cpSync(path.join(repo, 'test/fixtures/pipeline-local-backend'), work, { recursive: true });
    generate();
    // gitlab-ci-local needs a git repository with a commit and an origin remote.
    git = (...args: string[]) =>
      execFileSync('git', ['-C', work, ...args], {
        encoding: 'utf8',
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 'T',
          GIT_AUTHOR_EMAIL: 't@t.invalid',
          GIT_COMMITTER_NAME: 'T',
          GIT_COMMITTER_EMAIL: 't@t.invalid',
        },
      });
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'fixture');
    git('remote', 'add', 'origin', 'git@gitlab.example.com:acme/infra.git');
  });
  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('--list-json: the schema-valid pipeline with every job, stage, gate and need', () => {
    const listed = ciLocal('--list-json');
    assert.equal(listed.status, 0, listed.stderr);
    const jobs = JSON.parse(listed.stdout) as {
      name: string;
      stage: string;
      when: string;
      needs: { job: string; artifacts: boolean }[];
    }[];
    const byName = new Map(jobs.map((job) => [job.name, job]));
    assert.deepEqual(
      jobs.map((job) => job.name),
      [
        `plan-${VPC}`,
        `apply-${VPC}`,
        `plan-${DB}`,
        `plan-${EKS}`,
        `apply-${DB}`,
        `apply-${EKS}`,
        `plan-${API}`,
        `apply-${API}`,
      ],
    );
    assert.equal(byName.get(`plan-${API}`)!.stage, 'deploy-plan-2');
    assert.equal(byName.get(`apply-${API}`)!.when, 'manual');
    assert.equal(byName.get(`plan-${API}`)!.when, 'on_success');
    for (const module of [VPC, EKS, DB, API]) {
      const dependencies = EDGES.filter(([from]) => from === module).map(([, to]) => `apply-${to}`);
      assert.deepEqual(
        byName
          .get(`plan-${module}`)!
          .needs.map((need) => need.job)
          .sort(),
        dependencies.sort(),
      );
      assert.deepEqual(
        byName.get(`apply-${module}`)!.needs.map(({ job, artifacts }) => ({ job, artifacts })),
        [{ job: `plan-${module}`, artifacts: true }],
      );
    }
  });

  test('the manual gate: without starting the applies, what needs them cannot run', () => {
    const run = ciLocal();
    assert.notEqual(run.status, 0);
    assert.match(run.stdout + run.stderr, new RegExp(`apply-${VPC} is when:manual, its needed by plan-`));
  });

  test('the whole pipeline runs: plans and applies in dependency order, states read through remote state', () => {
    const { at } = runWholePipeline(work);
    for (const module of [VPC, EKS, DB, API])
      assert.ok(at(`plan-${module}\\s+finished`) < at(`apply-${module}\\s+starting`), `${module}: plan, then apply`);
    for (const [reader, writer] of EDGES)
      assert.ok(
        at(`apply-${writer}\\s+finished`) < at(`plan-${reader}\\s+starting`),
        `${reader} plans only after ${writer} is applied`,
      );

    // The plan file went through the artifacts; the applies wrote real states.
    assert.ok(
      existsSync(path.join(work, `.gitlab-ci-local/artifacts/plan-${API}/terraform-${API}.tfplan`)),
      'plan artifact exported, named after the job',
    );
    const state = (dir: string) => JSON.parse(readFileSync(path.join(work, dir, 'terraform.tfstate'), 'utf8'));
    assert.equal(state('network/prod/eu-west-1/vpc').outputs.vpc_cidr.value, '10.60.0.0/16');
    assert.equal(state('platform/prod/eu-west-1/eks').outputs.cluster_network.value, 'eks in 10.60.0.0/16');
    assert.equal(
      state('app/prod/eu-west-1/api').outputs.summary.value,
      'api on prod-eks (eks in 10.60.0.0/16) with db.internal:5432',
    );
  });

  test('a changed-only pipeline lists and runs only the affected jobs; no change runs the single no-op job', () => {
    git('checkout', '-q', '-b', 'resize-eks');
    writeFileSync(path.join(work, 'platform/prod/eu-west-1/eks/sizing.tf'), 'locals {\n  nodes = 3\n}\n');
    git('add', 'platform/prod/eu-west-1/eks/sizing.tf');
    git('commit', '-q', '-m', 'resize eks');
    // Every dependent planned and applied after its upstreams' applies (gitlabGate.test.ts runs the gated one).
    generate('--changed-only', '--base-ref', 'main', '--all-dependents');
    const listed = JSON.parse(ciLocal('--list-json').stdout) as { name: string; needs: { job: string }[] }[];
    assert.deepEqual(
      listed.map((job) => job.name),
      [`plan-${EKS}`, `apply-${EKS}`, `plan-${API}`, `apply-${API}`],
    );
    assert.deepEqual(listed[0]!.needs, [], 'the vpc is not in this pipeline');
    assert.deepEqual(
      listed[2]!.needs.map((need) => need.job),
      [`apply-${EKS}`],
    );
    const run = ciLocal('--manual', `apply-${EKS}`, '--manual', `apply-${API}`);
    assert.equal(run.status, 0, (run.stdout + run.stderr).slice(-3000));
    assert.match(run.stdout, new RegExp(`PASS\\s+apply-${API}\\b`));

    git('checkout', '-q', 'main', '--', '.gitlab-ci.yml');
    git('checkout', '-q', 'main');
    generate('--changed-only', '--base-ref', 'main');
    const none = ciLocal();
    assert.equal(none.status, 0, none.stderr);
    assert.match(none.stdout, /PASS\s+no-changes/);
    assert.match(none.stdout, /No Terraform module changed since main: nothing to plan or apply\./);
  });
});

/**
 * A Terragrunt workspace (the terragrunt-units fixture without its cycle): the pipeline passes
 * gitlab-ci-local's schema check, its `needs:` follow the `dependency` blocks and the state reads,
 * and a unit's jobs run terragrunt with its plan file where the apply job finds it.
 */
describe('gitlab-ci-local reads the pipeline of Terragrunt units', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'terrace-gitlab-terragrunt-'));
    cpSync(path.join(repo, 'test/fixtures/terragrunt-units'), dir, { recursive: true });
    rmSync(path.join(dir, 'live/ops'), { recursive: true });
    generateIn(dir);
    gitlabRepository(dir);
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('--preview and --list-json: the needs follow the dependencies; units run terragrunt', () => {
    const preview = ciLocalIn(dir, '--preview');
    assert.equal(preview.status, 0, preview.stderr);
    const listed = ciLocalIn(dir, '--list-json');
    assert.equal(listed.status, 0, listed.stderr);
    const jobs = JSON.parse(listed.stdout) as { name: string; needs: { job: string }[] }[];
    const needs = Object.fromEntries(jobs.map((job) => [job.name, job.needs.map((need) => need.job).sort()]));
    assert.deepEqual(needs, {
      'plan-live-prod-network-vpc': [],
      'apply-live-prod-network-vpc': ['plan-live-prod-network-vpc'],
      'plan-live-prod-platform-eks': ['apply-live-prod-network-vpc'],
      'plan-shared-dns': ['apply-live-prod-network-vpc'],
      'apply-live-prod-platform-eks': ['plan-live-prod-platform-eks'],
      'apply-shared-dns': ['plan-shared-dns'],
      'plan-live-prod-apps-api': ['apply-live-prod-network-vpc', 'apply-live-prod-platform-eks', 'apply-shared-dns'],
      'plan-live-prod-apps-worker': ['apply-live-prod-platform-eks'],
      'apply-live-prod-apps-api': ['plan-live-prod-apps-api'],
      'apply-live-prod-apps-worker': ['plan-live-prod-apps-worker'],
    });
    // What GitLab sees: the template's script in the unit's folder, its variables, its cache.
    const previewed = parse(preview.stdout, { maxAliasCount: -1 }) as Record<string, PreviewJob>;
    const api = previewed['plan-live-prod-apps-api']!;
    assert.deepEqual(api['script'], [
      'cd "$TF_MODULE_PATH"',
      'terragrunt init -input=false',
      'terragrunt plan -input=false -out="$CI_PROJECT_DIR/$TERRACE_LOCK.tfplan"',
    ]);
    assert.equal(api.variables?.['TF_MODULE_PATH'], 'live/prod/apps/api');
    assert.deepEqual((api['cache'] as { paths: string[] }[])[0]!.paths, ['$TF_MODULE_PATH/.terragrunt-cache/']);
    assert.deepEqual(
      (previewed['apply-live-prod-apps-api']!['script'] as string[]).at(-1),
      'terragrunt apply -input=false "$CI_PROJECT_DIR/$TERRACE_LOCK.tfplan"',
    );
    assert.deepEqual(
      (previewed['plan-shared-dns']!['script'] as string[]).at(-1),
      'terraform plan -input=false -out="$CI_PROJECT_DIR/$TERRACE_LOCK.tfplan"',
    );
    assert.equal(previewed['plan-shared-dns']!.variables?.['TF_MODULE_PATH'], 'shared/dns');
  });

  test('a stack file: its units are generated before they are planned, and the needs follow their dependency', () => {
    const stack = mkdtempSync(path.join(os.tmpdir(), 'terrace-gitlab-stack-'));
    try {
      cpSync(path.join(repo, 'test/fixtures/terragrunt-stack'), stack, { recursive: true });
      generateIn(stack);
      gitlabRepository(stack);
      const preview = ciLocalIn(stack, '--preview');
      assert.equal(preview.status, 0, preview.stderr);
      assert.match(preview.stdout, /- cd live\/prod\n\s+- terragrunt stack generate\n\s+- cd .terragrunt-stack\/vpc\n/);
      const listed = JSON.parse(ciLocalIn(stack, '--list-json').stdout) as { name: string; needs: { job: string }[] }[];
      const app = listed.find((job) => job.name === 'plan-live-prod--terragrunt-stack-service--terragrunt-stack-app');
      assert.deepEqual(
        app?.needs.map((need) => need.job),
        ['apply-live-prod--terragrunt-stack-vpc'],
      );
    } finally {
      rmSync(stack, { recursive: true, force: true });
    }
  });
});

/**
 * An OpenTofu workspace whose backends read variables (the opentofu-early-evaluation fixture), generated
 * for one environment: the jobs run tofu, and give the environment's tfvars file to init (the backend
 * needs it) as well as to plan, where the module's folder holds it.
 */
describe('gitlab-ci-local reads the pipeline of an OpenTofu workspace', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'terrace-gitlab-tofu-'));
    cpSync(path.join(repo, 'test/fixtures/opentofu-early-evaluation'), dir, { recursive: true });
    generateIn(dir, '--env', 'prod');
    const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' });
    git('init', '-q', '-b', 'main');
    git('remote', 'add', 'origin', 'git@gitlab.example.com:acme/tofu.git');
    git('add', '-A');
    git('-c', 'user.name=T', '-c', 'user.email=t@t.invalid', 'commit', '-q', '-m', 'fixture');
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('--preview: tofu init and plan with the environment’s -var-file; the needs follow the edges', () => {
    const preview = ciLocalIn(dir, '--preview');
    assert.equal(preview.status, 0, preview.stderr);
    const varFiles = `$(for f in prod.tfvars prod.tfvars.json; do [ -f "$f" ] && printf ' -var-file=%s' "$f"; done)`;
    // What GitLab sees: the template's script, run in the module's folder (TF_MODULE_PATH).
    const previewed = parse(preview.stdout, { maxAliasCount: -1 }) as Record<string, PreviewJob>;
    assert.deepEqual(previewed['plan-network']?.['script'], [
      'cd "$TF_MODULE_PATH"',
      `tofu init -input=false ${varFiles}`,
      `tofu plan -input=false -out="$CI_PROJECT_DIR/$TERRACE_LOCK.tfplan" ${varFiles}`,
    ]);
    assert.equal(previewed['plan-network']?.variables?.['TF_MODULE_PATH'], 'network');
    assert.deepEqual(previewed['apply-app']?.['script'], [
      'cd "$TF_MODULE_PATH"',
      `tofu init -input=false ${varFiles}`,
      'tofu apply -input=false "$CI_PROJECT_DIR/$TERRACE_LOCK.tfplan"',
    ]);
    assert.equal(previewed['apply-app']?.variables?.['TF_MODULE_PATH'], 'app');
    const listed = JSON.parse(ciLocalIn(dir, '--list-json').stdout) as { name: string; needs: { job: string }[] }[];
    const needs = Object.fromEntries(listed.map((job) => [job.name, job.needs.map((need) => need.job).sort()]));
    assert.deepEqual(needs['plan-app'], ['apply-dns', 'apply-network']);
  });
});

/**
 * The validate job (`validate.enabled`) run for real, with the CLI as built (`dist/cli.js`, a single
 * file, as a repository would commit it): on the output-contracts fixture, whose app/api reads outputs
 * network/vpc does not declare, it fails and no plan starts; on the local-backend fixture it passes,
 * and the plans and applies run after it.
 */
describe('gitlab-ci-local runs the validate job before anything plans', () => {
  const cli = path.join(repo, 'dist/cli.js');
  const copies: string[] = [];
  /** A copy of a fixture whose pipeline validates with the built CLI, generated and committed. */
  function validatedCopy(fixture: string): string {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'terrace-gitlab-validate-'));
    copies.push(dir);
    cpSync(path.join(repo, 'test/fixtures', fixture), dir, { recursive: true });
    const command = `node ${cli} validate .`;
    writeFileSync(
      path.join(dir, '.terrace.yaml'),
      `validate:\n  enabled: true\n  command: ${JSON.stringify(command)}\n`,
    );
    generateIn(dir);
    gitlabRepository(dir);
    return dir;
  }
  before(() => {
    ensureNode24();
    if (!existsSync(cli)) throw new Error('cannot run: dist/cli.js is missing (node esbuild.mjs builds it)');
  });
  after(() => {
    for (const dir of copies) rmSync(dir, { recursive: true, force: true });
  });

  test('a read of an output its writer does not declare: the validate job fails, naming it, and no plan starts', () => {
    const dir = validatedCopy('output-contracts');
    const listed = JSON.parse(ciLocalIn(dir, '--list-json').stdout) as { name: string; needs: { job: string }[] }[];
    assert.equal(listed[0]!.name, 'validate');
    const first = listed.filter((job) => job.name === 'plan-network-dns' || job.name === 'plan-network-vpc');
    assert.deepEqual(
      first.map((job) => job.needs.map((need) => need.job)),
      [['validate'], ['validate']],
    );

    const run = ciLocalIn(
      dir,
      '--manual',
      'apply-network-dns',
      '--manual',
      'apply-network-vpc',
      '--manual',
      'apply-app-api',
    );
    const log = run.stdout + run.stderr;
    assert.notEqual(run.status, 0, log.slice(-3000));
    assert.match(log, /FAIL\s+validate\b/);
    assert.match(
      log,
      /app\/api\/main\.tf:39:55: network\/vpc declares no output "private_subnet_idz"; did you mean "private_subnet_ids"\?/,
    );
    // Each error once (gitlab-ci-local repeats the first lines of a failed job's output in its summary).
    assert.deepEqual([...new Set(log.match(/Error: \S+: network\/vpc declares no output "\w+"/g))].sort(), [
      'Error: app/api/main.tf:39:55: network/vpc declares no output "private_subnet_idz"',
      'Error: app/api/main.tf:42:91: network/vpc declares no output "zone_id"',
      'Error: app/api/service.tf:3:44: network/vpc declares no output "nat_gateway_id"',
      'Error: modules/service/main.tf:10:23: network/vpc declares no output "availability_zones"',
    ]);
    assert.doesNotMatch(log, /\b(plan|apply)-[\w-]+\s+starting/, 'no plan or apply started');
  });

  test('outputs as declared: the validate job passes, then the plans and applies run in dependency order', () => {
    const { log, at } = runWholePipeline(validatedCopy('pipeline-local-backend'));
    assert.match(log, /PASS\s+validate\b/);
    assert.match(log, /4 modules in 3 levels, no cycles/);
    assert.ok(at('validate\\s+finished') < at(`plan-${VPC}\\s+starting`), 'the first plan starts after validate');
    assert.ok(at(`apply-${VPC}\\s+finished`) < at(`plan-${EKS}\\s+starting`));
  });
});
