import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadWorkspace } from '../../server/src/engine/analysis';
import { loadAnalysisOptions } from '../../server/src/engine/config';
import type { OutputContracts } from '../../server/src/engine/contracts';
import {
  type OutputIndex,
  outputBlockHover,
  outputCompletions,
  outputDefinitions,
  outputIndex,
  outputLenses,
  outputsReadLine,
  outputUseHover,
  referenceOutcomesAt,
} from '../../server/src/engine/features';
import { generateMonorepo } from '../bench/syntheticMonorepo';
import { writeTerragruntLive } from '../realShapes/terragruntLive';

/**
 * The contracts around a file (`WorkspaceAnalysis.contractsAround`), which the editor's requests about that file
 * use until the workspace's are worked out: for every file of each workspace, every hover, definition, code lens
 * and completion they give is the one the whole contracts give.
 */
const fixtures = path.resolve(__dirname, '../fixtures');
const textOf = (file: string) => readFileSync(file, 'utf8');

/**
 * What the requests about `file` answer from an index: at each use and each `output` block of the whole contracts,
 * and the outputs read through each block that reads a state.
 */
function answers(index: OutputIndex, whole: OutputContracts, file: string): unknown[] {
  const lines = textOf(file).split('\n');
  const blocks = index.result.edges.filter((edge) => edge.reference.file === file).map((edge) => edge.reference.range);
  const uses = whole.uses.filter((use) => use.file === file);
  const declarations = [...whole.outputs.values()].flat().filter((output) => output.file === file);
  return [
    ...uses.map((use) => {
      const at = use.range.start;
      const prefix = lines[at.line]!.slice(0, at.character);
      return {
        at,
        hover: outputUseHover(index, file, at, textOf),
        definitions: outputDefinitions(index, file, at),
        completions: outputCompletions(index, file, prefix, textOf).map((item) => item.name),
      };
    }),
    ...declarations.map((output) => ({
      at: output.range.start,
      hover: outputBlockHover(index, file, output.range.start),
    })),
    ...blocks.map((range) => ({
      at: range.start,
      read: outputsReadLine(index, referenceOutcomesAt(index.result, file, range.start)),
    })),
    { lenses: outputLenses(index, file) },
  ];
}

interface Compared {
  files: number;
  /** Blocks that read a state through which outputs are read. */
  reads: number;
  uses: number;
  declarations: number;
  completions: number;
}

/** Each file's answers around it, before the whole contracts are asked for, against theirs. */
async function compareEveryFile(root: string): Promise<Compared> {
  const analysis = await loadWorkspace(root, await loadAnalysisOptions(root));
  const result = analysis.result();
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(tf|tf\.json|hcl)$/.test(file))
    .map((file) => path.join(root, file))
    .sort();
  const around = new Map(files.map((file) => [file, analysis.contractsAround([file])]));
  const whole = analysis.contracts();
  assert.notEqual(around.get(files[0]!), whole, 'around a file, before the whole contracts, is not them');
  assert.equal(analysis.contractsAround([files[0]!]), whole, 'once they are worked out, they answer');
  const compared: Compared = { files: 0, reads: 0, uses: 0, declarations: 0, completions: 0 };
  for (const file of files) {
    const expected = answers(outputIndex(result, whole), whole, file);
    assert.deepEqual(answers(outputIndex(result, around.get(file)!), whole, file), expected, path.relative(root, file));
    compared.files++;
    compared.uses += whole.uses.filter((use) => use.file === file).length;
    compared.completions += expected.filter(
      (answer) => (answer as { completions?: string[] }).completions?.length,
    ).length;
    compared.reads += expected.filter((answer) => (answer as { read?: string }).read !== undefined).length;
  }
  compared.declarations = [...whole.outputs.values()].flat().length;
  return compared;
}

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
      const compared = await compareEveryFile(path.join(fixtures, fixture));
      assert.ok(compared.files > 0 && compared.uses > 0, JSON.stringify(compared));
    });
  }

  test('the example monorepo', async () => {
    const compared = await compareEveryFile(path.resolve(__dirname, '../../examples/monorepo'));
    assert.ok(
      compared.uses > 0 && compared.declarations > 0 && compared.completions > 0 && compared.reads > 0,
      JSON.stringify(compared),
    );
  });

  test('a synthetic monorepo of 200 modules, with a hub output read by a tenth of them', async () => {
    const root = path.join(tmp, 'synthetic');
    generateMonorepo(root, { modules: 200, seed: 7 });
    const compared = await compareEveryFile(root);
    assert.ok(compared.uses > 400 && compared.completions > 400, JSON.stringify(compared));
  });

  test('a Terragrunt live repository of 60 units', async () => {
    const root = path.join(tmp, 'terragrunt-live');
    writeTerragruntLive(root, { units: 60 });
    const compared = await compareEveryFile(root);
    assert.ok(compared.uses > 60, JSON.stringify(compared));
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
      const whole = readersIn(analysis.contracts());
      assert.deepEqual(reader, new Set([...around(idOf(repo.hub.readerFile))].filter((id) => whole.has(id))));
      assert.deepEqual(hub, new Set([...around(idOf(repo.hub.outputsFile))].filter((id) => whole.has(id))));
      assert.ok(hub.size >= repo.hub.readers, `${hub.size} readers around the hub, of ${repo.hub.readers}`);
      assert.ok(whole.size > 900 && reader.size < 20, `${reader.size} readers around a reader, ${whole.size} in all`);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
