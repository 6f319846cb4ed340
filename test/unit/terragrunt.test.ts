import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { WorkspaceAnalysis } from '../../server/src/engine/analysis';
import { defaultOptions, defaultPipelineOptions } from '../../server/src/engine/config';
import {
  moduleHover,
  moduleWithBackendAt,
  referenceHover,
  referenceOutcomesAt,
  workspaceDiagnostics,
} from '../../server/src/engine/features';
import { parseHcl } from '../../server/src/engine/hcl';
import { generatePipeline, jobSlugs } from '../../server/src/engine/pipeline';
import { evaluateUnit, type TerragruntFile, terragruntFileFacts } from '../../server/src/engine/terragrunt';
import { gitlabPreview } from './gitlabPreview';

const fixture = path.join(__dirname, '..', 'fixtures', 'terragrunt-units');

/** An in-memory set of Terragrunt files under `/repo`, as the analysis hands them to a unit's evaluation. */
function source(files: Record<string, string>) {
  const facts = new Map<string, TerragruntFile>(
    Object.entries(files).map(([name, text]) => [path.join('/repo', name), terragruntFileFacts(parseHcl(text))]),
  );
  return { workspaceRoot: '/repo', gitRoots: [], configOf: (file: string) => facts.get(file) };
}

describe('Terragrunt configuration evaluated like Terragrunt', () => {
  test('an include found in the parent folders gives the unit its remote_state, keyed by the path from the include', () => {
    const unit = evaluateUnit(
      '/repo/live/prod/vpc/terragrunt.hcl',
      source({
        'live/root.hcl': `
          locals { env = read_terragrunt_config(find_in_parent_folders("env.hcl")) }
          remote_state {
            backend = "s3"
            config = {
              bucket = "state-\${local.env.locals.name}"
              key    = "\${path_relative_to_include()}/terraform.tfstate"
              table  = get_env("LOCK_TABLE", "locks")
              dir    = get_parent_terragrunt_dir()
            }
          }`,
        'live/prod/env.hcl': 'locals { name = "prod" }',
        'live/prod/vpc/terragrunt.hcl': 'include "root" { path = find_in_parent_folders("root.hcl") }',
      }),
    );
    assert.equal(unit.backend?.type, 's3');
    assert.deepEqual(unit.backend?.config, {
      bucket: 'state-prod',
      key: 'prod/vpc/terraform.tfstate',
      table: 'locks',
      dir: '/repo/live',
    });
    assert.equal(unit.backend?.file, '/repo/live/root.hcl');
    assert.deepEqual(unit.read.sort(), ['/repo/live/prod/env.hcl', '/repo/live/root.hcl']);
    assert.deepEqual(unit.problems, []);
  });

  test('find_in_parent_folders() looks for terragrunt.hcl from the parent folder; a fallback answers when none is found', () => {
    const files = {
      'terragrunt.hcl': 'inputs = { region = "eu-west-1" }',
      'app/terragrunt.hcl': `
        include { path = find_in_parent_folders() }
        locals { other = find_in_parent_folders("nothing.hcl", "none") }
        inputs = { other = local.other, unit = path_relative_to_include(), up = get_path_to_repo_root() }`,
    };
    const unit = evaluateUnit('/repo/app/terragrunt.hcl', source(files));
    assert.deepEqual(Object.fromEntries(unit.inputs), { region: 'eu-west-1', other: 'none', unit: 'app', up: '..' });
  });

  test('units evaluated together share what read_terragrunt_config gives of a file that asks nothing of the unit', () => {
    const files = {
      'live/account.hcl': 'locals { id = "111" }',
      'live/where.hcl': 'locals {\n  unit = get_original_terragrunt_dir()\n  repo = get_repo_root()\n}',
      'live/outer.hcl': 'locals { inner = read_terragrunt_config("where.hcl") }',
      'live/c.hcl': 'locals { d = read_terragrunt_config("d.hcl") }',
      'live/d.hcl': 'locals { c = read_terragrunt_config("c.hcl") }',
      ...Object.fromEntries(
        ['a', 'b'].map((name) => [
          `live/${name}/terragrunt.hcl`,
          `locals {
  account = read_terragrunt_config(find_in_parent_folders("account.hcl"))
  where   = read_terragrunt_config(find_in_parent_folders("where.hcl"))
  outer   = read_terragrunt_config(find_in_parent_folders("outer.hcl"))
  cycle   = read_terragrunt_config(find_in_parent_folders("c.hcl"))
}
inputs = {
  account = local.account.locals.id
  unit    = local.where.locals.unit
  nested  = local.outer.locals.inner.locals.unit
}`,
        ]),
      ),
    };
    const together = { ...source(files), parentSearches: new Map(), configReads: new Map() };
    const units = ['a', 'b'].map((name) => evaluateUnit(`/repo/live/${name}/terragrunt.hcl`, together));
    // Only the file of literals is kept for all: the others ask for the unit's folder, read a file that does, or
    // are on a cycle, whose answer depends on where it was entered.
    assert.deepEqual([...together.configReads.keys()], ['/repo/live/account.hcl']);
    for (const [index, name] of ['a', 'b'].entries()) {
      const unit = units[index]!;
      assert.deepEqual(Object.fromEntries(unit.inputs), {
        account: '111',
        unit: `/repo/live/${name}`,
        nested: `/repo/live/${name}`,
      });
      // What it read, looked in and noted is what the unit evaluated alone gives.
      const alone = evaluateUnit(`/repo/live/${name}/terragrunt.hcl`, source(files));
      assert.deepEqual(
        { read: unit.read, lookedIn: unit.lookedIn, reads: unit.reads },
        { read: alone.read, lookedIn: alone.lookedIn, reads: alone.reads },
      );
      assert.ok(unit.read.includes('/repo/live/account.hcl'));
    }
  });

  test('units sharing an include each evaluate its locals in their own folder, and each is told of its cycle', () => {
    // One parsed root.hcl for both units, as the analysis shares one file's facts: the order of its locals is
    // worked out once, their values and problems are each unit's.
    const files = source({
      'root.hcl': `locals {
  name = basename(get_terragrunt_dir())
  key  = "\${local.name}/terraform.tfstate"
  a    = local.b
  b    = local.a
}
inputs = { key = local.key }`,
      'live/vpc/terragrunt.hcl': 'include "root" { path = find_in_parent_folders("root.hcl") }',
      'live/eks/terragrunt.hcl': 'include "root" { path = find_in_parent_folders("root.hcl") }',
    });
    for (const name of ['vpc', 'eks']) {
      const unit = evaluateUnit(`/repo/live/${name}/terragrunt.hcl`, files);
      assert.equal(unit.inputs.get('key'), `${name}/terraform.tfstate`);
      assert.deepEqual(
        unit.problems.map((problem) => [problem.file, problem.range.start.line, problem.message]),
        [['/repo/root.hcl', 3, 'local.a -> local.b -> local.a is a cycle']],
      );
    }
  });

  test('an include that finds nothing, and get_env without a default, are said on their lines', () => {
    const unit = evaluateUnit(
      '/repo/app/terragrunt.hcl',
      source({
        'app/terragrunt.hcl': `include "root" {
  path = find_in_parent_folders("root.hcl")
}
remote_state {
  backend = "s3"
  config = { bucket = get_env("BUCKET"), key = "app.tfstate" }
}`,
      }),
    );
    assert.equal(unit.problems.length, 1);
    assert.equal(unit.problems[0]!.range.start.line, 0);
    assert.match(unit.problems[0]!.message, /no root\.hcl above this folder/);
    const config = unit.backend?.config as Record<string, unknown>;
    assert.deepEqual(config.bucket, {
      unknown: true,
      reasons: ['get_env("BUCKET") is only known where terragrunt runs'],
    });
  });

  test('dependency blocks and dependencies paths resolve against the unit; the unit overrides an included block of the same name', () => {
    const unit = evaluateUnit(
      '/repo/live/app/terragrunt.hcl',
      source({
        'live/common.hcl': `
          dependency "vpc" { config_path = "../old-vpc" }
          dependency "dns" { config_path = "\${get_terragrunt_dir()}/../dns" }`,
        'live/app/terragrunt.hcl': `
          include "common" { path = find_in_parent_folders("common.hcl") }
          dependency "vpc" { config_path = "../vpc" }
          dependencies { paths = ["../iam", "../kms"] }
          dependency "broken" { mock_outputs = {} }`,
      }),
    );
    assert.deepEqual(
      unit.dependencies.map((dependency) => [dependency.kind, dependency.name, dependency.dir, dependency.file]),
      [
        ['dependency', 'vpc', '/repo/live/vpc', '/repo/live/app/terragrunt.hcl'],
        ['dependency', 'dns', '/repo/live/dns', '/repo/live/common.hcl'],
        [
          'dependency',
          'broken',
          { unknown: true, error: true, reasons: ['dependency "broken" has no config_path'] },
          '/repo/live/app/terragrunt.hcl',
        ],
        ['dependencies', '../iam', '/repo/live/iam', '/repo/live/app/terragrunt.hcl'],
        ['dependencies', '../kms', '/repo/live/kms', '/repo/live/app/terragrunt.hcl'],
      ],
    );
  });

  test('the Terraform code: a local source (with `//` and `?ref`), the own folder without one, none for a remote source', () => {
    const codeOf = (text: string) =>
      evaluateUnit('/repo/a/terragrunt.hcl', source({ 'a/terragrunt.hcl': text })).codeDir;
    assert.equal(codeOf('terraform { source = "../modules//vpc?ref=v1" }'), '/repo/modules/vpc');
    assert.equal(codeOf('terraform { source = "${get_repo_root()}/modules/eks" }'), '/repo/modules/eks');
    assert.equal(codeOf('inputs = {}'), '/repo/a');
    const inRepository = {
      ...source({ 'infra/a/terragrunt.hcl': 'terraform { source = "${get_repo_root()}/modules/eks" }' }),
      gitRoots: ['/', '/repo/infra'],
    };
    assert.equal(
      evaluateUnit('/repo/infra/a/terragrunt.hcl', inRepository).codeDir,
      '/repo/infra/modules/eks',
      'the innermost Git working tree',
    );
    assert.equal(codeOf('terraform { source = "git::https://example.com/modules.git//vpc?ref=v1" }'), undefined);
    assert.equal(codeOf('terraform { source = "tfr:///terraform-aws-modules/vpc/aws?version=5.0.0" }'), undefined);
  });

  test('a generate block writes its known contents into the code folder', () => {
    const unit = evaluateUnit(
      '/repo/ops/a/terragrunt.hcl',
      source({
        'ops/a/terragrunt.hcl': `generate "backend" {
  path     = "backend.tf"
  contents = "terraform { backend \\"local\\" { path = \\"\${basename(get_terragrunt_dir())}.tfstate\\" } }"
}`,
      }),
    );
    // Ranges compared as JSON writes them (the parser's are one object each, `TextRange`).
    assert.deepEqual(JSON.parse(JSON.stringify(unit.generated)), [
      {
        file: '/repo/ops/a/backend.tf',
        text: 'terraform { backend "local" { path = "a.tfstate" } }',
        from: {
          file: '/repo/ops/a/terragrunt.hcl',
          block: 'backend',
          range: { start: { line: 0, character: 0 }, end: { line: 3, character: 1 } },
        },
      },
    ]);
  });
});

