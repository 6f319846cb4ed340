import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { validateWorkflow } from '@action-validator/core';
import { parse } from 'yaml';
import { analyzeDirectory } from '../../server/src/engine/analysis';
import { defaultPipelineOptions } from '../../server/src/engine/config';
import { generatePipeline } from '../../server/src/engine/pipeline';
import { TERRACE_VERSION } from '../../server/src/terraceVersion';
import { CLI } from './gatedRepository';
import { gitlabPreview, type PreviewJob } from './gitlabPreview';
import { gitIn } from './gitRepository';

/**
 * Terragrunt units in a gated pipeline: a unit's dependent decides from the `dependency.x.outputs.y` it reads as a
 * root's from its `terraform_remote_state` reads. No terragrunt binary here: the upstream unit's plan is made by
 * the real terraform on its module, with the unit's inputs as terragrunt passes them (TF_VAR_*), and the jobs'
 * `terrace gate` (the built CLI, with the specs `terrace generate --changed-only` wrote) decides from its JSON.
 */
const VPC_MODULE = `terraform {
  backend "local" {}
}

variable "cidr" {
  type = string
}

variable "team" {
  type = string
}

resource "terraform_data" "vpc" {
  input = var.cidr
}

resource "terraform_data" "tags" {
  input = { team = var.team }
}

output "cidr" {
  value = terraform_data.vpc.output
}

output "vpc_id" {
  value = terraform_data.vpc.id
}
`;

const READER_MODULE = `terraform {
  backend "local" {}
}

variable "value" {
  type = string
}

resource "terraform_data" "here" {
  input = var.value
}
`;

const unit = (source: string, dependency: string, inputs: string) => `terraform {
  source = "../../modules//${source}"
}
${dependency}
inputs = {
${inputs}
}
`;

const VPC_INPUTS = { cidr: '10.0.0.0/16', team: 'network' };
const DEPENDENCY = 'dependency "vpc" {\n  config_path = "../vpc"\n}\n';

let top: string;

/** The workspace: live/vpc, and live/app reading vpc_id, live/db reading cidr; `main` as deployed. */
function workspace(): string {
  const dir = path.join(top, 'repo');
  for (const folder of ['modules/vpc', 'modules/reader', 'live/vpc', 'live/app', 'live/db'])
    mkdirSync(path.join(dir, folder), { recursive: true });
  writeFileSync(path.join(dir, 'modules/vpc/main.tf'), VPC_MODULE);
  writeFileSync(path.join(dir, 'modules/reader/main.tf'), READER_MODULE);
  writeFileSync(
    path.join(dir, 'live/vpc/terragrunt.hcl'),
    unit('vpc', '', `  cidr = "${VPC_INPUTS.cidr}"\n  team = "${VPC_INPUTS.team}"`),
  );
  writeFileSync(
    path.join(dir, 'live/app/terragrunt.hcl'),
    unit('reader', DEPENDENCY, '  value = dependency.vpc.outputs.vpc_id'),
  );
  writeFileSync(
    path.join(dir, 'live/db/terragrunt.hcl'),
    unit('reader', DEPENDENCY, '  value = dependency.vpc.outputs.cidr'),
  );
  writeFileSync(path.join(dir, '.terrace.yaml'), `gate:\n  command: node ${CLI}\n`);
  gitIn(dir, 'deployed');
  return dir;
}

/** The vpc module deployed with the unit's inputs, then planned with `inputs`: `terraform show -json` of that plan. */
function vpcPlanJson(inputs: { cidr: string; team: string }): string {
  const dir = mkdtempSync(path.join(top, 'vpc-'));
  cpSync(path.join(top, 'repo/modules/vpc'), dir, { recursive: true });
  const env = (values: typeof inputs) => ({
    ...process.env,
    CHECKPOINT_DISABLE: '1',
    TF_IN_AUTOMATION: '1',
    TF_VAR_cidr: values.cidr,
    TF_VAR_team: values.team,
  });
  const tf = (values: typeof inputs, ...args: string[]) =>
    execFileSync('terraform', args, { cwd: dir, env: env(values), encoding: 'utf8' });
  tf(VPC_INPUTS, 'init', '-input=false', '-no-color');
  tf(VPC_INPUTS, 'apply', '-input=false', '-auto-approve', '-no-color');
  tf(inputs, 'plan', '-input=false', '-no-color', '-out=vpc.tfplan');
  return tf(inputs, 'show', '-json', 'vpc.tfplan');
}

