import * as assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { foldedAt } from '../../webview/src/firstView';
import { FolderTree } from '../../webview/src/folderTree';
import { GraphIndex } from '../../webview/src/graphIndex';
import { buildView } from '../../webview/src/viewModel';
import { synthetic } from './graphModels';
import { panelOfModel } from './panelOfModel';

describe('the folders of a graph’s modules, for folding', () => {
  const ids = [
    'live/dev/eu-west-1/network/vpc',
    'live/dev/eu-west-1/network/dns',
    'live/dev/eu-west-1/app',
    'live/dev/eu-west-1/app/api',
    'live/dev/us-east-1/network/vpc',
    'live/prod/eu-west-1/db',
  ];
  const tree = new FolderTree(ids);

  test('depths count from the first folder that tells modules apart; each folder knows how many it holds', () => {
    assert.equal(tree.sharedDepth, 1);
    assert.equal(tree.maxDepth, 3);
    assert.deepEqual(
      [
        'live/dev',
        'live/dev/eu-west-1',
        'live/dev/eu-west-1/network',
        'live/dev/eu-west-1/app',
        'live/prod',
        'live',
      ].map((folder) => tree.size(folder)),
      [5, 4, 2, 2, 1, 0],
    );
  });

  test('a module’s folder at a depth, itself when it is not that deep', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 9].map((depth) => tree.folderAt('live/dev/eu-west-1/network/vpc', depth)),
      [
        'live/dev',
        'live/dev/eu-west-1',
        'live/dev/eu-west-1/network',
        'live/dev/eu-west-1/network/vpc',
        'live/dev/eu-west-1/network/vpc',
      ],
    );
    assert.equal(tree.folderAt('live/prod/eu-west-1/db', 1), 'live/prod');
  });

  test('the graph folded at a depth, what unfolding a folder folds, and the outermost fold of a module', () => {
    assert.deepEqual(tree.foldsAt(1), ['live/dev']);
    assert.deepEqual(tree.foldsAt(2), ['live/dev/eu-west-1']);
    assert.deepEqual(tree.childFolds('live/dev/eu-west-1'), ['live/dev/eu-west-1/app', 'live/dev/eu-west-1/network']);
    const folded = new Set(['live/dev/eu-west-1/network', 'live/dev/eu-west-1']);
    assert.equal(tree.foldOf('live/dev/eu-west-1/network/dns', folded), 'live/dev/eu-west-1');
    assert.equal(tree.foldOf('live/dev/us-east-1/network/vpc', folded), null);
    assert.equal(tree.foldOf('live/dev/eu-west-1/app', new Set(['live/dev/eu-west-1/app'])), 'live/dev/eu-west-1/app');
    assert.equal(tree.foldOf('live/dev/eu-west-1/app', new Set()), null);
  });

  test('a workspace whose only module is its folder, and ids with nothing shared', () => {
    const flat = new FolderTree(['.', 'a', 'b/c', 'b/d/e']);
    assert.deepEqual([flat.sharedDepth, flat.maxDepth, flat.size('b'), flat.size('.')], [0, 1, 2, 0]);
    assert.deepEqual([flat.folderAt('b/d/e', 1), flat.folderAt('.', 1), flat.folderAt('a', 2)], ['b', '.', 'a']);
    assert.equal(flat.foldOf('.', new Set(['.'])), '.');
  });

  test('how many nodes a folded graph draws, counted without building its view', () => {
    assert.equal(tree.foldedNodes(new Set()), ids.length);
    // The app module is its folder's module too: one node with its api.
    assert.equal(tree.foldedNodes(new Set(['live/dev/eu-west-1/app', 'live/dev/eu-west-1/network'])), 4);
    assert.equal(tree.foldedNodes(new Set(['live/dev/eu-west-1', 'live/dev/eu-west-1/network'])), 3);
    const index = new GraphIndex(panelOfModel(synthetic(1000)));
    for (let depth = 1; depth <= index.tree.maxDepth; depth++) {
      const view = foldedAt(index, depth);
      assert.equal(
        index.tree.foldedNodes(new Set(view.collapsed)),
        buildView(index, view).nodes.length,
        `depth ${depth}`,
      );
    }
  });
});