describe('Terragrunt units in the workspace graph', () => {
  let root: string;
  let analysis: WorkspaceAnalysis;
  const file = (relative: string) => path.join(root, relative);

  before(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'terrace-terragrunt-'));
    cpSync(fixture, root, { recursive: true });
    analysis = new WorkspaceAnalysis(root, defaultOptions());
    await analysis.load();
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test('units are nodes of kind unit beside the plain root; included files and the units’ code are not', () => {
    const kinds = Object.fromEntries(analysis.result().modules.map((module) => [module.id, module.kind]));
    assert.deepEqual(kinds, {
      'live/ops/alpha': 'unit',
      'live/ops/beta': 'unit',
      'live/prod/apps/api': 'unit',
      'live/prod/apps/worker': 'unit',
      'live/prod/network/vpc': 'unit',
      'live/prod/platform/eks': 'unit',
      'shared/dns': 'module',
    });
  });

  test('a dependency on a folder without a unit is an error on its block; the cycle is an error on each dependency block', () => {
    const diagnostics = workspaceDiagnostics(analysis.result());
    const worker = diagnostics.get(file('live/prod/apps/worker/terragrunt.hcl')) ?? [];
    assert.deepEqual(
      worker.map(({ severity, code, message, range }) => ({ severity, code, message, line: range.start.line })),
      [
        {
          severity: 'error',
          code: 'missing-unit',
          message: '../queue is not a Terragrunt unit of this workspace (no terragrunt.hcl there)',
          line: 13,
        },
      ],
    );
    for (const [unit, other] of [
      ['alpha', 'beta'],
      ['beta', 'alpha'],
    ]) {
      const [cycle] = diagnostics.get(file(`live/ops/${unit}/terragrunt.hcl`)) ?? [];
      assert.equal(cycle?.code, 'cycle');
      assert.equal(cycle?.message, 'Circular dependency: live/ops/alpha -> live/ops/beta -> live/ops/alpha');
      assert.equal(cycle?.range.start.line, 5);
      assert.deepEqual(
        cycle?.related.map((row) => row.message),
        [`live/ops/${other}: dependency.${unit} depends on live/ops/${unit}`],
      );
    }
  });

  test('the hover on a dependency block names the unit, its level and the state it writes', () => {
    const result = analysis.result();
    const eks = file('live/prod/platform/eks/terragrunt.hcl');
    const hover = referenceHover(result, referenceOutcomesAt(result, eks, { line: 9, character: 4 }));
    assert.match(hover, /^\*\*dependency\.vpc\*\*\n/);
    assert.match(
      hover,
      /`\.\.\/\.\.\/network\/vpc` → \[live\/prod\/network\/vpc\]\(file:.*live\/prod\/network\/vpc\/terragrunt\.hcl#L1\) · level 0 · writes `s3:\/\/acme-tg-state\/live\/prod\/network\/vpc\/terraform\.tfstate`/,
    );
    const unit = moduleWithBackendAt(result, eks, { line: 0, character: 0 });
    assert.equal(unit?.id, 'live/prod/platform/eks');
    assert.match(moduleHover(result, unit!), /^\*\*Terragrunt unit `live\/prod\/platform\/eks`\*\* · level 1/);
  });

  test('an unsaved edit of an included file re-keys every unit that includes it; a new dependency block is an edge', async () => {
    const rootHcl = file('root.hcl');
    const text = readFileSync(rootHcl, 'utf8');
    await analysis.updateFile(
      rootHcl,
      text.replace('${path_relative_to_include()}/terraform.tfstate', 'tg/${path_relative_to_include()}.tfstate'),
    );
    const address = (id: string) => analysis.result().modules.find((module) => module.id === id)?.backend?.address;
    assert.equal(address('live/prod/network/vpc'), 's3://acme-tg-state/tg/live/prod/network/vpc.tfstate');
    // shared/dns reads the old key: that edge is gone, the dependency edges stay.
    assert.deepEqual([...analysis.result().graph.dependencies('shared/dns')], []);
    await analysis.updateFile(rootHcl);
    assert.deepEqual([...analysis.result().graph.dependencies('shared/dns')], ['live/prod/network/vpc']);

    const worker = file('live/prod/apps/worker/terragrunt.hcl');
    mkdirSync(file('live/prod/apps/queue'));
    writeFileSync(
      file('live/prod/apps/queue/terragrunt.hcl'),
      'terraform {\n  source = "../../../../modules/vpc"\n}\n',
    );
    await analysis.updateFile(file('live/prod/apps/queue/terragrunt.hcl'));
    assert.deepEqual([...analysis.result().graph.dependencies('live/prod/apps/worker')].sort(), [
      'live/prod/apps/queue',
      'live/prod/platform/eks',
    ]);
    assert.equal(workspaceDiagnostics(analysis.result()).get(worker), undefined);
  });
});