/** The pipeline of a change to live/vpc's inputs, then its jobs' gates on the plan JSON of `inputs`. */
function decide(inputs: { cidr: string; team: string }): Record<string, string> {
  const dir = workspace();
  const git = gitIn(dir);
  git('checkout', '-q', '-b', 'change');
  const file = path.join(dir, 'live/vpc/terragrunt.hcl');
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, text.replace(VPC_INPUTS.cidr, inputs.cidr).replace(VPC_INPUTS.team, inputs.team));
  git('commit', '-q', '-am', 'change');
  const generated = spawnSync(
    process.execPath,
    [CLI, 'generate', dir, '--ci', 'gitlab', '--changed-only', '--base-ref', 'main'],
    { encoding: 'utf8' },
  );
  assert.equal(generated.status, 0, generated.stderr);
  const jobs = parse(generated.stdout) as Record<string, { variables?: Record<string, string | { value: string }> }>;
  const specOf = (job: string) => {
    const value = jobs[job]!.variables!['TERRACE_GATE']!;
    return typeof value === 'string' ? value : value.value;
  };
  const job = mkdtempSync(path.join(top, 'job-'));
  const gate = (name: string, step: string, stdin = '') => {
    const ran = spawnSync(process.execPath, [CLI, 'gate', step], {
      cwd: job,
      input: stdin,
      encoding: 'utf8',
      env: { PATH: process.env['PATH']!, TERRACE_GATE: specOf(name) },
    });
    assert.equal(ran.status, 0, ran.stderr);
    return ran.stderr.trim();
  };
  const said: Record<string, string> = { 'live/vpc': gate('plan-live-vpc', 'planned', vpcPlanJson(inputs)) };
  for (const id of ['live/app', 'live/db']) said[id] = gate(`plan-${id.replace('/', '-')}`, 'plan');
  rmSync(dir, { recursive: true, force: true });
  return said;
}

describe('Terragrunt units: a dependent decides from the dependency outputs it reads', () => {
  before(() => {
    top = mkdtempSync(path.join(os.tmpdir(), 'terrace-gate-terragrunt-'));
    const terraform = spawnSync('terraform', ['version'], { encoding: 'utf8' });
    if (terraform.error || terraform.status !== 0) throw new Error('cannot run: terraform is not installed');
  });
  after(() => rmSync(top, { recursive: true, force: true }));

  test('a change to an input that is in no output: both readers skipped, each naming the output it reads', () => {
    assert.deepEqual(decide({ ...VPC_INPUTS, team: 'platform' }), {
      'live/vpc': 'live/vpc: planned; its outputs: cidr (unchanged), vpc_id (unchanged)',
      'live/app': 'live/app: skipped: reads vpc_id of live/vpc: unchanged in its plan',
      'live/db': 'live/db: skipped: reads cidr of live/vpc: unchanged in its plan',
    });
  });

  test('a change to cidr: the unit reading it waits for live/vpc to apply, the one reading vpc_id is skipped', () => {
    const said = decide({ ...VPC_INPUTS, cidr: '10.1.0.0/16' });
    assert.equal(said['live/vpc'], 'live/vpc: planned; its outputs: cidr (unknown), vpc_id (unchanged)');
    assert.equal(said['live/app'], 'live/app: skipped: reads vpc_id of live/vpc: unchanged in its plan');
    assert.equal(
      said['live/db'],
      "live/db: after live/vpc applies: reads cidr (unknown)\nlive/db: not planned now: its plan would read values its upstreams' applies replace",
    );
  });
});

describe('Terragrunt units and stack units in gated pipelines: valid for each platform’s reader', () => {
  test('the terragrunt-stack fixture: gitlab-ci-local --preview and @action-validator/core; each job decides first', async () => {
    const result = await analyzeDirectory(path.join(__dirname, '../fixtures/terragrunt-stack'));
    const ids = result.modules.map((module) => module.id);
    assert.ok(result.modules.some((module) => module.kind === 'unit'));
    // The first changed; what each reads not known (every read planned): the jobs' shape is what is checked.
    const changed = {
      baseRef: 'main',
      modules: new Set(ids),
      gate: { terrace: TERRACE_VERSION, reached: new Set(ids.slice(0, 1)), reads: new Map() },
    };
    const options = defaultPipelineOptions();
    const github = generatePipeline(result, { ci: 'github', options, changed });
    assert.deepEqual(validateWorkflow(github.text).errors, []);
    assert.deepEqual(validateWorkflow(github.companions[0]!.text).errors, []);
    const gitlab = gitlabPreview(generatePipeline(result, { ci: 'gitlab', options, changed }).text);
    const plans = Object.entries(gitlab).filter(([name]) => name.startsWith('plan-')) as [string, PreviewJob][];
    assert.equal(plans.length, ids.length);
    for (const [name, job] of plans) {
      const script = job['script'] as string[];
      assert.equal(script[0], 'TERRACE_STEP="$(terrace gate plan)"', name);
      assert.ok(job.variables?.['TERRACE_GATE'], name);
      assert.ok(
        script.indexOf('if [ "$TERRACE_STEP" = skip ]; then exit 0; fi') <
          script.findIndex((line) => / init /.test(line)),
        name,
      );
    }
  });
});
