import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { changedFiles } from '../../server/src/engine/analysis';
import { type HostileRepository, hostileRepository } from '../hostileRepository';

const repo = path.resolve(__dirname, '../..');

function cli(...args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', path.join(repo, 'server/src/cli/cli.ts'), ...args], {
    cwd: repo,
    encoding: 'utf8',
  });
}

/** Reading a repository runs nothing its own Git configuration names, and still asks Git what it must. */
describe('a repository whose .git/config names commands', () => {
  let hostile: HostileRepository;
  before(() => {
    hostile = hostileRepository();
  });
  after(() => hostile.dispose());

  test('terrace graph: the tracked-but-ignored lock file makes its root; nothing ran', () => {
    const graph = cli('graph', hostile.root, '--format', 'json');
    assert.equal(graph.status, 0, graph.stderr);
    const json = JSON.parse(graph.stdout) as { modules: { id: string }[]; edges: { from: string; to: string }[] };
    assert.deepEqual(json.modules.map((module) => module.id).sort(), ['app', 'network', 'oidc']);
    assert.deepEqual(
      json.edges.map((edge) => `${edge.from} -> ${edge.to}`),
      ['app -> network'],
    );
    assert.deepEqual(hostile.ran(), []);
  });

  test('terrace generate --changed-only: the committed change since main; nothing ran', () => {
    const generated = cli('generate', hostile.root, '--ci', 'gitlab', '--changed-only', '--base-ref', 'main');
    assert.equal(generated.status, 0, generated.stderr);
    const jobs = Object.keys(parse(generated.stdout)).filter((key) => /^(plan|apply)-/.test(key));
    assert.deepEqual(jobs, ['plan-app', 'apply-app']);
    assert.deepEqual(hostile.ran(), []);
  });

  test("the editor's changes (the work tree compared through the filter's driver): found; nothing ran", async () => {
    const files = await changedFiles(hostile.root, 'main', { includeUncommitted: true });
    assert.deepEqual(files, ['app/main.tf', 'network/main.tf']);
    assert.deepEqual(hostile.ran(), []);
  });
});
