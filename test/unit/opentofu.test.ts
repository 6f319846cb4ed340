import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { analyzeDirectory, WorkspaceAnalysis } from '../../server/src/engine/analysis';
import {
  defaultOptions,
  defaultPipelineOptions,
  executionFor,
  loadAnalysisOptions,
  parseAnalysisOptions,
} from '../../server/src/engine/config';
import { graphJson, workspaceDiagnostics } from '../../server/src/engine/features';
import { jobCommands } from '../../server/src/engine/pipeline';
import { engineFiles, fileRole, isOverrideFile, scanWorkspace } from '../../server/src/engine/workspace';

/** OpenTofu's workspaces: which engine reads a workspace, and the files OpenTofu reads that Terraform does not. */
const fixture = path.resolve(__dirname, '../fixtures/opentofu-files');
const temporary: string[] = [];
after(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the fixture without its OpenTofu files: a Terraform workspace. */
function terraformCopy(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-tofu-'));
  temporary.push(root);
  cpSync(fixture, root, { recursive: true });
  for (const file of ['network/main.tofu', 'app/reads.tofu', 'db/main.tofu.json', 'expected.json'])
    unlinkSync(path.join(root, file));
  return root;
}

const edges = (analysis: WorkspaceAnalysis) =>
  graphJson(analysis.result()).edges.map((edge) => [edge.from, edge.to, edge.file, edge.line, edge.match]);
const unresolved = (analysis: WorkspaceAnalysis) =>
  graphJson(analysis.result()).unresolved.map((item) => [item.from, item.file, item.line]);

describe('OpenTofu files', () => {
  test('a .tofu file replaces the .tf file of the same name, a .tofu.json file the .tf.json one', () => {
    assert.deepEqual(
      engineFiles(['/w/a.tf', '/w/main.tf', '/w/x.tf.json', '/w/z.tf'], ['/w/main.tofu', '/w/x.tofu.json'], 'tofu'),
      ['/w/a.tf', '/w/main.tofu', '/w/x.tofu.json', '/w/z.tf'],
    );
    assert.deepEqual(engineFiles(['/w/main.tf'], ['/w/main.tofu'], 'terraform'), ['/w/main.tf']);
    assert.deepEqual(engineFiles(['/w/main.tf.json'], ['/w/main.tofu'], 'tofu'), ['/w/main.tf.json', '/w/main.tofu']);
  });

  test('the scan lists .tf and .tofu files apart, and the signs of OpenTofu; the engine picks a folder’s files after', async () => {
    const scan = await scanWorkspace(fixture, defaultOptions().discovery);
    const names = (files: readonly string[]) => files.map((file) => path.relative(fixture, file));
    const network = scan.dirs.get('network')!;
    assert.deepEqual(
      [names(network.terraformFiles), names(network.tofuFiles), names(network.tfFiles)],
      [['network/main.tf'], ['network/main.tofu'], ['network/main.tf']],
    );
    assert.deepEqual(names(scan.dirs.get('db')!.tfFiles), [], 'a folder of .tofu.json files only is listed');
    assert.deepEqual(scan.tofuSigns, []);
    assert.deepEqual(
      ['main.tofu', 'x.tofu.json', '.hidden.tofu', 'main.tofu~', '.opentofu-version', '.tofu-version'].map((name) =>
        fileRole(name, []),
      ),
      ['tofuFiles', 'tofuFiles', undefined, undefined, 'tofuSign', 'tofuSign'],
    );
  });

  test('override files in their .tofu forms', () => {
    assert.deepEqual(
      ['override.tofu', 'backend_override.tofu', 'x_override.tofu.json', 'main.tofu', 'overrides.tofu'].map(
        isOverrideFile,
      ),
      [true, true, true, false, false],
    );
  });

  test('engine: terraform in .terrace.yaml reads the fixture as Terraform would: no db, both reads unwritten', async () => {
    const options = { ...defaultOptions(), engine: 'terraform' as const };
    const analysis = new WorkspaceAnalysis(fixture, options);
    await analysis.load();
    assert.equal(analysis.engine(), 'terraform');
    assert.deepEqual(
      analysis.result().modules.map((module) => module.id),
      ['app', 'network'],
    );
    assert.deepEqual(edges(analysis), []);
    assert.deepEqual(unresolved(analysis), [
      ['app', 'app/main.tf', 9],
      ['app', 'app/reads.tf', 2],
    ]);
    assert.deepEqual(
      parseAnalysisOptions('engine: tofu\n', '.terrace.yaml').engine,
      'tofu',
      'the key as .terrace.yaml gives it',
    );
    assert.throws(() => parseAnalysisOptions('engine: opentofu\n', '.terrace.yaml'), /engine must be/);
  });

  test('the engine from the files: .tofu files, a version pin, a lock file from the OpenTofu registry', async () => {
    const engineOf = async (root: string) => {
      const analysis = new WorkspaceAnalysis(root, defaultOptions());
      await analysis.load();
      return analysis.engine();
    };
    assert.equal(await engineOf(fixture), 'tofu');
    const root = terraformCopy();
    assert.equal(await engineOf(root), 'terraform');
    writeFileSync(
      path.join(root, 'app/.terraform.lock.hcl'),
      'provider "registry.terraform.io/hashicorp/aws" {\n  version = "5.0.0"\n}\n',
    );
    assert.equal(await engineOf(root), 'terraform', "a lock file from Terraform's registry");
    writeFileSync(
      path.join(root, 'network/.terraform.lock.hcl'),
      'provider "registry.opentofu.org/hashicorp/aws" {\n  version = "5.0.0"\n}\n',
    );
    assert.equal(await engineOf(root), 'tofu', "a lock file from OpenTofu's registry");
    unlinkSync(path.join(root, 'network/.terraform.lock.hcl'));
    writeFileSync(path.join(root, '.opentofu-version'), '1.8.0\n');
    assert.equal(await engineOf(root), 'tofu', 'a version pin at the top');
  });

  test('the fixture as OpenTofu reads it, through the command line’s path', async () => {
    const graph = graphJson(await analyzeDirectory(fixture));
    assert.deepEqual(
      graph.edges.map((edge) => [edge.from, edge.to, edge.file, edge.line, edge.match]),
      [
        ['app', 'network', 'app/main.tf', 9, 'exact'],
        ['app', 'db', 'app/reads.tofu', 1, 'exact'],
      ],
    );
  });

  test('a .tofu file created in a Terraform workspace makes it OpenTofu’s and re-reads every folder; deleted, it is Terraform’s again', async () => {
    const root = terraformCopy();
    const analysis = new WorkspaceAnalysis(root, defaultOptions());
    await analysis.load();
    assert.equal(analysis.engine(), 'terraform');
    assert.deepEqual(edges(analysis), []);

    const network = path.join(root, 'network/main.tofu');
    writeFileSync(
      network,
      'terraform {\n  backend "s3" {\n    bucket = "acme-state"\n    key    = "network/terraform.tfstate"\n    region = "eu-west-1"\n  }\n}\n',
    );
    await analysis.updateFile(network);
    assert.equal(analysis.engine(), 'tofu');
    assert.deepEqual(edges(analysis), [['app', 'network', 'app/main.tf', 9, 'exact']]);
    assert.deepEqual(unresolved(analysis), [['app', 'app/reads.tf', 2]]);

    // An editor's buffer not yet saved: the read moves from reads.tf to reads.tofu, and db appears.
    const db = path.join(root, 'db/main.tofu.json');
    mkdirSync(path.dirname(db), { recursive: true });
    writeFileSync(db, '{"terraform": {"backend": {"s3": {"bucket": "acme-state", "key": "db/terraform.tfstate"}}}}');
    await analysis.updateFile(db);
    const reads = path.join(root, 'app/reads.tofu');
    await analysis.updateFile(
      reads,
      'data "terraform_remote_state" "db" {\n  backend = "s3"\n  config = {\n    bucket = "acme-state"\n    key    = "db/terraform.tfstate"\n  }\n}\n',
    );
    assert.deepEqual(edges(analysis), [
      ['app', 'network', 'app/main.tf', 9, 'exact'],
      ['app', 'db', 'app/reads.tofu', 1, 'exact'],
    ]);
    assert.deepEqual(unresolved(analysis), []);

    analysis.removePath(reads);
    assert.deepEqual(unresolved(analysis), [['app', 'app/reads.tf', 2]], 'reads.tf is read again');
    for (const file of [network, db]) {
      unlinkSync(file);
      analysis.removePath(file);
    }
    assert.equal(analysis.engine(), 'terraform');
    assert.deepEqual(
      analysis.result().modules.map((module) => module.id),
      ['app', 'network'],
    );
    assert.deepEqual(edges(analysis), []);
  });
});

describe('OpenTofu early evaluation', () => {
  const early = path.resolve(__dirname, '../fixtures/opentofu-early-evaluation');
  const inTerraform = path.resolve(__dirname, '../fixtures/terraform-variable-in-backend');
  const analysed = async (root: string, environment?: string, engine?: 'terraform' | 'tofu') => {
    const options = await loadAnalysisOptions(root);
    const analysis = new WorkspaceAnalysis(root, { ...options, environment, engine: engine ?? options.engine });
    await analysis.load();
    return analysis;
  };
  const addresses = (analysis: WorkspaceAnalysis) =>
    analysis.result().modules.map((module) => [module.id, module.backend?.address]);
  const addressedEdges = (analysis: WorkspaceAnalysis) =>
    graphJson(analysis.result()).edges.map((edge) => [edge.from, edge.to, edge.address, edge.match]);

  test('each environment: the backends from its tfvars, the edges exact', async () => {
    const prod = await analysed(early, 'prod');
    assert.equal(prod.engine(), 'tofu');
    assert.deepEqual(addresses(prod), [
      ['app', 's3://acme-prod-state/prod/app.tfstate'],
      ['dns', 's3://acme-shared-state/dns/terraform.tfstate'],
      ['network', 's3://acme-prod-state/prod/network.tfstate'],
    ]);
    assert.deepEqual(addressedEdges(prod), [
      ['app', 'network', 's3://acme-prod-state/prod/network.tfstate', 'exact'],
      ['app', 'dns', 's3://acme-shared-state/dns/terraform.tfstate', 'exact'],
    ]);
    const stage = await analysed(early, 'stage');
    assert.deepEqual(addressedEdges(stage), [
      ['app', 'network', 's3://acme-stage-state/stage/network.tfstate', 'exact'],
      ['app', 'dns', 's3://acme-shared-state/dns/terraform.tfstate', 'exact'],
    ]);
    assert.deepEqual(graphJson(prod.result()).unresolved, []);
    assert.deepEqual(prod.result().problems, []);
  });

  test('no environment: a variable without a value is a hole in the address, the edge inferred', async () => {
    const none = await analysed(early);
    assert.deepEqual(addresses(none), [
      ['app', undefined],
      ['dns', 's3://acme-shared-state/dns/terraform.tfstate'],
      ['network', undefined],
    ]);
    assert.deepEqual(addressedEdges(none), [
      ['app', 'network', 's3://${var.state_bucket}/${var.env}/network.tfstate', 'inferred'],
      ['app', 'dns', 's3://acme-shared-state/dns/terraform.tfstate', 'exact'],
    ]);
  });

  test('read as Terraform: no source from a local, no variable in a backend (an error on its line)', async () => {
    const terraform = await analysed(early, 'prod', 'terraform');
    // The backends keep their variables as holes; module.lookup is not followed (no dns edge).
    assert.deepEqual(addressedEdges(terraform), [
      ['app', 'network', 's3://acme-prod-state/prod/network.tfstate', 'inferred'],
    ]);
    const errors = terraform
      .result()
      .problems.map((problem) => [path.relative(early, problem.file), problem.range?.start.line, problem.error]);
    assert.deepEqual(errors, [
      ['app/main.tf', 14, 'variables-not-allowed'],
      ['dns/main.tf', 7, 'variables-not-allowed'],
      ['network/main.tf', 14, 'variables-not-allowed'],
    ]);
  });

  test('a Terraform workspace with a variable in its backend: Terraform’s error on the line; with engine: tofu, the exact edge', async () => {
    const terraform = await analysed(inTerraform);
    assert.equal(terraform.engine(), 'terraform');
    assert.deepEqual(
      terraform
        .result()
        .problems.map((problem) => [
          path.relative(inTerraform, problem.file),
          problem.range?.start.line,
          problem.range?.start.character,
          problem.error,
          problem.message.split('.')[0],
        ]),
      [['network/main.tf', 8, 24, 'variables-not-allowed', 'Variables not allowed: Variables may not be used here']],
    );
    assert.deepEqual(addressedEdges(terraform), [
      ['app', 'network', 's3://acme-state/network/acme-state.tfstate', 'inferred'],
    ]);
    const tofu = await analysed(inTerraform, undefined, 'tofu');
    assert.deepEqual(tofu.result().problems, []);
    assert.deepEqual(addressedEdges(tofu), [['app', 'network', 's3://acme-state/network/acme-state.tfstate', 'exact']]);
  });
});

describe('an OpenTofu local backend whose path has a variable without a value', () => {
  test('its state is a hole in the path, as in other backends: the read of it inferred, and said so', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-tofu-local-'));
    temporary.push(root);
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    };
    write('.terrace.yaml', 'engine: tofu\n');
    write(
      'vpc/main.tf',
      'variable "state_path" {}\nterraform {\n  backend "local" {\n    path = var.state_path\n  }\n}\n',
    );
    write(
      'network/main.tf',
      `variable "name" {}\nterraform {\n  backend "local" {\n    path = "states/\${var.name}.tfstate"\n  }\n}\n`,
    );
    const read = (name: string, file: string) =>
      `data "terraform_remote_state" "${name}" {\n  backend = "local"\n  config  = { path = "${file}" }\n}\n`;
    write(
      'app/main.tf',
      `terraform {\n  backend "local" {}\n}\n${read('vpc', '../vpc/vpc.tfstate')}${read('net', '../network/states/net.tfstate')}`,
    );
    const result = await analyzeDirectory(root);
    assert.deepEqual(
      graphJson(result).edges.map((edge) => [edge.from, edge.to, edge.address, edge.match, edge.assumed]),
      [
        ['app', 'vpc', 'local://vpc/vpc.tfstate', 'inferred', { 'var.state_path': 'vpc.tfstate' }],
        ['app', 'network', 'local://network/states/net.tfstate', 'inferred', { 'var.name': 'net' }],
      ],
    );
    const said = (workspaceDiagnostics(result).get(path.join(root, 'app/main.tf')) ?? []).map((d) => d.message);
    assert.deepEqual(said, [
      'Inferred: only the state of vpc fits local://vpc/vpc.tfstate, assuming var.state_path = "vpc.tfstate".',
      'Inferred: only the state of network fits local://network/states/net.tfstate, assuming var.name = "net".',
    ]);
  });
});

