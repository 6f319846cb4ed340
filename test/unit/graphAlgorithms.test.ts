import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  closure,
  cyclePath,
  cyclicComponents,
  DependencyGraph,
  levelLists,
  numberedLevels,
} from '../../server/src/engine/graph';
import { seededRandom } from '../seededRandom';

/** The levels as sorted lists; throws when the graph has a cycle not among `cyclic`. */
function levelsOf(graph: DependencyGraph, cyclic: readonly string[][]): string[][] {
  const levels = numberedLevels(graph, cyclic);
  if (!levels) throw new Error('a cycle that was not given');
  return levelLists(graph, levels);
}

function graphOf(edges: [string, string][], nodes: string[] = []): DependencyGraph {
  const graph = new DependencyGraph(nodes);
  for (const [from, to] of edges) graph.addEdge(from, to);
  return graph;
}

describe('cycles', () => {
  test('a DAG has none', () => {
    assert.deepEqual(
      cyclicComponents(
        graphOf([
          ['app', 'vpc'],
          ['eks', 'vpc'],
          ['app', 'eks'],
        ]),
      ),
      [],
    );
  });

  test('a 3-cycle is one component, its path starts at the smallest id and follows the edges', () => {
    const graph = graphOf([
      ['vpc', 'eks'],
      ['eks', 'app'],
      ['app', 'vpc'],
      ['dns', 'vpc'],
    ]);
    const components = cyclicComponents(graph);
    assert.deepEqual(components, [['app', 'eks', 'vpc']]);
    assert.deepEqual(cyclePath(graph, components[0]!), ['app', 'vpc', 'eks', 'app']);
  });

  test('a self-reference is a cycle of one', () => {
    const graph = graphOf([
      ['a', 'a'],
      ['b', 'a'],
    ]);
    const components = cyclicComponents(graph);
    assert.deepEqual(components, [['a']]);
    assert.deepEqual(cyclePath(graph, components[0]!), ['a', 'a']);
  });

  test('two separate cycles are both found, sorted', () => {
    const graph = graphOf([
      ['x', 'y'],
      ['y', 'x'],
      ['b', 'c'],
      ['c', 'b'],
      ['c', 'x'],
    ]);
    assert.deepEqual(cyclicComponents(graph), [
      ['b', 'c'],
      ['x', 'y'],
    ]);
  });

  test('a long chain does not overflow the stack', () => {
    const edges: [string, string][] = [];
    for (let i = 0; i < 50_000; i++) edges.push([`m${i}`, `m${i + 1}`]);
    edges.push(['m50000', 'm0']);
    const components = cyclicComponents(graphOf(edges));
    assert.equal(components.length, 1);
    assert.equal(components[0]!.length, 50_001);
  });
});

describe('execution levels', () => {
  test("Kahn's levels: level 0 has no dependencies, each module one above its highest dependency", () => {
    const graph = graphOf(
      [
        ['dns', 'vpc'],
        ['eks', 'vpc'],
        ['app', 'eks'],
        ['app', 'dns'],
        ['api', 'app'],
      ],
      ['solo'],
    );
    assert.deepEqual(levelsOf(graph, []), [['solo', 'vpc'], ['dns', 'eks'], ['app'], ['api']]);
  });

  test('a cycle shares one level above its outside dependencies, its dependents come after', () => {
    const graph = graphOf([
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'a'],
      ['a', 'base'],
      ['top', 'c'],
    ]);
    assert.deepEqual(levelsOf(graph, cyclicComponents(graph)), [['base'], ['a', 'b', 'c'], ['top']]);
  });

  test('without the cycles given, a cycle or a self-reference is detected rather than mislevelled', () => {
    assert.equal(
      numberedLevels(
        graphOf([
          ['a', 'b'],
          ['b', 'a'],
        ]),
        [],
      ),
      undefined,
    );
    assert.equal(numberedLevels(graphOf([['a', 'a']]), []), undefined);
    assert.deepEqual(levelsOf(graphOf([['a', 'b']]), []), [['b'], ['a']]);
    assert.throws(
      () =>
        levelsOf(
          graphOf([
            ['a', 'b'],
            ['b', 'a'],
          ]),
          [],
        ),
      /a cycle that was not given/,
    );
  });

  test('a self-reference does not lift a module', () => {
    const graph = graphOf([['a', 'a']], ['b']);
    assert.deepEqual(levelsOf(graph, cyclicComponents(graph)), [['a', 'b']]);
  });
});

