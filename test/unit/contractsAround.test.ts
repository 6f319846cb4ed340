import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadWorkspace } from '../../server/src/engine/analysis';
import { loadAnalysisOptions } from '../../server/src/engine/config';
import type { OutputContracts } from '../../server/src/engine/contracts';
import { generateMonorepo } from '../bench/syntheticMonorepo';
import { aroundEachFile } from '../corpus/aroundEachFile';
import { writeTerragruntLive } from '../realShapes/terragruntLive';

/**
 * The contracts around a file (`WorkspaceAnalysis.contractsAround`), which the editor's requests about that file
 * use until the workspace's are worked out: for every file of each workspace, every hover, definition, code lens,
 * completion and block's outputs read is the one the whole contracts give.
 */
const fixtures = path.resolve(__dirname, '../fixtures');

describe('the contracts around a file answer its requests as the whole contracts do', () => {
  let tmp: string;
  before(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'terrace-contracts-around-'));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  for (const fixture of [
    'output-contracts',
    'output-contracts-json',
    'output-contracts-terragrunt',
    'child-module-twice',
    'terraform-stacks',
    'for-each-and-count',
  ]) {
    test(fixture, async () => {
      const found = await aroundEachFile(path.join(fixtures, fixture));
      assert.deepEqual(found.differ, []);
      assert.ok(found.files > 0 && found.uses > 0, JSON.stringify(found));
    });
  }

  test('the example monorepo', async () => {
    const found = await aroundEachFile(path.resolve(__dirname, '../../examples/monorepo'));
    assert.deepEqual(found.differ, []);
    assert.ok(
      found.uses > 0 && found.declarations > 0 && found.completions > 0 && found.reads > 0,
      JSON.stringify(found),
    );
  });

  test('a synthetic monorepo of 200 modules, with a hub output read by a tenth of them', async () => {
    const root = path.join(tmp, 'synthetic');
    generateMonorepo(root, { modules: 200, seed: 7 });
    const found = await aroundEachFile(root);
    assert.deepEqual(found.differ, []);
    assert.ok(found.uses > 400 && found.completions > 400, JSON.stringify(found));
  });

  test('a Terragrunt live repository of 60 units', async () => {
    const root = path.join(tmp, 'terragrunt-live');
    writeTerragruntLive(root, { units: 60 });
    const found = await aroundEachFile(root);
    assert.deepEqual(found.differ, []);
    assert.ok(found.uses > 60, JSON.stringify(found));
  });
});

describe('around a file, a large workspace', () => {
  test('resolves the reads of the few nodes the file concerns, not of every node', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-contracts-around-'));
    try {
      const repo = generateMonorepo(root, { modules: 1000, seed: 7 });
      const analysis = await loadWorkspace(root, await loadAnalysisOptions(root));
      const { edges } = analysis.result();
      const idOf = (file: string) => path.relative(root, path.dirname(file));
      // A node, and the nodes that read its state.
      const around = (id: string) => new Set([id, ...edges.filter((edge) => edge.to === id).map((edge) => edge.from)]);
      const readersIn = (contracts: OutputContracts) => new Set(contracts.uses.map((use) => use.reader));
      const reader = readersIn(analysis.contractsAround([repo.hub.readerFile]));
      const hub = readersIn(analysis.contractsAround([repo.hub.outputsFile]));
      const aroundAgain = analysis.contractsAround([repo.hub.outputsFile]);
      assert.equal(analysis.contractsAround([repo.hub.outputsFile]), aroundAgain, 'the last kept');
      const whole = analysis.contracts();
      assert.equal(analysis.contractsAround([repo.hub.readerFile]), whole, 'once worked out, the whole contracts');
      const wholeReaders = readersIn(whole);
      assert.deepEqual(reader, new Set([...around(idOf(repo.hub.readerFile))].filter((id) => wholeReaders.has(id))));
      assert.deepEqual(hub, new Set([...around(idOf(repo.hub.outputsFile))].filter((id) => wholeReaders.has(id))));
      assert.ok(hub.size >= repo.hub.readers, `${hub.size} readers around the hub, of ${repo.hub.readers}`);
      assert.ok(
        wholeReaders.size > 900 && reader.size < 20,
        `${reader.size} readers around a reader, ${wholeReaders.size} in all`,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
