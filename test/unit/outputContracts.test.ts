import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { loadWorkspace, type WorkspaceAnalysis } from '../../server/src/engine/analysis';
import { loadAnalysisOptions } from '../../server/src/engine/config';
import { closestNames, type OutputContracts } from '../../server/src/engine/contracts';
import {
  addContractDiagnostics,
  type EngineDiagnostic,
  graphJson,
  outputCompletions,
  outputIndex,
} from '../../server/src/engine/features';

/** The contracts between states: the outputs each read names, resolved to the writers, and what is missing. */
const fixtures = path.resolve(__dirname, '../fixtures');
const repo = path.resolve(__dirname, '../..');
const temporary: string[] = [];
after(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

async function contractsOf(root: string): Promise<{ analysis: WorkspaceAnalysis; contracts: OutputContracts }> {
  const analysis = await loadWorkspace(root, await loadAnalysisOptions(root));
  return { analysis, contracts: analysis.contracts() };
}

/** `file:line:column output [via] -> writer:state` for each use, in the order a reader reads them. */
function useLines(root: string, contracts: OutputContracts): string[] {
  return contracts.uses
    .map((use) => {
      const place = `${path.relative(root, use.file)}:${use.range.start.line + 1}:${use.range.start.character + 1}`;
      const writers = use.writers.map((writer) => {
        const state = writer.declared === null ? 'unknown' : writer.declared ? 'declared' : 'missing';
        return `${writer.id}:${state}`;
      });
      const through = use.through ? ` via ${use.through}` : '';
      return `${place} ${use.output ?? '<computed>'}${through} -> ${writers.join(',')}`;
    })
    .sort();
}

function problemLines(root: string, contracts: OutputContracts): string[] {
  return contracts.problems.map(
    (problem) =>
      `${problem.severity} ${path.relative(root, problem.file)}:${problem.range.start.line + 1}:${problem.range.start.character + 1} ${problem.message}`,
  );
}

function copyOf(fixture: string): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-contracts-'));
  temporary.push(root);
  cpSync(path.join(fixtures, fixture), root, { recursive: true });
  return root;
}

