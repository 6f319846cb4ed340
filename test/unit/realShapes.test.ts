import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { analyzeDirectory } from '../../server/src/engine/analysis';
import { type GraphJson, graphJson } from '../../server/src/engine/features';
import { writePlainSubscriptions } from '../realShapes/plainSubscriptions';
import { writeTerragruntLive } from '../realShapes/terragruntLive';

/**
 * The real-shape monorepos the graph panel's tests and benchmarks use, read by the engine: every
 * unit or root found, every dependency block or remote-state read an exact edge, nothing left
 * unresolved, no cycle, and many nodes sharing a last folder name.
 */
describe('real-shape monorepos read by the engine', () => {
  let tmp: string;
  const fresh = (name: string) => path.join(tmp, name);

  before(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'terrace-real-shapes-'));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  test('a Terragrunt live repository: 300 units, each dependency block an edge', async () => {
    const dir = fresh('terragrunt-live');
    const live = writeTerragruntLive(dir);
    const graph = graphJson(await analyzeDirectory(dir));

    assert.equal(live.units.length, 300);
    assert.deepEqual(ids(graph), [...live.units].sort());
    assert.ok(graph.modules.every((module) => module.kind === 'unit'));
    assert.ok(live.units.every((id) => id.split('/').length >= 4 && id.split('/').length <= 7));
    assert.ok(live.dependencies >= 900 && live.dependencies <= 1100, `${live.dependencies} dependency blocks`);
    assert.equal(graph.edges.length, live.dependencies);
    assert.ok(graph.edges.every((edge) => edge.matchedBy === 'dependency' && edge.match === 'exact'));
    assertReadCleanly(graph);
    // root.hcl's remote_state, through common.hcl and region.hcl, keyed by the unit's folder.
    assert.equal(
      backendOf(graph, 'live/stage/eu-west-1/network/vpc'),
      's3://acme-stage-terraform-state-eu-west-1/live/stage/eu-west-1/network/vpc/terraform.tfstate',
    );
    for (const name of ['vpc', 'eks', 'rds', 'iam', 'common'])
      assert.ok((namesakes(graph).get(name) ?? 0) >= 6, `${name} in every area`);
    assert.ok(largestNamesakeGroup(graph) >= 12);
  });

  test('plain Azure subscriptions: 50 roots, each remote-state read an edge by its azurerm address', async () => {
    const dir = fresh('plain-subscriptions');
    const plain = writePlainSubscriptions(dir);
    const graph = graphJson(await analyzeDirectory(dir));

    assert.equal(plain.roots.length, 50);
    assert.deepEqual(ids(graph), [...plain.roots].sort());
    assert.ok(graph.modules.every((module) => module.kind === 'module'));
    assert.ok(plain.edges >= 55 && plain.edges <= 85, `${plain.edges} reads`);
    assert.equal(graph.edges.length, plain.edges);
    assert.ok(graph.edges.every((edge) => edge.matchedBy === 'backend-address' && edge.match === 'exact'));
    assertReadCleanly(graph);
    assert.equal(
      backendOf(graph, 'subscriptions/sub-b/stage/clusters'),
      'azurerm://sttfstatesubb/stage/subscriptions/sub-b/stage/clusters.tfstate',
    );
    assert.equal(namesakes(graph).get('common'), 12);
    assert.ok(largestNamesakeGroup(graph) >= 12);
  });

  test('the same seed writes the same files; another seed other dependencies', () => {
    const tree = (write: (dir: string) => unknown, name: string) => {
      write(fresh(name));
      return treeHash(fresh(name));
    };
    const live = (seed: number) => (dir: string) => writeTerragruntLive(dir, { units: 40, seed });
    const plain = (seed: number) => (dir: string) => writePlainSubscriptions(dir, { seed });
    assert.equal(tree(live(5), 'live-5a'), tree(live(5), 'live-5b'));
    assert.notEqual(tree(live(5), 'live-5c'), tree(live(6), 'live-6'));
    assert.equal(tree(plain(5), 'plain-5a'), tree(plain(5), 'plain-5b'));
    assert.notEqual(tree(plain(5), 'plain-5c'), tree(plain(6), 'plain-6'));
  });

  test('a smaller live repository keeps its shape: every area, every unit found', async () => {
    const dir = fresh('terragrunt-live-40');
    const live = writeTerragruntLive(dir, { units: 40, seed: 3 });
    const graph = graphJson(await analyzeDirectory(dir));
    assert.equal(live.units.length, 40);
    assert.equal(new Set(live.units.map((id) => id.split('/').slice(0, 3).join('/'))).size, 6);
    assert.deepEqual(ids(graph), [...live.units].sort());
    assert.equal(graph.edges.length, live.dependencies);
    assertReadCleanly(graph);
  });
});

function ids(graph: GraphJson): string[] {
  return graph.modules.map((module) => module.id).sort();
}

/** No cycle, nothing unresolved or ambiguous, every file parsed, every module in a level. */
function assertReadCleanly(graph: GraphJson): void {
  assert.deepEqual(graph.cycles, []);
  assert.deepEqual(graph.unresolved, []);
  assert.deepEqual(graph.ambiguous, []);
  assert.deepEqual(graph.syntaxErrors, []);
  assert.deepEqual(graph.problems, []);
  assert.equal(graph.levels.flat().length, graph.modules.length);
}

function backendOf(graph: GraphJson, id: string): string | null | undefined {
  return graph.modules.find((module) => module.id === id)?.backend?.address;
}

/** How many nodes have each last folder name. */
function namesakes(graph: GraphJson): Map<string, number> {
  const counts = new Map<string, number>();
  for (const module of graph.modules) {
    const name = module.id.split('/').at(-1)!;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

function largestNamesakeGroup(graph: GraphJson): number {
  return Math.max(...namesakes(graph).values());
}

/** A hash of every file's path and text under `dir`. */
function treeHash(dir: string): string {
  const hash = createHash('sha256');
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
  for (const file of files) hash.update(`${file}\0${readFileSync(path.join(dir, file), 'utf8')}\0`);
  return hash.digest('hex');
}
