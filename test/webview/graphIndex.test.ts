import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GraphIndex } from '../../webview/src/graphIndex';
import { pathLabels } from '../../webview/src/nodeLabels';
import { synthetic } from './graphModels';
import { panelOfModel } from './panelOfModel';

describe('a graph’s index, built again for each version of the graph', () => {
  test('labels each module as the panel’s labels do, when it is first asked for', () => {
    const index = new GraphIndex(first);
    const ids = first.modules.map((module) => module.id);
    const eager = pathLabels(ids);
    // Asked in another order than the graph's: a name's labels do not depend on which of its modules came first.
    for (const id of [...ids].reverse()) assert.deepEqual(index.labels.get(id), eager.get(id), id);
    assert.equal(index.labels.get('no/such/module'), undefined);
    assert.ok(!index.labels.has('no/such/module'));
  });

  const first = panelOfModel(synthetic(300));

  test('after an edit that keeps the modules, their labels and folders are kept, and the rest is the new graph’s', () => {
    const before = new GraphIndex(first);
    // One edge fewer, as an edit that removes a read: the same modules, another graph.
    const edited = { ...first, version: first.version + 1, edges: first.edges.slice(1) };
    const after = new GraphIndex(edited, before);
    assert.equal(after.labels, before.labels);
    assert.equal(after.tree, before.tree);
    const fresh = new GraphIndex(edited);
    const ids = edited.modules.map((module) => module.id);
    assert.deepEqual(
      ids.map((id) => after.labels.get(id)),
      ids.map((id) => fresh.labels.get(id)),
    );
    assert.deepEqual([...after.dependencies], [...fresh.dependencies]);
    assert.deepEqual([...after.places], [...fresh.places]);
    const removed = first.edges[0]!;
    assert.ok(before.dependencies.get(removed.from)?.has(removed.to));
    assert.equal(
      after.dependencies.get(removed.from)?.has(removed.to),
      first.edges.slice(1).some((edge) => edge.from === removed.from && edge.to === removed.to),
    );
  });

  test('a module added or renamed: its labels and folders are made again', () => {
    const before = new GraphIndex(first);
    const renamed = first.modules.map((module, n) => (n === 0 ? { ...module, id: `${module.id}-renamed` } : module));
    const after = new GraphIndex({ ...first, modules: renamed }, before);
    assert.notEqual(after.labels, before.labels);
    assert.notEqual(after.tree, before.tree);
    assert.ok(after.labels.has(`${first.modules[0]!.id}-renamed`));
    assert.ok(!after.labels.has(first.modules[0]!.id));
  });
});
