import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { LayoutQueue } from '../../client/src/layoutQueue';
import { type Layout, type LayoutInput, shapeKey } from '../../webview/src/layoutGraph';

/** A view of one node, `id`: its shape tells the jobs apart. */
function input(id: string): LayoutInput {
  return { nodes: [{ id, column: 0 }], edges: [] };
}

/** Makes layouts when told to, one at a time, noting the order and how many ran at once. */
function maker() {
  const order: string[] = [];
  const waiting: (() => void)[] = [];
  let running = 0;
  let most = 0;
  const make = (layoutInput: LayoutInput): Promise<Layout> => {
    running++;
    most = Math.max(most, running);
    order.push(layoutInput.nodes[0]!.id);
    return new Promise((resolve) =>
      waiting.push(() => {
        running--;
        resolve({
          nodes: {},
          edges: {},
          bands: {},
          columns: [],
          levelColumn: [],
          nodeWidth: 200,
          direction: 'right',
          width: 0,
          height: 0,
          ms: 0,
        });
      }),
    );
  };
  const finishAll = async () => {
    while (waiting.length > 0 || running > 0) {
      waiting.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { make, order, finishAll, most: () => most };
}

test('the layout queue makes one layout at a time, a page’s request before those made ahead', async () => {
  const { make, order, finishAll, most } = maker();
  const queue = new LayoutQueue(make);
  const made = [
    queue.add(input('ahead-1'), false),
    queue.add(input('ahead-2'), false),
    queue.add(input('ahead-3'), false),
    queue.add(input('page'), true),
  ];
  await finishAll();
  await Promise.all(made);
  assert.deepEqual(order, ['ahead-1', 'page', 'ahead-2', 'ahead-3']);
  assert.equal(most(), 1, 'never two at once');
});

test('a view laid out ahead that a page now asks for is made next', async () => {
  const { make, order, finishAll } = maker();
  const queue = new LayoutQueue(make);
  const made = ['ahead-1', 'ahead-2', 'ahead-3'].map((id) => queue.add(input(id), false));
  queue.hurry(shapeKey(input('ahead-3')));
  await finishAll();
  await Promise.all(made);
  assert.deepEqual(order, ['ahead-1', 'ahead-3', 'ahead-2']);
});