describe('OpenTofu runs', () => {
  const execution = defaultPipelineOptions().execution;
  test('tofu for an OpenTofu workspace unless binary is configured; the environment’s tfvars files', () => {
    const tofu = executionFor(execution, 'tofu', 'prod', {});
    assert.deepEqual([tofu.binary, tofu.varFiles], ['tofu', ['prod.tfvars', 'prod.tfvars.json']]);
    const chosen = executionFor({ ...execution, binary: 'terraform', binaryChosen: true }, 'tofu', undefined, {});
    assert.deepEqual([chosen.binary, chosen.varFiles], ['terraform', []]);
    const configured = executionFor(execution, 'terraform', 'prod', {
      prod: { variables: {}, varFiles: ['env/prod-*.tfvars'], backendConfigFiles: undefined, workspace: undefined },
    });
    assert.deepEqual([configured.binary, configured.varFiles], ['terraform', ['env/prod-*.tfvars']]);
  });

  test('a job gives the tfvars files to plan, and to init with tofu only', () => {
    const loop = `$(for f in env/prod-*.tfvars 'my file.tfvars'; do [ -f "$f" ] && printf ' -var-file=%s' "$f"; done)`;
    const varFiles = ['env/prod-*.tfvars', 'my file.tfvars'];
    const tofu = jobCommands('module', { ...execution, binary: 'tofu', varFiles }, 'plan.tfplan');
    assert.equal(tofu.init, `tofu init -input=false ${loop}`);
    assert.equal(tofu.plan, `tofu plan -input=false -out=plan.tfplan ${loop}`);
    const terraform = jobCommands('module', { ...execution, varFiles }, 'plan.tfplan');
    assert.equal(terraform.init, 'terraform init -input=false');
    assert.equal(terraform.plan, `terraform plan -input=false -out=plan.tfplan ${loop}`);
  });
});

