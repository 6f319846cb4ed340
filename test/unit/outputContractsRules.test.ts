import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { loadWorkspace } from '../../server/src/engine/analysis';
import { loadAnalysisOptions } from '../../server/src/engine/config';
import type { OutputContracts } from '../../server/src/engine/contracts';

/**
 * The reads of outputs as Terraform and Terragrunt give them, against what Terrace reports: `try`, `lookup`
 * with a default and `can` turn a missing output into the default or false (a `try` whose every argument is
 * missing still fails); a name in NFD reads the output declared in NFC; a `for` over a `for_each` remote
 * state reads each instance; a Terragrunt `generate` block declares the outputs it writes; `skip_outputs`
 * gives the mocks. The Terraform cases are checked with the real terraform, offline.
 */
const repo = path.resolve(__dirname, '../..');
const fixtures = path.join(repo, 'test/fixtures');
const TF_ENV = { ...process.env, TF_IN_AUTOMATION: '1', TF_INPUT: '0', CHECKPOINT_DISABLE: '1' };
const temporary: string[] = [];
after(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'terrace-contract-rules-'));
  temporary.push(dir);
  return dir;
}

function write(root: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
}

async function problemLines(root: string): Promise<string[]> {
  const analysis = await loadWorkspace(root, await loadAnalysisOptions(root));
  return lines(root, analysis.contracts());
}

function lines(root: string, contracts: OutputContracts): string[] {
  return contracts.problems.map(
    (problem) =>
      `${problem.severity} ${path.relative(root, problem.file)}:${problem.range.start.line + 1}:${problem.range.start.character + 1} ${problem.message}`,
  );
}

/** The CLI from its source, as a user runs it. */
function terrace(...args: string[]) {
  const tsx = pathToFileURL(path.join(repo, 'node_modules/tsx/dist/loader.mjs')).href;
  return spawnSync(process.execPath, ['--import', tsx, path.join(repo, 'server/src/cli/cli.ts'), ...args], {
    encoding: 'utf8',
  });
}

const NFC = 'café';
const NFD = NFC.normalize('NFD');
/** Declared in NFD, read in NFC. */
const NAIVE = 'naïve';