describe('the outputs a root reads from other states', () => {
  const root = path.join(fixtures, 'output-contracts');

  test('every form of read, resolved to the writers it reads', async () => {
    const { contracts } = await contractsOf(root);
    assert.deepEqual(useLines(root, contracts), [
      'app/api/main.tf:35:55 vpc_id -> network/vpc:declared',
      'app/api/main.tf:36:55 private_subnet_ids -> network/vpc:declared',
      'app/api/main.tf:37:59 public_subnet_ids -> network/vpc:declared',
      'app/api/main.tf:38:63 azs -> network/vpc:declared',
      'app/api/main.tf:39:55 private_subnet_idz -> network/vpc:missing',
      'app/api/main.tf:40:55 <computed> -> network/vpc:missing',
      'app/api/main.tf:41:62 zone_id -> network/dns:declared',
      'app/api/main.tf:42:91 zone_id -> network/dns:declared,network/vpc:missing',
      'app/api/service.tf:12:51 vpc_id -> network/vpc:declared',
      'app/api/service.tf:2:43 vpc_id via local.remote -> network/vpc:declared',
      'app/api/service.tf:3:44 nat_gateway_id via local.remote -> network/vpc:missing',
      'modules/service/main.tf:10:23 availability_zones via var.network -> network/vpc:missing',
      'modules/service/main.tf:6:23 private_subnet_ids via var.network -> network/vpc:declared',
    ]);
  });

  test('each output the writer does not declare is an error on its name, with the closest declared names', async () => {
    const { contracts } = await contractsOf(root);
    assert.deepEqual(problemLines(root, contracts), [
      'error modules/service/main.tf:10:23 network/vpc declares no output "availability_zones"',
      'error app/api/main.tf:39:55 network/vpc declares no output "private_subnet_idz"; did you mean "private_subnet_ids"?',
      'error app/api/main.tf:42:91 network/vpc declares no output "zone_id"',
      'error app/api/service.tf:3:44 network/vpc declares no output "nat_gateway_id"',
    ]);
    const typo = contracts.problems[1]!;
    assert.deepEqual(
      { start: typo.range.start, end: typo.range.end },
      { start: { line: 38, character: 54 }, end: { line: 38, character: 72 } },
    );
  });

  test('the diagnostics point at the writer outputs', async () => {
    const { contracts } = await contractsOf(root);
    const byFile = new Map<string, EngineDiagnostic[]>();
    addContractDiagnostics(contracts, byFile);
    const [first] = byFile.get(path.join(root, 'app/api/main.tf'))!;
    assert.equal(first!.code, 'missing-output');
    assert.equal(first!.severity, 'error');
    assert.deepEqual(
      first!.related.map((item) => [
        path.relative(root, item.location.file),
        item.location.range.start.line + 1,
        item.message,
      ]),
      [['network/vpc/outputs.tf', 1, 'the outputs of network/vpc']],
    );
  });

  test('the declared outputs keep their description, sensitivity and value', async () => {
    const { contracts } = await contractsOf(root);
    const outputs = contracts.outputs.get('network/vpc')!;
    assert.deepEqual(
      outputs.map((output) => [
        output.name,
        output.description ?? null,
        output.sensitive,
        output.valueRange?.start.line,
      ]),
      [
        ['vpc_id', "The VPC's id.", false, 2],
        ['private_subnet_ids', 'One private subnet per availability zone.', false, 7],
        ['public_subnet_ids', null, false, 11],
        ['azs', null, false, 15],
        ['flow_log_key', 'The key flow logs are encrypted with.', true, 20],
      ],
    );
  });

  test('graph --format json lists the outputs read along each edge', async () => {
    const { analysis, contracts } = await contractsOf(root);
    const edges = graphJson(analysis.result(), contracts).edges.map((edge) => [
      edge.to,
      edge.name,
      edge.instance,
      edge.outputs,
    ]);
    assert.deepEqual(edges, [
      [
        'network/vpc',
        'vpc',
        null,
        [
          'availability_zones',
          'azs',
          'nat_gateway_id',
          'private_subnet_ids',
          'private_subnet_idz',
          'public_subnet_ids',
          'vpc_id',
        ],
      ],
      ['network/dns', 'net', 'dns', ['zone_id']],
      ['network/vpc', 'net', 'vpc', ['zone_id']],
    ]);
    const reads = graphJson(analysis.result(), contracts).outputReads!;
    assert.deepEqual(
      {
        ...reads,
        missing: reads.missing.map((item) => `${item.file}:${item.line}:${item.column} ${item.output} ${item.writers}`),
      },
      {
        reads: 13,
        declared: 9,
        computed: 1,
        unchecked: 0,
        missing: [
          'modules/service/main.tf:10:23 availability_zones network/vpc',
          'app/api/main.tf:39:55 private_subnet_idz network/vpc',
          'app/api/main.tf:42:91 zone_id network/vpc',
          'app/api/service.tf:3:44 nat_gateway_id network/vpc',
        ],
      },
    );
    // Without the contracts, the JSON is as before.
    const plain = graphJson(analysis.result());
    assert.equal(plain.edges[0]!.outputs, undefined);
    assert.equal(plain.outputReads, undefined);
  });

  test('an edit that deletes an output puts the error on every reader at once', async () => {
    const copy = copyOf('output-contracts');
    const { analysis } = await contractsOf(copy);
    const outputsFile = path.join(copy, 'network/vpc/outputs.tf');
    const text = readFileSync(outputsFile, 'utf8').replace(/output "vpc_id" \{[^}]*\}\n/, '');
    await analysis.updateFile(outputsFile, text);
    const missing = analysis
      .contracts()
      .problems.filter((problem) => problem.output === 'vpc_id')
      .map((problem) => `${path.relative(copy, problem.file)}:${problem.range.start.line + 1}`)
      .sort();
    assert.deepEqual(missing, ['app/api/main.tf:35', 'app/api/service.tf:12', 'app/api/service.tf:2']);
  });

  test('an output the remote state block gives by its defaults is no error when the writer lacks it', async () => {
    const copy = copyOf('output-contracts');
    const main = path.join(copy, 'app/api/main.tf');
    writeFileSync(
      main,
      readFileSync(main, 'utf8').replace(
        'data "terraform_remote_state" "vpc" {\n  backend = "s3"',
        'data "terraform_remote_state" "vpc" {\n  backend  = "s3"\n  defaults = { private_subnet_idz = [], "nat_gateway_id" = null }',
      ),
    );
    const { contracts } = await contractsOf(copy);
    assert.deepEqual(
      contracts.problems.map((problem) => problem.output),
      ['availability_zones', 'zone_id'],
    );
  });

  test('terrace validate fails on a read of an output nobody declares, naming it', () => {
    const run = spawnSync(process.execPath, [path.join(repo, 'dist/cli.js'), 'validate', root], { encoding: 'utf8' });
    assert.equal(run.status, 1);
    assert.match(
      run.stderr,
      /^Error: app\/api\/main\.tf:39:55: network\/vpc declares no output "private_subnet_idz"; did you mean "private_subnet_ids"\?$/m,
    );
    assert.equal(run.stderr.match(/declares no output/g)?.length, 4);
  });

  test('a computed name is never checked, and a workspace without missing outputs validates', async () => {
    const copy = copyOf('output-contracts');
    const api = path.join(copy, 'app/api');
    writeFileSync(
      path.join(api, 'main.tf'),
      readFileSync(path.join(api, 'main.tf'), 'utf8')
        .replace('private_subnet_idz', 'private_subnet_ids')
        .replace(/ {4}zones .*\n/, ''),
    );
    writeFileSync(
      path.join(api, 'service.tf'),
      readFileSync(path.join(api, 'service.tf'), 'utf8').replace('nat_gateway_id', 'azs'),
    );
    writeFileSync(
      path.join(copy, 'modules/service/main.tf'),
      readFileSync(path.join(copy, 'modules/service/main.tf'), 'utf8').replace('availability_zones', 'azs'),
    );
    const { contracts } = await contractsOf(copy);
    assert.deepEqual(contracts.problems, []);
    assert.equal(contracts.uses.filter((use) => use.output === undefined).length, 1);
  });
});

