import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { parseHcl } from '../../server/src/engine/hcl';
import {
  componentGraph,
  type RepositoryStack,
  type StackSourceFile,
  stackDeployments,
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

  test('the cycle, on each of its edges, and a reference to no component', () => {
    assert.deepEqual(graph.cycles, [['component.audit', 'component.logging', 'component.audit']]);
    assert.deepEqual(
      graph.problems.map((problem) => [problem.code, line(problem.range), problem.message]),
      [
        ['unknown-component', 77, 'component.reports is not a component of this Stack'],
        [
          'stack-cycle',
          69,
          "Dependency cycle among the Stack's components: component.audit → component.logging → component.audit",
        ],
        [
          'stack-cycle',
          76,
          "Dependency cycle among the Stack's components: component.audit → component.logging → component.audit",
        ],
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

  test('deployments are a Stack’s environments', () => {
    assert.deepEqual(
      stackDeployments(stacks[1]!).map((d) => d.name),
      ['prod', 'stage'],
    );
    assert.deepEqual(
      stackDeployments(stacks[0]!).map((d) => d.name),
      ['prod'],
    );
    assert.deepEqual(stackDeployments(stacks[2]!), []);
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
