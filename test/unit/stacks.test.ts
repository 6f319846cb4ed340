import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { runTargets } from '../../runner/src/runTargets';
import { WorkspaceAnalysis } from '../../server/src/engine/analysis';
import { defaultOptions, defaultPipelineOptions } from '../../server/src/engine/config';
import { isUnknown } from '../../server/src/engine/evaluation';
import {
  moduleHover,
  moduleWithBackendAt,
  referenceHover,
  referenceOutcomesAt,
  workspaceDiagnostics,
} from '../../server/src/engine/features';
import { parseHcl } from '../../server/src/engine/hcl';
import { generatePipeline } from '../../server/src/engine/pipeline';
import {
  componentGraph,
  deploymentVariables,
  type RepositoryStack,
  type StackSourceFile,
  stackFileFacts,
  stackFileKind,
  stackLinks,
} from '../../server/src/engine/stacks';

const fixture = path.join(__dirname, '..', 'fixtures', 'terraform-stacks');

/** A Stack folder of the fixture, its files read and reduced to their facts. */
function stackFiles(folder: string): StackSourceFile[] {
  const dir = path.join(fixture, folder);
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const kind = stackFileKind(name);
      if (!kind) return [];
      const document = parseHcl(readFileSync(path.join(dir, name), 'utf8'));
      assert.deepEqual(document.errors, [], `${folder}/${name} parses`);
      return [{ path: `${folder}/${name}`, facts: stackFileFacts(document, kind) }];
    });
}

const line = (range: { start: { line: number } }) => range.start.line + 1;

describe('Terraform Stacks: files', () => {
  test('component files in both names, deployment files, nothing else', () => {
    assert.equal(stackFileKind('stack/components.tfcomponent.hcl'), 'components');
    assert.equal(stackFileKind('stack/network.tfstack.hcl'), 'components');
    assert.equal(stackFileKind('stack/deployments.tfdeploy.hcl'), 'deployments');
    assert.equal(stackFileKind('stack/main.tf'), undefined);
    assert.equal(stackFileKind('unit/terragrunt.hcl'), undefined);
  });

  test('a component file: components with their arguments, an embedded stack, providers named by type and alias, locals, variables', () => {
    const [components, providers] = stackFiles('platform').filter((file) => file.facts.kind === 'components');
    assert.deepEqual(
      components!.facts.components.map((c) => [
        c.name,
        Boolean(c.inputs),
        Boolean(c.providers),
        Boolean(c.dependsOn),
        Boolean(c.forEach),
      ]),
      [
        ['network', true, true, false, false],
        ['cluster', true, true, false, false],
        ['dns', true, true, false, true],
        ['apps', true, true, false, false],
        ['monitoring', true, false, true, false],
        ['audit', true, false, false, false],
        ['logging', true, false, false, false],
        ['certificates', true, false, false, true],
        ['peering', true, false, false, false],
      ],
    );
    assert.deepEqual(
      components!.facts.stacks.map((s) => s.name),
      ['observability'],
    );
    assert.deepEqual(
      components!.facts.locals.map((l) => l.name),
      ['zones', 'subnets'],
    );
    assert.deepEqual(
      providers!.facts.providers.map((p) => [p.name, p.config.map((a) => a.name)]),
      [
        ['aws.this', ['region']],
        ['kubernetes.this', ['host', 'cluster_ca_certificate', 'api_version', 'command', 'args']],
      ],
    );
    assert.deepEqual(
      providers!.facts.variables.map((v) => v.name),
      ['region', 'environment'],
    );
  });

  test('a deployment file: deployments, a deployment group, published outputs, upstream inputs', () => {
    const deployments = stackFiles('platform').find((file) => file.facts.kind === 'deployments')!;
    assert.deepEqual(
      deployments.facts.deployments.map((d) => d.name),
      ['prod', 'stage'],
    );
    assert.deepEqual(
      deployments.facts.deploymentGroups.map((g) => g.name),
      ['canary'],
    );
    assert.deepEqual(
      deployments.facts.publishOutputs.map((o) => o.name),
      ['cluster_endpoint'],
    );
    assert.deepEqual(
      deployments.facts.upstreamInputs.map((i) => i.name),
      ['network', 'billing'],
    );
  });
});