describe('reads Terraform does not fail on are no errors; those it fails on are, on their own lines', () => {
  let root: string;
  const state = (name: string) => `terraform {\n  backend "local" {\n    path = "${name}.tfstate"\n  }\n}\n`;
  const remote = [
    'data "terraform_remote_state" "net" {',
    '  backend = "local"',
    '  config  = { path = "../net/net.tfstate" }',
    '}',
    'data "terraform_remote_state" "many" {',
    '  for_each = toset(["a", "b"])',
    '  backend  = "local"',
    '  config   = { path = "../net/net.tfstate" }',
    '}',
    'locals {',
    '  net = data.terraform_remote_state.net.outputs',
    '}',
    '',
  ].join('\n');
  const net = 'data.terraform_remote_state.net.outputs';

  before(() => {
    root = scratch();
    write(root, {
      'net/main.tf': [
        state('net'),
        'output "vpc_id" {\n  value = "vpc-1"\n}\n',
        `output "${NFC}" {\n  value = "nfc"\n}\n`,
        `output "${NAIVE.normalize('NFD')}" {\n  value = "nfd"\n}\n`,
      ].join(''),
    });
    const cwd = path.join(root, 'net');
    execFileSync('terraform', ['init', '-input=false', '-no-color'], { cwd, env: TF_ENV, stdio: 'ignore' });
    execFileSync('terraform', ['apply', '-auto-approve', '-input=false', '-no-color'], {
      cwd,
      env: TF_ENV,
      stdio: 'ignore',
    });
  });

  /** The reader `app` with these outputs: terraform plan's error lines, and Terrace's problems. */
  async function reader(outputs: string[]): Promise<{ planned: boolean; terraform: number[]; terrace: string[] }> {
    const app = path.join(root, 'app');
    rmSync(app, { recursive: true, force: true });
    const body = outputs.map((value, i) => `output "o${i}" {\n  value = ${value}\n}\n`).join('');
    write(root, { 'app/main.tf': `${state('app')}${remote}${body}` });
    execFileSync('terraform', ['init', '-input=false', '-no-color'], { cwd: app, env: TF_ENV, stdio: 'ignore' });
    const plan = spawnSync('terraform', ['plan', '-input=false', '-lock=false', '-no-color'], {
      cwd: app,
      env: TF_ENV,
      encoding: 'utf8',
    });
    const errorLines = [...plan.stderr.matchAll(/on main\.tf line (\d+)/g)].map((match) => Number(match[1]));
    return {
      planned: plan.status === 0,
      terraform: [...new Set(errorLines)].sort((a, b) => a - b),
      terrace: (await problemLines(root)).map((line) => line.replace(/^error app\/main\.tf:/, '')),
    };
  }

  test('try, lookup with a default, can: terraform plans with the default or false, and Terrace reports nothing', async () => {
    const { planned, terraform, terrace } = await reader([
      `try(${net}.maybe, null)`,
      `lookup(${net}, "maybe", "fallback")`,
      `can(${net}.maybe)`,
      `try(${net}.gone, ${net}.vpc_id)`,
      `try(try(${net}.gone_a, ${net}.gone_b), "fallback")`,
      'try(local.net.maybe, null)',
    ]);
    assert.deepEqual({ planned, terraform, terrace }, { planned: true, terraform: [], terrace: [] });
  });

  test('a try whose every argument is missing, lookup without a default: errors where terraform fails', async () => {
    const { planned, terraform, terrace } = await reader([
      `try(${net}.gone_a, ${net}.gone_b)`,
      `lookup(${net}, "gone_c")`,
      `try(${net}.gone_d, try(${net}.gone_e, ${net}.gone_f))`,
    ]);
    assert.equal(planned, false);
    // Each on its output's `value` line.
    assert.deepEqual(terraform, [19, 22, 25]);
    assert.deepEqual(terrace, [
      '19:55 net declares no output "gone_a"',
      '19:103 net declares no output "gone_b"',
      '22:59 net declares no output "gone_c"',
      '25:55 net declares no output "gone_d"',
      '25:107 net declares no output "gone_e"',
      '25:155 net declares no output "gone_f"',
    ]);
  });

  test('an output read in NFD and declared in NFC, or the reverse: the same name', async () => {
    const { planned, terraform, terrace } = await reader([
      `${net}.${NFD}`,
      `${net}["${NFD}"]`,
      `lookup(${net}, "${NFD}")`,
      `${net}.${NAIVE}`,
    ]);
    assert.deepEqual({ planned, terraform, terrace }, { planned: true, terraform: [], terrace: [] });
  });

  test('[for s in <a for_each remote state> : s.outputs.x]: each instance read, a missing output an error on its name', async () => {
    const read = await reader([
      '[for s in data.terraform_remote_state.many : s.outputs.vpc_id]',
      '{ for k, s in data.terraform_remote_state.many : k => s.outputs.vpc_id }',
    ]);
    assert.deepEqual(read, { planned: true, terraform: [], terrace: [] });
    const missing = await reader([
      '[for s in data.terraform_remote_state.many : s.outputs.nope]',
      '{ for k, s in data.terraform_remote_state.many : k => try(s.outputs.gone_a, s.outputs.gone_b) }',
      // `s` here is not an instance: the inner `for` names its own.
      '[for s in data.terraform_remote_state.many : [for s in ["x"] : s]]',
    ]);
    assert.equal(missing.planned, false);
    assert.deepEqual(missing.terraform, [19, 22]);
    assert.deepEqual(missing.terrace, [
      '19:66 net declares no output "nope"',
      '22:79 net declares no output "gone_a"',
      '22:97 net declares no output "gone_b"',
    ]);
  });
});

describe('terrace validate on reads that try or lookup guard', () => {
  test('exits 0 on a workspace whose only missing outputs are read through try, lookup with a default or can', () => {
    const root = scratch();
    cpSync(path.join(fixtures, 'output-contracts/network'), path.join(root, 'network'), { recursive: true });
    const backend = 'terraform {\n  backend "local" {\n    path = "app.tfstate"\n  }\n}\n';
    const read = [
      'data "terraform_remote_state" "vpc" {',
      '  backend = "s3"',
      '  config = {',
      '    bucket = "acme-tfstate"',
      '    key    = "network/vpc/terraform.tfstate"',
      '    region = "eu-central-1"',
      '  }',
      '}',
      'locals {',
      '  maybe   = try(data.terraform_remote_state.vpc.outputs.maybe, null)',
      '  later   = lookup(data.terraform_remote_state.vpc.outputs, "later", "none")',
      '  exists  = can(data.terraform_remote_state.vpc.outputs.someday)',
      '}',
      '',
    ].join('\n');
    write(root, { 'app/main.tf': `${backend}${read}` });
    const run = terrace('validate', root);
    assert.equal(run.stderr, '');
    assert.equal(run.status, 0);
    // The same read unguarded: exit 1, named.
    writeFileSync(
      path.join(root, 'app/main.tf'),
      `${backend}${read.replace('try(data.terraform_remote_state.vpc.outputs.maybe, null)', 'data.terraform_remote_state.vpc.outputs.maybe')}`,
    );
    const failing = terrace('validate', root);
    assert.equal(failing.status, 1);
    assert.match(failing.stderr, /^Error: app\/main\.tf:15:53: network\/vpc declares no output "maybe"$/m);
  });
});