describe('completion through what carries the outputs', () => {
  test('module.<call>.outputs. offers the outputs of the state that call’s instance of the child reads', async () => {
    const root = path.join(fixtures, 'child-module-twice');
    const { analysis, contracts } = await contractsOf(root);
    const index = outputIndex(analysis.result(), contracts);
    const api = path.join(root, 'app/api/main.tf');
    const names = (prefix: string) =>
      outputCompletions(index, api, prefix, (file) => readFileSync(file, 'utf8')).map((item) => item.name);
    const vpc = names('    vpc_id  = module.vpc_state.outputs.');
    const dns = names('    zone_id = module.dns_state.outputs.z');
    assert.ok(vpc.includes('vpc_id') && !vpc.includes('zone_id'), vpc.join(', '));
    assert.ok(dns.includes('zone_id') && !dns.includes('vpc_id'), dns.join(', '));
    assert.deepEqual(names('    x = module.vpc_state.'), []);
  });
});

describe('a Terragrunt unit reading its dependencies outputs', () => {
  const root = path.join(fixtures, 'output-contracts-terragrunt');

  test('dependency outputs, through a local too, against the dependency local code; mock_outputs keys', async () => {
    const { contracts } = await contractsOf(root);
    assert.deepEqual(useLines(root, contracts), [
      'live/app/terragrunt.hcl:22:41 vpc_id -> live/vpc:declared',
      'live/app/terragrunt.hcl:23:41 subnet_idz -> live/vpc:missing',
      'live/app/terragrunt.hcl:24:32 subnet_ids via local.network -> live/vpc:declared',
    ]);
    assert.deepEqual(problemLines(root, contracts), [
      'error live/app/terragrunt.hcl:23:41 live/vpc declares no output "subnet_idz"; did you mean "subnet_ids"?',
      'warning live/app/terragrunt.hcl:13:5 mock_outputs: live/vpc declares no output "subnet_idz"; did you mean "subnet_ids"?',
    ]);
  });

  test('a dependency whose code is not in the repository is not checked', async () => {
    const copy = copyOf('output-contracts-terragrunt');
    const unit = path.join(copy, 'live/vpc/terragrunt.hcl');
    writeFileSync(
      unit,
      readFileSync(unit, 'utf8').replace('"../../modules//vpc"', '"git::https://example.com/modules.git//vpc?ref=v1"'),
    );
    const { contracts } = await contractsOf(copy);
    assert.deepEqual(problemLines(copy, contracts), []);
    assert.ok(contracts.uses.every((use) => use.writers.every((writer) => writer.declared === null)));
  });
});

describe('a Stack reading its components outputs', () => {
  test('component.<name>.<output> against the component module, when its source is local', async () => {
    const copy = copyOf('terraform-stacks');
    const { contracts } = await contractsOf(copy);
    const checked = contracts.uses.filter((use) => use.writers.some((writer) => writer.declared !== null));
    assert.deepEqual(
      checked.map((use) => [path.relative(copy, use.file), use.range.start.line + 1, use.reader, use.output]),
      [
        ['platform/components.tfcomponent.hcl', 3, path.join(copy, 'platform'), 'private_subnet_ids'],
        ['platform/components.tfcomponent.hcl', 20, 'platform/component.cluster', 'vpc_id'],
        ['platform/components.tfcomponent.hcl', 33, 'platform/component.dns', 'vpc_id'],
      ],
    );
    assert.deepEqual(contracts.problems, []);
    const module = path.join(copy, 'platform/modules/network/main.tf');
    writeFileSync(module, readFileSync(module, 'utf8').replace('output "vpc_id"', 'output "network_id"'));
    const after = await contractsOf(copy);
    assert.deepEqual(
      after.contracts.problems.map((problem) => [problem.severity, problem.range.start.line + 1, problem.message]),
      [
        ['error', 20, 'platform/component.network declares no output "vpc_id"'],
        ['error', 33, 'platform/component.network declares no output "vpc_id"'],
      ],
    );
  });
});

