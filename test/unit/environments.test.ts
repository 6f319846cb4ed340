import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { WorkspaceAnalysis } from '../../server/src/engine/analysis';
import { type AnalysisOptions, loadAnalysisOptions } from '../../server/src/engine/config';
import { environmentOfFile, UnknownEnvironmentError } from '../../server/src/engine/workspace';

const repo = path.resolve(__dirname, '..', '..');
const fixture = (name: string) => path.join(repo, 'test', 'fixtures', name);

async function analysed(root: string, environment?: string): Promise<WorkspaceAnalysis> {
  const options: AnalysisOptions = { ...(await loadAnalysisOptions(root)), environment };
  const analysis = new WorkspaceAnalysis(root, options);
  await analysis.load();
  return analysis;
}

function edges(analysis: WorkspaceAnalysis): string[] {
  return analysis
    .result()
    .edges.map((edge) => `${edge.from} -> ${edge.to} ${edge.match} ${edge.address}`)
    .sort();
}

describe('environments', () => {
  test('a file names its environment by its first part', () => {
    assert.equal(environmentOfFile('/r/app/prod.tfvars'), 'prod');
    assert.equal(environmentOfFile('/r/app/prod.tfvars.json'), 'prod');
    assert.equal(environmentOfFile('/r/app/prod.tfbackend'), 'prod');
    assert.equal(environmentOfFile('/r/app/production.blue.backend'), 'production');
    assert.equal(environmentOfFile('/r/app/stage.backend.hcl'), 'stage');
    assert.equal(environmentOfFile('/r/app/backend.hcl'), undefined);
    assert.equal(environmentOfFile('/r/app/backend.conf'), undefined);
    assert.equal(environmentOfFile('/r/app/x.backend'), undefined);
    assert.equal(environmentOfFile('/r/app/backend/prod.conf'), 'prod');
    assert.equal(environmentOfFile('/r/app/config/stage/backend.hcl'), 'stage');
  });

  test('found from file names; one selected reads its own tfvars and backend files only', async () => {
    const root = fixture('backend-files-by-name');
    const all = await analysed(root);
    assert.deepEqual(all.environmentNames(), ['prod', 'stage']);
    assert.deepEqual(edges(all), [
      'app/api -> network/dns exact s3://acme-prod-tfstate/prod/dns.tfstate',
      'app/api -> network/vpc inferred s3://${var.state_bucket}/${var.env}/vpc.tfstate',
    ]);
    assert.deepEqual(edges(await analysed(root, 'prod')), [
      'app/api -> network/dns exact s3://acme-prod-tfstate/prod/dns.tfstate',
      'app/api -> network/vpc exact s3://acme-prod-tfstate/prod/vpc.tfstate',
    ]);
    const stage = await analysed(root, 'stage');
    assert.deepEqual(edges(stage), [
      'app/api -> network/dns exact s3://acme-prod-tfstate/prod/dns.tfstate',
      'app/api -> network/vpc exact s3://acme-stage-tfstate/stage/vpc.tfstate',
    ]);
    // backend.hcl belongs to no environment: network/dns keeps it in stage too.
    const dns = stage.result().modules.find((module) => module.id === 'network/dns');
    assert.equal(dns?.backend?.address, 's3://acme-prod-tfstate/prod/dns.tfstate');
  });

  test("backend files in a root's backend/ and config/<env>/ folders, also when edited", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-environments-'));
    try {
      cpSync(fixture('backend-files-in-folders'), root, { recursive: true });
      const all = await analysed(root);
      assert.deepEqual(all.environmentNames(), ['prod', 'stage']);
      const stage = await analysed(root, 'stage');
      assert.deepEqual(edges(stage), ['app/api -> network/vpc exact s3://acme-stage-tfstate/stage/vpc.tfstate']);
      const dns = stage.result().modules.find((module) => module.id === 'network/dns');
      assert.equal(dns?.backend?.address, 's3://acme-stage-tfstate/stage/dns.tfstate');
      // An edit of backend/stage.conf reaches the root that reads it.
      const conf = path.join(root, 'network/vpc/backend/stage.conf');
      await stage.updateFile(conf, 'bucket = "acme-stage-tfstate"\nkey    = "stage/network.tfstate"\n');
      assert.deepEqual(edges(stage), []);
      assert.equal(
        stage.result().unresolved[0]?.reason,
        'no module in this workspace writes s3://acme-stage-tfstate/stage/vpc.tfstate',
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('named in .terrace.yaml with variables and a workspace: holes get their values', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-environments-'));
    try {
      cpSync(fixture('known-text-matching'), root, { recursive: true });
      writeFileSync(
        path.join(root, '.terrace.yaml'),
        'environments:\n  blue:\n    variables: { remote_state_bucket: acme-tfstate, stack: blue, env: stage, stackname: blue }\n    workspace: prod-1\n',
      );
      const blue = await analysed(root, 'blue');
      assert.deepEqual(blue.environmentNames(), ['blue']);
      assert.deepEqual(edges(blue), [
        'app/api -> app/queue-stage exact s3://acme-tfstate/stage/queue/terraform.tfstate',
        // coalesce(var.monitoring_key_stack, var.stackname) has its value once stackname is set.
        'app/api -> monitoring/blue exact s3://acme-tfstate/blue/monitoring.tfstate',
        'app/api -> network/vpc inferred s3://acme-tfstate/network/vpc/terraform.tfstate',
        'app/api -> search/blue exact s3://acme-tfstate/blue/search.tfstate',
        // `anything`, key terraform.tfstate: with the bucket known, exactly shared/dns's default workspace.
        'app/api -> shared/dns exact s3://acme-tfstate/terraform.tfstate',
        // `dns` and `dns_here` name workspace prod-1 of shared/dns in their keys.
        'app/api -> shared/dns inferred s3://acme-tfstate/shared/dns/prod-1/terraform.tfstate',
        'app/api -> shared/dns inferred s3://acme-tfstate/shared/dns/prod-1/terraform.tfstate',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('none selected: a read that resolves in no environment-free way gets the writers of every environment', async () => {
    const root = fixture('environments-union');
    const all = await analysed(root);
    assert.deepEqual(edges(all), [
      'app/web -> network/eu ambiguous s3://acme-state/network-eu/terraform.tfstate',
      'app/web -> network/us ambiguous s3://acme-state/network-us/terraform.tfstate',
      'app/web -> search/blue ambiguous s3://acme-state/${var.search_stack}/search.tfstate',
      'app/web -> search/green ambiguous s3://acme-state/${var.search_stack}/search.tfstate',
      'app/web -> tooling inferred s3://acme-state/tooling/terraform.tfstate',
    ]);
    const tooling = all.result().edges.find((edge) => edge.to === 'tooling')!;
    assert.deepEqual(tooling.assumed, [{ hole: 'environment', side: 'reader', value: 'blue or green' }]);
    assert.match(tooling.unknowns[0]!, /^key: var\.shared_stack has no default/);
    assert.deepEqual(
      all.result().ambiguous.map((item) => item.reason),
      [
        '2 modules write s3://acme-state/${var.search_stack}/search.tfstate: search/blue, search/green',
        'the environments read the states of 2 modules: network/eu (blue), network/us (green)',
      ],
    );
    assert.deepEqual(
      all.result().unresolved.map((item) => item.reference.name),
      ['unset'],
    );

    const blue = await analysed(root, 'blue');
    assert.deepEqual(edges(blue), [
      'app/web -> network/eu exact s3://acme-state/network-eu/terraform.tfstate',
      'app/web -> search/blue exact s3://acme-state/blue/search.tfstate',
      'app/web -> tooling exact s3://acme-state/tooling/terraform.tfstate',
    ]);

    // An edit re-reads the environments' answers: the network read is gone, the tooling one stays.
    const file = path.join(root, 'app/web/main.tf');
    const text = readFileSync(file, 'utf8');
    await all.updateFile(file, text.replace(/data "terraform_remote_state" "network" \{[\s\S]*?\n\}\n/, ''));
    assert.deepEqual(edges(all), [
      'app/web -> search/blue ambiguous s3://acme-state/${var.search_stack}/search.tfstate',
      'app/web -> search/green ambiguous s3://acme-state/${var.search_stack}/search.tfstate',
      'app/web -> tooling inferred s3://acme-state/tooling/terraform.tfstate',
    ]);
  });

  test('a root the environment gives nothing of its own keeps its reads unresolved, as in none', async () => {
    // `blue` is named by one root's tfvars only (as a stray `route53.tfvars` names one in a real monorepo):
    // evaluated in it, the other roots are evaluated as in no environment, so their reads stay as they are.
    const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-env-nothing-'));
    try {
      const write = (file: string, text: string) => {
        mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        writeFileSync(path.join(root, file), text);
      };
      const backend = (key: string) =>
        `terraform {\n  backend "s3" {\n    bucket = "acme"\n    key    = "${key}"\n  }\n}\n`;
      const reader = (name: string, key: string) =>
        `data "terraform_remote_state" "${name}" {\n  backend = "s3"\n  config = { bucket = "acme", key = ${key} }\n}\n`;
      write('shared/network/main.tf', backend('network/terraform.tfstate'));
      write('app/api/main.tf', `${backend('api')}variable "network_key" {}\n${reader('network', 'var.network_key')}`);
      write('app/api/blue.tfvars', 'network_key = "network/terraform.tfstate"\n');
      write('app/jobs/main.tf', `${backend('jobs')}variable "network_key" {}\n${reader('network', 'var.network_key')}`);
      write('app/web/main.tf', backend('web') + reader('core', '"accounts/core/terraform.tfstate"'));
      const all = await analysed(root);
      assert.deepEqual(all.environmentNames(), ['blue']);
      assert.deepEqual(edges(all), ['app/api -> shared/network inferred s3://acme/network/terraform.tfstate']);
      assert.deepEqual(
        all
          .result()
          .unresolved.map((item) => `${item.from} ${item.reference.name}`)
          .sort(),
        ['app/jobs network', 'app/web core'],
      );
      assert.deepEqual(edges(await analysed(root, 'blue')), [
        'app/api -> shared/network exact s3://acme/network/terraform.tfstate',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('an environment nobody names is an error before any work, in the engine and the CLI', async () => {
    await assert.rejects(analysed(fixture('backend-files-by-name'), 'qa'), (error: unknown) => {
      assert.ok(error instanceof UnknownEnvironmentError);
      assert.equal(error.message, "no environment 'qa': the environments are prod, stage");
      return true;
    });
    const cli = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(repo, 'server/src/cli/cli.ts'),
        'levels',
        fixture('backend-files-by-name'),
        '--env',
        'qa',
      ],
      { encoding: 'utf8' },
    );
    assert.equal(cli.status, 2);
    assert.equal(cli.stderr, "terrace: no environment 'qa': the environments are prod, stage\n");
  });
});