describe('Terraform Stacks: the component graph', () => {
  const graph = componentGraph(stackFiles('platform'));

  test('nodes: each component and the embedded stack, a for_each component with its instances, each source', () => {
    assert.deepEqual(
      graph.nodes.map((node) => [node.address, node.source, node.instances]),
      [
        ['component.network', './modules/network', undefined],
        ['component.cluster', './modules/cluster', undefined],
        ['component.dns', './modules/dns', ['private', 'public']],
        ['component.apps', './modules/apps', undefined],
        ['component.monitoring', './modules/monitoring', undefined],
        ['component.audit', './modules/audit', undefined],
        ['component.logging', './modules/logging', undefined],
        ['component.certificates', './modules/certificates', 'unknown'],
        ['component.peering', './modules/peering', undefined],
        ['stack.observability', './observability', undefined],
      ],
    );
  });

  test('edges from inputs, providers (through the provider configured from the cluster), depends_on, for_each and locals', () => {
    assert.deepEqual(
      graph.edges.map((edge) => [edge.from, edge.to, edge.via, edge.through ?? '', line(edge.range)]),
      [
        ['component.cluster', 'component.network', 'inputs', '', 20],
        ['component.cluster', 'component.network', 'inputs', 'local.subnets', 21],
        ['component.dns', 'component.network', 'inputs', '', 33],
        ['component.apps', 'component.dns', 'inputs', '', 43],
        ['component.apps', 'component.cluster', 'providers', 'provider.kubernetes.this', 46],
        ['component.monitoring', 'component.cluster', 'inputs', '', 54],
        ['component.monitoring', 'component.apps', 'depends_on', '', 52],
        ['component.audit', 'component.logging', 'inputs', '', 69],
        ['component.logging', 'component.audit', 'inputs', '', 76],
        ['component.certificates', 'component.dns', 'for_each', '', 83],
        ['stack.observability', 'component.cluster', 'inputs', '', 61],
      ],
    );
  });

  test('a reference to no component is a problem of the node that makes it; the cycle’s edges are there for the workspace graph', () => {
    assert.deepEqual(
      graph.problems.map((problem) => [problem.from, problem.code, line(problem.range), problem.message]),
      [['component.logging', 'unknown-component', 77, 'This Stack has no component "reports" (component.reports)']],
    );
    // Its cycle is found, and reported on both references, with every other node's (`in the workspace graph` below).
    assert.deepEqual(
      graph.edges
        .filter((edge) => edge.to === 'component.audit' || edge.to === 'component.logging')
        .map((edge) => [edge.from, line(edge.range)]),
      [
        ['component.audit', 69],
        ['component.logging', 76],
      ],
    );
  });

  test('the embedded stack’s own components wait for each other', () => {
    const embedded = componentGraph(stackFiles('platform/observability'));
    assert.deepEqual(
      embedded.edges.map((edge) => [edge.from, edge.to]),
      [['component.grafana', 'component.prometheus']],
    );
    assert.deepEqual(embedded.problems, []);
  });
});

describe('Terraform Stacks: deployments and linked Stacks', () => {
  const stacks: RepositoryStack[] = ['network', 'platform', 'platform/observability'].map((folder) => ({
    folder,
    files: stackFiles(folder),
  }));

  test('a deployment’s inputs are the Stack’s variables, through the deployment file’s locals too', () => {
    const platform = stacks[1]!.files;
    const values = (deployment: string) => {
      const variables = deploymentVariables(platform, deployment);
      return (
        variables && Object.fromEntries([...variables].map(([name, value]) => [name, isUnknown(value) ? '?' : value]))
      );
    };
    assert.deepEqual(values('prod'), { region: 'eu-west-1', environment: 'prod', vpc_id: '?', peering: '?' });
    assert.deepEqual(values('stage'), { region: 'eu-central-1', environment: 'stage', vpc_id: '?' });
    assert.equal(values('qa'), undefined);
  });

  test('an upstream output a deployment takes through a local is read from that Stack', () => {
    // Stage alone sets var.vpc_id, through `local.network_vpc = upstream_input.network.vpc_id`.
    const stageOnly = stacks[1]!.files.map(({ path, facts }) => ({
      path,
      facts: { ...facts, deployments: facts.deployments.filter((d) => d.name === 'stage') },
    }));
    const links = stackLinks([stacks[0]!, { folder: 'platform', files: stageOnly }]);
    assert.deepEqual(links.find((link) => link.input === 'network')?.reads, [{ variable: 'vpc_id', output: 'vpc_id' }]);
  });

  test('an upstream input matched to the Stack of its folder name, what it reads unpublished said; another unresolved with why', () => {
    assert.deepEqual(
      stackLinks(stacks).map((link) => [link.from, link.input, link.to, link.source, link.problem, line(link.range)]),
      [
        [
          'platform',
          'network',
          'network',
          'app.terraform.io/acme/platform/network',
          'network publishes no peering_id',
          1,
        ],
        [
          'platform',
          'billing',
          undefined,
          'app.terraform.io/acme/finance/billing',
          'no Stack of this repository is in a folder named billing',
          6,
        ],
      ],
    );
  });
});

