import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { analyzeDirectory } from '../../server/src/engine/analysis';
import { type GraphJson, graphJson } from '../../server/src/engine/features';

/**
 * Every fixture monorepo (test/fixtures/*, examples/*) against its expected.json: the exact
 * modules, edges, levels and cycles, and the unresolved and ambiguous references.
 */
interface Expected {
  modules: string[];
  edges: GraphJson['edges'];
  levels: string[][];
  cycles: string[][];
  /** Checked where given: each strongly connected set, and the modules waiting for one. */
  cycleModules?: string[][];
  waitingForCycles?: string[];
  unresolved: { from: string; file: string; line: number; name: string; reasonIncludes: string }[];
  ambiguous: { from: string; file: string; line: number; name: string; writers: string[] }[];
  syntaxErrors?: { file: string; line: number }[];
}

const repo = path.resolve(__dirname, '../..');
const fixtureDirs = ['test/fixtures', 'examples'].flatMap((parent) =>
  readdirSync(path.join(repo, parent), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(repo, parent, entry.name, 'expected.json')))
    .map((entry) => path.join(parent, entry.name)),
);

describe('fixture monorepos', () => {
  test('there are fixtures to check', () => {
    assert.ok(fixtureDirs.length >= 10, `found ${fixtureDirs.length} fixtures`);
  });

  for (const dir of fixtureDirs) {
    test(dir, async () => {
      const root = path.join(repo, dir);
      const expected = JSON.parse(readFileSync(path.join(root, 'expected.json'), 'utf8')) as Expected;
      const actual = graphJson(await analyzeDirectory(root));
      assert.deepEqual(
        actual.modules.map((module) => module.id),
        expected.modules,
        'modules',
      );
      assert.deepEqual(actual.edges, expected.edges, 'edges');
      assert.deepEqual(actual.levels, expected.levels, 'levels');
      assert.deepEqual(actual.cycles, expected.cycles, 'cycles');
      if (expected.cycleModules) assert.deepEqual(actual.cycleModules, expected.cycleModules, 'cycle modules');
      if (expected.waitingForCycles)
        assert.deepEqual(actual.waitingForCycles, expected.waitingForCycles, 'waiting for cycles');
      assert.deepEqual(
        actual.unresolved.map(({ from, file, line, name }) => ({ from, file, line, name })),
        expected.unresolved.map(({ from, file, line, name }) => ({ from, file, line, name })),
        'unresolved references',
      );
      expected.unresolved.forEach((item, index) => {
        assert.ok(
          actual.unresolved[index]!.reason.includes(item.reasonIncludes),
          `unresolved ${item.file}:${item.line} reason "${actual.unresolved[index]!.reason}" should include "${item.reasonIncludes}"`,
        );
      });
      assert.deepEqual(
        actual.ambiguous.map(({ from, file, line, name, writers }) => ({ from, file, line, name, writers })),
        expected.ambiguous.map(({ from, file, line, name, writers }) => ({ from, file, line, name, writers })),
        'ambiguous references',
      );
      assert.deepEqual(
        actual.syntaxErrors.map(({ file, line }) => ({ file, line })),
        expected.syntaxErrors ?? [],
        'syntax errors',
      );
    });
  }
});