describe('did you mean', () => {
  test('the declared names within a third of the length in edits, nearest first, at most three', () => {
    assert.deepEqual(closestNames('private_subnet_idz', ['private_subnet_ids', 'public_subnet_ids', 'vpc_id']), [
      'private_subnet_ids',
    ]);
    assert.deepEqual(closestNames('vpc_idz', ['vpc_ids', 'vpc_id', 'azs']), ['vpc_id', 'vpc_ids']);
    assert.deepEqual(closestNames('vpc', ['vpc_id', 'azs']), []);
    assert.deepEqual(closestNames('ab', ['ac', 'bb', 'aa', 'xy']), ['aa', 'ac', 'bb']);
  });

  test('10,000 misses among 10,000 names: the name meant, a typo at its end, start or middle, in bounded time', () => {
    const names = Array.from({ length: 10_000 }, (_, i) => `subnet_${String(i).padStart(5, '0')}_id`);
    const start = performance.now();
    const found = names.map((name) => closestNames(`${name.slice(0, -1)}z`, names));
    const elapsed = performance.now() - start;
    // The name meant first, then two others one more edit away.
    assert.deepEqual(found[1234], ['subnet_01234_id', 'subnet_01204_id', 'subnet_01214_id']);
    assert.ok(found.every((close, i) => close[0] === names[i] && close.length === 3));
    assert.deepEqual(closestNames('sbunet_04321_id', names)[0], 'subnet_04321_id');
    assert.deepEqual(closestNames('xsubnet_04321_id', names)[0], 'subnet_04321_id');
    assert.deepEqual(closestNames('subnet_0x321_id', names), ['subnet_00321_id', 'subnet_01321_id', 'subnet_02321_id']);
    // Before, each miss was compared with every name: 10,000 x 10,000 took 50 s.
    assert.ok(elapsed < 5000, `${elapsed} ms`);
  });

  test('a name longer than 100 characters gets no suggestion: its distance to each name costs their lengths multiplied', () => {
    const long = (i: number, last: string) => `o${i}_${'x'.repeat(1995)}${last}`;
    const names = Array.from({ length: 100 }, (_, i) => long(i, 'y'));
    const start = performance.now();
    assert.deepEqual(closestNames(long(7, 'z'), names), []);
    assert.ok(performance.now() - start < 1000);
    assert.deepEqual(closestNames(`${'a'.repeat(99)}z`, [`${'a'.repeat(99)}y`]), [`${'a'.repeat(99)}y`]);
  });
});

describe('completion after .outputs. at 10,000 outputs', () => {
  test('reads the file of the outputs once, not once per output', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-contracts-'));
    temporary.push(root);
    const names = Array.from({ length: 10_000 }, (_, i) => `output_${String(i).padStart(5, '0')}`);
    const backend = (key: string) => `terraform {\n  backend "local" {\n    path = "../${key}.tfstate"\n  }\n}\n`;
    const outputs = names.map((name, i) => `output "${name}" {\n  value = "value-${i}"\n}\n`).join('');
    const read =
      'data "terraform_remote_state" "net" {\n  backend = "local"\n  config  = { path = "../net.tfstate" }\n}\n';
    mkdirSync(path.join(root, 'net'));
    mkdirSync(path.join(root, 'app'));
    writeFileSync(path.join(root, 'net/main.tf'), `${backend('net')}${outputs}`);
    writeFileSync(path.join(root, 'app/main.tf'), `${backend('app')}${read}`);
    const { analysis, contracts } = await contractsOf(root);
    const index = outputIndex(analysis.result(), contracts);
    const reads: string[] = [];
    const items = outputCompletions(
      index,
      path.join(root, 'app/main.tf'),
      'x = data.terraform_remote_state.net.outputs.',
      (file) => {
        reads.push(path.relative(root, file));
        return readFileSync(file, 'utf8');
      },
    );
    assert.equal(items.length, 10_000);
    assert.deepEqual(
      [items[0]!.name, items[0]!.value, items[9999]!.value],
      ['output_00000', '"value-0"', '"value-9999"'],
    );
    assert.deepEqual(reads, ['net/main.tf']);
  });
});