describe('a Stack reading its components outputs through try', () => {
  test('try(component.x.maybe, null) is no error; a try of two missing outputs is', async () => {
    const root = scratch();
    cpSync(path.join(fixtures, 'terraform-stacks'), root, { recursive: true });
    const file = path.join(root, 'platform/components.tfcomponent.hcl');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(
        '    vpc_id     = component.network.vpc_id\n',
        [
          '    vpc_id     = component.network.vpc_id',
          '    maybe      = try(component.network.maybe, null)',
          '    gone       = try(component.network.gone_a, component.network.gone_b)',
          '',
        ].join('\n'),
      ),
    );
    assert.deepEqual(await problemLines(root), [
      'error platform/components.tfcomponent.hcl:22:40 platform/component.network declares no output "gone_a"',
      'error platform/components.tfcomponent.hcl:22:66 platform/component.network declares no output "gone_b"',
    ]);
  });
});

describe('outputs of a Terragrunt dependency', () => {
  const generate = [
    '',
    'generate "outputs" {',
    '  path      = "generated_outputs.tf"',
    '  if_exists = "overwrite"',
    '  contents  = <<-EOF',
    '    output "account_id" {',
    '      value = "123"',
    '    }',
    '  EOF',
    '}',
    '',
  ].join('\n');

  test('an output a generate block of an included file writes is declared, at its output block', async () => {
    const root = scratch();
    cpSync(path.join(fixtures, 'output-contracts-terragrunt'), root, { recursive: true });
    writeFileSync(path.join(root, 'root.hcl'), `${readFileSync(path.join(root, 'root.hcl'), 'utf8')}${generate}`);
    const app = path.join(root, 'live/app/terragrunt.hcl');
    writeFileSync(
      app,
      readFileSync(app, 'utf8').replace(
        '  vpc_id       = dependency.vpc.outputs.vpc_id\n',
        '  vpc_id       = dependency.vpc.outputs.vpc_id\n  account_id   = dependency.vpc.outputs.account_id\n',
      ),
    );
    const analysis = await loadWorkspace(root, await loadAnalysisOptions(root));
    const contracts = analysis.contracts();
    assert.deepEqual(lines(root, contracts), [
      'error live/app/terragrunt.hcl:24:41 live/vpc declares no output "subnet_idz"; did you mean "subnet_ids"?',
      'warning live/app/terragrunt.hcl:13:5 mock_outputs: live/vpc declares no output "subnet_idz"; did you mean "subnet_ids"?',
    ]);
    const account = contracts.outputs.get('live/vpc')!.find((output) => output.name === 'account_id')!;
    assert.deepEqual(
      [
        path.relative(root, account.file),
        { start: account.nameRange.start, end: account.nameRange.end },
        account.valueRange?.start,
      ],
      [
        'root.hcl',
        { start: { line: 13, character: 11 }, end: { line: 13, character: 23 } },
        { line: 14, character: 14 },
      ],
    );
  });

  test('with skip_outputs, a key only in mock_outputs is no error and its mock no warning; another key still is', async () => {
    const root = scratch();
    cpSync(path.join(fixtures, 'output-contracts-terragrunt'), root, { recursive: true });
    const app = path.join(root, 'live/app/terragrunt.hcl');
    writeFileSync(
      app,
      `${readFileSync(app, 'utf8')}
dependency "later" {
  config_path  = "../vpc"
  skip_outputs = true
  mock_outputs = {
    only_mocked = "m"
  }
}

locals {
  mocked = dependency.later.outputs.only_mocked
  nope   = dependency.later.outputs.nope
}
`,
    );
    assert.deepEqual(await problemLines(root), [
      'error live/app/terragrunt.hcl:37:37 live/vpc declares no output "nope"',
      'error live/app/terragrunt.hcl:23:41 live/vpc declares no output "subnet_idz"; did you mean "subnet_ids"?',
      'warning live/app/terragrunt.hcl:13:5 mock_outputs: live/vpc declares no output "subnet_idz"; did you mean "subnet_ids"?',
    ]);
  });
});
