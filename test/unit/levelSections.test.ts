import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { levelSections } from '../../client/src/levelSections';
import { loadWorkspace } from '../../server/src/engine/analysis';
import { loadAnalysisOptions } from '../../server/src/engine/config';
import { graphJson } from '../../server/src/engine/features';
import { toGraphModel } from '../../server/src/languageServer/graphModel';

/**
 * Show Execution Levels counts levels as `terrace levels` does: the modules in or behind a cycle under headings
 * of their own, not under a level's.
 */
const repo = path.resolve(__dirname, '../..');

async function both(folder: string) {
  const root = path.join(repo, folder);
  const analysis = await loadWorkspace(root, await loadAnalysisOptions(root));
  const result = analysis.result();
  return { model: toGraphModel(result, 1), cli: graphJson(result) };
}

describe('Show Execution Levels', () => {
  for (const folder of ['examples/cycle', 'test/fixtures/cycle-elsewhere', 'examples/local']) {
    test(`${folder}: the levels and the modules with none, as the CLI has them`, async () => {
      const { model, cli } = await both(folder);
      const sections = levelSections(model);
      const levels = sections.filter((section) => !section.noLevel);
      assert.deepEqual(
        levels.map((section) => section.ids),
        cli.levels,
      );
      assert.deepEqual(
        levels.map((section) => section.title),
        cli.levels.map((_, level) => `Level ${level}`),
      );
      const cycles = sections.find((section) => section.title === 'In a cycle, no level');
      assert.deepEqual([...(cycles?.ids ?? [])].sort(), cli.cycleModules.flat().sort());
      const waiting = sections.find((section) => section.title === 'Waits for a cycle, no level');
      assert.deepEqual([...(waiting?.ids ?? [])].sort(), [...cli.waitingForCycles].sort());
    });
  }

  test('a cycle is not a level: examples/cycle has modules in one, and fewer levels than the engine files them at', async () => {
    const { model } = await both('examples/cycle');
    const sections = levelSections(model);
    assert.ok(sections.some((section) => section.noLevel && section.ids.length > 0));
    assert.ok(sections.filter((section) => !section.noLevel).length < model.levels.length);
  });
});
