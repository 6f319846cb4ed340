import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type AnalysisResult, WorkspaceAnalysis } from '../../server/src/engine/analysis';
import { defaultOptions } from '../../server/src/engine/config';
import { generateMonorepo, type SyntheticMonorepo } from '../bench/syntheticMonorepo';
import { seededRandom } from '../seededRandom';

/** The analysis kept current file by file: edits, new and deleted files, child modules. */
describe('incremental workspace analysis', () => {
  let root: string;
  let analysis: WorkspaceAnalysis;
  const file = (relative: string) => path.join(root, relative);
  const dependencies = (id: string) => [...analysis.result().graph.dependencies(id)].sort();

  before(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'terrace-incremental-'));
    cpSync(path.join(__dirname, '..', '..', 'examples', 'monorepo'), root, { recursive: true });
    analysis = new WorkspaceAnalysis(root, defaultOptions());
    await analysis.load();
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test('an unsaved edit that reads a dependent closes a cycle; reading the disk again removes it', async () => {
    const vpc = file('network/prod/eu-central-1/vpc/main.tf');
    assert.deepEqual(analysis.result().cycles, []);
    const edited = `${readFileSync(vpc, 'utf8')}
data "terraform_remote_state" "worker" {
  backend = "s3"
  config = {
    bucket = "acme-terraform-state"
    key    = "app/prod/eu-central-1/worker/terraform.tfstate"
    region = "eu-central-1"
  }
}
`;
    await analysis.updateFile(vpc, edited);
    const [cycle] = analysis.result().cycles;
    assert.equal(cycle?.[0], 'app/prod/eu-central-1/api');
    assert.equal(cycle?.at(-1), 'app/prod/eu-central-1/api');
    assert.ok(cycle?.includes('network/prod/eu-central-1/vpc'));
    const levelOf = (id: string) => analysis.result().modules.find((module) => module.id === id)?.level;
    assert.equal(
      levelOf('network/prod/eu-central-1/vpc'),
      levelOf('app/prod/eu-central-1/worker'),
      'a cycle shares one level',
    );
    await analysis.updateFile(vpc);
    assert.deepEqual(analysis.result().cycles, []);
    assert.equal(analysis.result().levels.length, 5);
  });

  test('a change in a child module changes the edges of every root that calls it', async () => {
    const child = file('modules/stack-outputs/main.tf');
    const callers = ['app/prod/eu-central-1/api', 'app/prod/eu-central-1/worker', 'app/stage/eu-central-1/api'];
    const before = callers.map(dependencies);
    const text = readFileSync(child, 'utf8');
    await analysis.updateFile(child, text.replace('${var.module}/terraform.tfstate', 'nothing/terraform.tfstate'));
    callers.forEach((id, index) => {
      assert.ok(dependencies(id).length < before[index]!.length, `${id} lost the edges its child module made`);
    });
    assert.ok(analysis.result().unresolved.some((item) => item.reference.file === child));
    await analysis.updateFile(child, text);
    assert.deepEqual(callers.map(dependencies), before);
  });

  test('a new module folder is discovered from its first file; deleting the file removes it', async () => {
    const created = file('network/prod/eu-central-1/nat/main.tf');
    mkdirSync(path.dirname(created), { recursive: true });
    writeFileSync(
      created,
      'terraform {\n  backend "s3" {\n    bucket = "acme-terraform-state"\n    key    = "network/prod/eu-central-1/nat/terraform.tfstate"\n    region = "eu-central-1"\n  }\n}\n\ndata "terraform_remote_state" "vpc" {\n  backend = "s3"\n  config = {\n    bucket = "acme-terraform-state"\n    key    = "network/prod/eu-central-1/vpc/terraform.tfstate"\n    region = "eu-central-1"\n  }\n}\n',
    );
    await analysis.updateFile(created);
    assert.deepEqual(dependencies('network/prod/eu-central-1/nat'), ['network/prod/eu-central-1/vpc']);
    assert.equal(analysis.result().modules.find((module) => module.id === 'network/prod/eu-central-1/nat')?.level, 1);
    unlinkSync(created);
    analysis.removePath(created);
    assert.equal(
      analysis.result().modules.some((module) => module.id === 'network/prod/eu-central-1/nat'),
      false,
    );
  });

  test('a file edited to the same content as before reuses its facts', async () => {
    const vpc = file('network/prod/eu-central-1/vpc/main.tf');
    const facts = analysis.factsOf(vpc);
    await analysis.updateFile(vpc, readFileSync(vpc, 'utf8'));
    assert.equal(analysis.factsOf(vpc), facts);
  });
});

/**
 * The analysis kept across edits must say exactly what a fresh analysis of the same files says:
 * the graph reuses every module's evaluation, matches, edge list and summary that an edit did
 * not touch, by position, so this walks a generated monorepo through random edits (keys pointed
 * at other modules, closing and opening cycles, at nobody, and back) and compares each result.
 */
describe('incremental analysis equals a fresh one', () => {
  let root: string;
  let repo: SyntheticMonorepo;
  before(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'terrace-equivalence-'));
    repo = generateMonorepo(root, { modules: 80, seed: 11 });
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const shape = (result: AnalysisResult) => ({
    modules: result.modules,
    edges: result.edges.map((edge) => `${edge.from} -> ${edge.to} ${edge.address}`),
    unresolved: result.unresolved.map((item) => `${item.from}: ${item.reason}`),
    levels: result.levels,
    cycles: result.cycles,
    cycleMembers: result.cycleMembers,
    dependencies: result.graph.nodes().map((id) => [id, [...result.graph.dependencies(id)].sort()]),
    dependents: result.graph.nodes().map((id) => [id, [...result.graph.dependents(id)].sort()]),
  });

  test('after each of 30 random edits', async () => {
    const random = seededRandom(5);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const kept = new WorkspaceAnalysis(root, defaultOptions());
    await kept.load();
    kept.result();
    const dataFiles = repo.ids.map((id) => path.join(root, id, 'data.tf'));
    const originals = new Map(dataFiles.map((file) => [file, readFileSync(file, 'utf8')]));
    let cyclic = 0;
    for (let step = 0; step < 30; step++) {
      const file = pick(dataFiles);
      const text = readFileSync(file, 'utf8');
      const target = random() < 0.2 ? 'nobody' : pick(repo.ids);
      const edited =
        random() < 0.25 ? originals.get(file)! : text.replace(/key {4}= "[^"$]+\//, `key    = "${target}/`);
      writeFileSync(file, edited);
      await kept.updateFile(file, edited);
      const fresh = new WorkspaceAnalysis(root, defaultOptions());
      await fresh.load();
      assert.deepEqual(shape(kept.result()), shape(fresh.result()), `step ${step}: ${path.relative(root, file)}`);
      if (fresh.result().cycles.length > 0) cyclic++;
    }
    assert.ok(cyclic > 0 && cyclic < 30, `the edits made and removed cycles (${cyclic} of 30 steps had one)`);
  });
});