describe('Terraform Stacks in the workspace graph', () => {
  async function analysed() {
    const analysis = new WorkspaceAnalysis(fixture, defaultOptions());
    await analysis.load();
    return analysis;
  }
  const components = path.join(fixture, 'platform', 'components.tfcomponent.hcl');

  test('each component and embedded stack is a node beside the root modules, at its level, with the Stack’s edges', async () => {
    const result = (await analysed()).result();
    assert.deepEqual(
      result.modules.map((module) => [module.id, module.kind, module.inCycle ? 'cycle' : module.level]),
      [
        ['account', 'module', 0],
        ['network/component.vpc', 'component', 0],
        ['platform/component.apps', 'component', 3],
        ['platform/component.audit', 'component', 'cycle'],
        ['platform/component.certificates', 'component', 3],
        ['platform/component.cluster', 'component', 2],
        ['platform/component.dns', 'component', 2],
        ['platform/component.logging', 'component', 'cycle'],
        ['platform/component.monitoring', 'component', 4],
        ['platform/component.network', 'component', 1],
        ['platform/component.peering', 'component', 1],
        ['platform/observability/component.grafana', 'component', 4],
        ['platform/observability/component.prometheus', 'component', 3],
        ['platform/stack.observability', 'component', 5],
      ],
    );
    assert.deepEqual([...new Set(result.edges.map((edge) => `${edge.from} -> ${edge.to}`))].sort(), [
      'platform/component.apps -> platform/component.cluster',
      'platform/component.apps -> platform/component.dns',
      'platform/component.audit -> platform/component.logging',
      'platform/component.certificates -> platform/component.dns',
      'platform/component.cluster -> platform/component.network',
      'platform/component.dns -> platform/component.network',
      'platform/component.logging -> platform/component.audit',
      'platform/component.monitoring -> platform/component.apps',
      'platform/component.monitoring -> platform/component.cluster',
      'platform/component.network -> account',
      'platform/component.peering -> network/component.vpc',
      'platform/observability/component.grafana -> platform/observability/component.prometheus',
      'platform/observability/component.prometheus -> platform/component.cluster',
      'platform/stack.observability -> platform/component.cluster',
      'platform/stack.observability -> platform/observability/component.grafana',
      'platform/stack.observability -> platform/observability/component.prometheus',
    ]);
    assert.deepEqual(result.cycles, [
      ['platform/component.audit', 'platform/component.logging', 'platform/component.audit'],
    ]);
  });

  test('an embedded Stack: its components wait for what the stack block gives their variables; the stack node, for its components', async () => {
    const result = (await analysed()).result();
    const edge = (from: string, to: string) => {
      const found = result.edges.find((candidate) => candidate.from === from && candidate.to === to)!;
      return [found.address, path.relative(fixture, found.reference.file), found.reference.range.start.line + 1];
    };
    assert.deepEqual(edge('platform/observability/component.prometheus', 'platform/component.cluster'), [
      'inputs, through var.cluster_name, set by platform/stack.observability',
      'platform/observability/observability.tfcomponent.hcl',
      8,
    ]);
    assert.deepEqual(edge('platform/stack.observability', 'platform/observability/component.grafana'), [
      'source',
      'platform/components.tfcomponent.hcl',
      59,
    ]);
  });

  test('a component reading a variable that a deployment sets from another Stack waits for the component that Stack publishes it from', async () => {
    const result = (await analysed()).result();
    const edge = result.edges.find((candidate) => candidate.from === 'platform/component.peering')!;
    assert.equal(edge.to, 'network/component.vpc');
    assert.equal(edge.address, 'upstream_input, through var.vpc_id, upstream_input.network.vpc_id');
    assert.equal(edge.reference.range.start.line + 1, 94);
    const deployments = path.join(fixture, 'platform', 'deployments.tfdeploy.hcl');
    assert.deepEqual(
      (workspaceDiagnostics(result).get(deployments) ?? []).map((d) => [d.severity, d.range.start.line + 1, d.message]),
      [
        ['warning', 1, 'upstream_input "network": network publishes no peering_id'],
        ['warning', 6, 'upstream_input "billing": no Stack of this repository is in a folder named billing'],
      ],
    );
  });

  test('the Problems view: the cycle on each of its references, a component the Stack does not have', async () => {
    const diagnostics = workspaceDiagnostics((await analysed()).result()).get(components) ?? [];
    assert.deepEqual(diagnostics.map((d) => [d.code, d.severity, d.range.start.line + 1]).sort(), [
      ['cycle', 'error', 69],
      ['cycle', 'error', 76],
      ['unknown-component', 'error', 77],
    ]);
    assert.match(
      diagnostics.find((d) => d.code === 'unknown-component')!.message,
      /^This Stack has no component "reports" \(component\.reports\)$/,
    );
  });

  test('the hover on a component block: its level, dependencies and dependents, module, instances, who plans it', async () => {
    const result = (await analysed()).result();
    const dns = moduleWithBackendAt(result, components, { line: 28, character: 4 });
    assert.equal(dns?.id, 'platform/component.dns');
    const text = moduleHover(result, dns!);
    assert.match(text, /^\*\*Stacks component `platform\/component\.dns`\*\* · level 2/);
    assert.match(text, /Depends on \(1\): .*platform\/component\.network/);
    assert.match(text, /Used by \(2\): .*platform\/component\.apps.*platform\/component\.certificates/);
    assert.match(text, /Module `\.\/modules\/dns` · instances `private`, `public`/);
    assert.match(text, /HCP Terraform, which plans it/);
  });

  test('the hover on a reference to a component names it and its level', async () => {
    const result = (await analysed()).result();
    const outcomes = referenceOutcomesAt(result, components, { line: 19, character: 20 });
    assert.equal(outcomes.length, 1);
    assert.match(referenceHover(result, outcomes), /platform\/component\.network/);
  });

  test('Run Plans and the pipelines leave the components out: only the root module runs', async () => {
    const analysis = await analysed();
    const result = analysis.result();
    assert.deepEqual(
      runTargets(result).map((target) => target.id),
      ['account'],
    );
    assert.deepEqual(runTargets(result, { modules: ['platform/component.cluster'] }), []);
    const pipeline = generatePipeline(result, { ci: 'gitlab', options: defaultPipelineOptions() });
    assert.match(pipeline.text, /account/);
    assert.doesNotMatch(pipeline.text, /component\./);
    assert.match(
      pipeline.text,
      /^# Left out: 13 Terraform Stacks components, which HCP Terraform plans and applies\.$/m,
    );
  });
});