describe('OpenTofu pipelines', () => {
  test('terrace generate --ci github --env prod: the OpenTofu setup action, tofu init and plan with the tfvars files', () => {
    const root = path.resolve(__dirname, '../fixtures/opentofu-early-evaluation');
    const cli = path.resolve(__dirname, '../../server/src/cli/cli.ts');
    const out = mkdtempSync(path.join(os.tmpdir(), 'terrace-tofu-github-'));
    const output = path.join(out, '.github/workflows/terrace.yml');
    const generated = spawnSync(
      process.execPath,
      ['--import', 'tsx', cli, 'generate', root, '--ci', 'github', '--env', 'prod', '--output', output],
      { encoding: 'utf8' },
    );
    assert.equal(generated.status, 0, generated.stderr);
    // Each module's job calls the reusable workflow written beside it, whose plan job runs tofu.
    const called = readFileSync(path.join(out, '.github/workflows/terrace-module.yml'), 'utf8');
    rmSync(out, { recursive: true, force: true });
    const workflow = parseYaml(called) as {
      jobs: Record<string, { steps: { uses?: string; run?: string }[] }>;
    };
    const steps = workflow.jobs['plan']!.steps;
    const loop = `$(for f in prod.tfvars prod.tfvars.json; do [ -f "$f" ] && printf ' -var-file=%s' "$f"; done)`;
    assert.deepEqual(
      steps
        .filter((step) => step.uses?.startsWith('opentofu/') || step.run?.startsWith('tofu'))
        .map((step) => step.uses ?? step.run),
      [
        'opentofu/setup-opentofu@v1',
        `tofu init -input=false ${loop}`,
        `tofu plan -input=false -out="$TERRACE_PLAN" ${loop}`,
      ],
    );
  });
});