describe('numbered graphs', () => {
  test('a graph made from numbered lists answers by id and number, and copies before a change', () => {
    const ids = ['a', 'b', 'c'];
    const numbers = new Map(ids.map((id, n) => [id, n]));
    const lists = [[1, 2], [2], []];
    const graph = DependencyGraph.fromNumbered(ids, numbers, lists);
    assert.deepEqual(graph.dependencies('a'), ['b', 'c']);
    assert.deepEqual([...graph.dependents('c')], ['a', 'b']);
    assert.deepEqual([...graph.dependentNumbers(1)], [0]);
    assert.deepEqual(levelsOf(graph, []), [['c'], ['b'], ['a']]);
    graph.addEdge('c', 'd');
    assert.deepEqual(graph.dependencies('c'), ['d']);
    assert.deepEqual([...graph.dependents('d')], ['c']);
    assert.deepEqual(ids, ['a', 'b', 'c'], "the maker's ids are untouched");
    assert.equal(numbers.has('d'), false, "the maker's numbers are untouched");
    assert.deepEqual(lists, [[1, 2], [2], []], "the maker's lists are untouched");
  });

  test('levels on random graphs equal the longest path to a module with no dependencies, cycles condensed', () => {
    const random = seededRandom(3);
    for (let round = 0; round < 200; round++) {
      const size = 1 + Math.floor(random() * 12);
      const ids = Array.from({ length: size }, (_, n) => `m${String(n).padStart(2, '0')}`);
      const edges: [string, string][] = [];
      for (let e = Math.floor(random() * size * 2); e > 0; e--) {
        edges.push([ids[Math.floor(random() * size)]!, ids[Math.floor(random() * size)]!]);
      }
      const graph = graphOf(edges, ids);
      const cycles = cyclicComponents(graph);
      assert.equal(numberedLevels(graph, []) === undefined, cycles.length > 0, `round ${round}: a DAG or not`);
      const levels = numberedLevels(graph, cycles)!;
      // The reference: a module's unit (its cycle, or itself) sits one above its highest dependency outside the unit.
      const unitOf = new Map(ids.map((id) => [id, cycles.find((cycle) => cycle.includes(id)) ?? [id]]));
      const expected = new Map<string, number>();
      const levelOf = (id: string): number => {
        const known = expected.get(id);
        if (known !== undefined) return known;
        const unit = unitOf.get(id)!;
        let level = 0;
        for (const member of unit) {
          for (const dep of graph.dependencies(member))
            if (!unit.includes(dep)) level = Math.max(level, levelOf(dep) + 1);
        }
        for (const member of unit) expected.set(member, level);
        return level;
      };
      assert.deepEqual(
        ids.map((id) => levels[graph.numberOf(id)!]),
        ids.map(levelOf),
        `round ${round}: ${JSON.stringify(edges)}`,
      );
    }
  });
});

describe('closure', () => {
  const graph = graphOf([
    ['app', 'eks'],
    ['eks', 'vpc'],
    ['dns', 'vpc'],
    ['api', 'app'],
  ]);
  test('upstream: everything a module needs first', () => {
    assert.deepEqual([...closure(graph, ['app'], 'upstream')].sort(), ['app', 'eks', 'vpc']);
  });
  test('downstream: everything a change affects', () => {
    assert.deepEqual([...closure(graph, ['vpc'], 'downstream')].sort(), ['api', 'app', 'dns', 'eks', 'vpc']);
  });
  test('unknown modules are ignored', () => {
    assert.deepEqual([...closure(graph, ['nope'], 'downstream')], []);
  });
});