describe('Terragrunt files arriving one by one, as a file watcher reports them', () => {
  test('a root.hcl that arrives after its units gives them their backend and their edges', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-terragrunt-'));
    try {
      cpSync(fixture, root, { recursive: true });
      const rootHcl = path.join(root, 'root.hcl');
      const text = readFileSync(rootHcl, 'utf8');
      rmSync(rootHcl);
      const analysis = new WorkspaceAnalysis(root, defaultOptions());
      await analysis.load();
      const vpc = () => analysis.result().modules.find((module) => module.id === 'live/prod/network/vpc');
      assert.equal(vpc()?.backend, undefined);

      writeFileSync(rootHcl, text);
      await analysis.updateFile(rootHcl);
      assert.equal(vpc()?.backend?.address, 's3://acme-tg-state/live/prod/network/vpc/terraform.tfstate');
      const expected = JSON.parse(readFileSync(path.join(fixture, 'expected.json'), 'utf8')) as { edges: unknown[] };
      assert.equal(analysis.result().edges.length, expected.edges.length);
      assert.deepEqual([...analysis.result().graph.dependencies('shared/dns')], ['live/prod/network/vpc']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('Terragrunt stacks: the units a terragrunt.stack.hcl generates', () => {
  const root = path.join(__dirname, '..', 'fixtures', 'terragrunt-stack');
  const VPC = 'live/prod/.terragrunt-stack/vpc';
  const APP = 'live/prod/.terragrunt-stack/service/.terragrunt-stack/app';

  test('units where terragrunt stack generate puts them, read with their values; templates and code are not units', async () => {
    const analysis = new WorkspaceAnalysis(root, defaultOptions());
    await analysis.load();
    const result = analysis.result();
    assert.deepEqual(
      result.modules.map((module) => [
        module.id,
        module.kind,
        module.backend?.address,
        module.stackDir && path.relative(root, module.stackDir),
      ]),
      [
        [APP, 'unit', `s3://acme-stack-state/${APP}/terraform.tfstate`, 'live/prod'],
        [VPC, 'unit', `s3://acme-stack-state/${VPC}/terraform.tfstate`, 'live/prod'],
        ['shared/monitor', 'module', 's3://acme-stack-state/shared/monitor/terraform.tfstate', undefined],
      ],
    );
    // A generated unit opens at the stack file that declares it.
    assert.equal(result.modules[1]!.firstFile, path.join(root, 'live/prod/terragrunt.stack.hcl'));
    assert.deepEqual(
      result.problems.map((problem) => [path.relative(root, problem.file), problem.range?.start.line, problem.message]),
      [
        [
          'live/prod/terragrunt.stack.hcl',
          20,
          'unit "cache": its source is not in the workspace (git::https://example.com/catalog.git//units/cache?ref=v1); its units are not read',
        ],
      ],
    );
    // The app's code input comes from the nested stack's values, through the stack block's.
    const pipeline = generatePipeline(result, { ci: 'gitlab', options: defaultPipelineOptions() });
    // As GitLab sees them: the unit's script its own, its needs after the template's merged.
    const jobs = gitlabPreview(pipeline.text) as Record<string, { script?: string[]; needs?: { job: string }[] }>;
    const slugs = jobSlugs(result.modules.map((module) => module.id));
    const slug = (id: string) => slugs.get(id)!;
    assert.deepEqual(jobs[`plan-${slug(VPC)}`]!.script, [
      'cd live/prod',
      'terragrunt stack generate',
      'cd .terragrunt-stack/vpc',
      'terragrunt init -input=false',
      'terragrunt plan -input=false -out="$CI_PROJECT_DIR/$TERRACE_LOCK.tfplan"',
    ]);
    assert.deepEqual(
      jobs[`plan-${slug(APP)}`]!.needs!.map((need) => need.job),
      [`apply-${slug(VPC)}`],
    );
  });
});