describe('a Stack component’s module, read like a child module', () => {
  const moduleFile = path.join(fixture, 'platform', 'modules', 'network', 'main.tf');
  async function inEnvironment(environment: string | undefined) {
    const analysis = new WorkspaceAnalysis(fixture, { ...defaultOptions(), environment });
    await analysis.load();
    return analysis;
  }
  const readsOfNetwork = (result: ReturnType<WorkspaceAnalysis['result']>) => ({
    edges: result.edges
      .filter((edge) => edge.from === 'platform/component.network')
      .map((edge) => [edge.to, edge.match, edge.reference.file, edge.reference.headerRange.start.line + 1]),
    unresolved: result.unresolved
      .filter((item) => item.from === 'platform/component.network')
      .map((item) => item.reason),
  });

  test('its remote-state read, with the component’s inputs as variables, is an edge of the component', async () => {
    // No deployment selected: var.environment is set by each; the key's known parts fit the one writer.
    const none = (await inEnvironment(undefined)).result();
    assert.deepEqual(readsOfNetwork(none), { edges: [['account', 'inferred', moduleFile, 10]], unresolved: [] });
    const edge = none.edges.find((candidate) => candidate.from === 'platform/component.network')!;
    assert.deepEqual(
      edge.assumed.map((binding) => [binding.hole, binding.value]),
      [['var.environment', 'prod']],
    );
    assert.deepEqual(edge.unknowns, ['key: var.environment is set by each deployment (none is selected)']);
  });

  test('the Stack’s deployments are environments: selected, a deployment’s inputs are the Stack’s variables', async () => {
    const prod = await inEnvironment('prod');
    assert.deepEqual(prod.environmentNames(), ['prod', 'stage']);
    assert.deepEqual(readsOfNetwork(prod.result()), { edges: [['account', 'exact', moduleFile, 10]], unresolved: [] });
    // Stage's account state is written by no root of the repository.
    assert.deepEqual(readsOfNetwork((await inEnvironment('stage')).result()), {
      edges: [],
      unresolved: ['no module in this workspace writes s3://acme-terraform-state/account/stage/terraform.tfstate'],
    });
  });

  test('an edit of the module changes the component’s edges', async () => {
    const copy = mkdtempSync(path.join(os.tmpdir(), 'terrace-stacks-'));
    try {
      cpSync(fixture, copy, { recursive: true });
      const analysis = new WorkspaceAnalysis(copy, { ...defaultOptions(), environment: 'prod' });
      await analysis.load();
      const file = path.join(copy, 'platform', 'modules', 'network', 'main.tf');
      const text = readFileSync(file, 'utf8');
      await analysis.updateFile(file, text.replace('key    = "account/', 'key    = "accounts/'));
      assert.deepEqual(
        analysis
          .result()
          .unresolved.filter((item) => item.from === 'platform/component.network')
          .map((item) => item.reason),
        ['no module in this workspace writes s3://acme-terraform-state/accounts/prod/terraform.tfstate'],
      );
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe('Terraform Stacks, edited', () => {
  test('an unsaved edit that drops a reference ends the cycle; a component added on disk is a node with its edge', async () => {
    const copy = mkdtempSync(path.join(os.tmpdir(), 'terrace-stacks-'));
    try {
      cpSync(fixture, copy, { recursive: true });
      const analysis = new WorkspaceAnalysis(copy, defaultOptions());
      await analysis.load();
      assert.equal(analysis.result().cycles.length, 1);
      const file = path.join(copy, 'platform', 'components.tfcomponent.hcl');
      const text = readFileSync(file, 'utf8');
      await analysis.updateFile(file, text.replace('audit_role = component.audit.role_arn', 'audit_role = "fixed"'));
      assert.deepEqual(analysis.result().cycles, []);
      assert.equal(analysis.result().modules.find((m) => m.id === 'platform/component.logging')?.level, 0);

      const added = path.join(copy, 'platform', 'backup.tfcomponent.hcl');
      writeFileSync(
        added,
        'component "backup" {\n  source = "./modules/backup"\n  inputs = { bucket = component.logging.bucket }\n}\n',
      );
      await analysis.updateFile(added);
      const result = analysis.result();
      const backup = result.modules.find((m) => m.id === 'platform/component.backup');
      assert.equal(backup?.kind, 'component');
      assert.deepEqual(result.graph.dependencies('platform/component.backup'), ['platform/component.logging']);

      // A Stack in a folder the scan did not see: its components come with its first file.
      const fresh = path.join(copy, 'billing', 'billing.tfcomponent.hcl');
      mkdirSync(path.dirname(fresh));
      writeFileSync(fresh, 'component "ledger" {\n  source = "./ledger"\n}\n');
      await analysis.updateFile(fresh);
      assert.equal(analysis.result().modules.find((m) => m.id === 'billing/component.ledger')?.kind, 'component');
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
