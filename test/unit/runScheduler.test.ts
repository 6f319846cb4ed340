import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DependencyGraph } from '../../server/src/engine/graph';
import {
  backoffDelay,
  type ExecutorOutcome,
  effectiveParallelism,
  ParallelismError,
  RunCycleError,
  type RunEvent,
  runScheduled,
} from '../../server/src/engine/run';

/**
 * The run scheduler with a fake executor (the terraform behaviours are tested against the real
 * binary in runPlans.test.ts): order, the parallelism bound, skips, cycles, cancellation, retries.
 */
function graphOf(edges: [string, string][], nodes: string[] = []): DependencyGraph {
  const graph = new DependencyGraph(nodes);
  for (const [from, to] of edges) graph.addEdge(from, to);
  return graph;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An executor that waits `durations[id]` ms (default 5) and fails the ids in `failing`; it records concurrency. */
function fakeExecutor(durations: Record<string, number> = {}, failing: string[] = []) {
  let running = 0;
  const record = { maxRunning: 0, calls: [] as string[] };
  const executor = async (id: string, signal: AbortSignal): Promise<ExecutorOutcome<string>> => {
    record.calls.push(id);
    running++;
    record.maxRunning = Math.max(record.maxRunning, running);
    try {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, durations[id] ?? 5);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      if (signal.aborted) return { ok: false, message: 'killed' };
      return failing.includes(id) ? { ok: false, message: `${id} broke` } : { ok: true, value: `${id} done` };
    } finally {
      running--;
    }
  };
  return { executor, record };
}

// network/vpc ← platform/eks ← app/api, network/vpc ← data/db ← app/api; tools/dns ← tools/app (unrelated)
const DIAMOND: [string, string][] = [
  ['platform/eks', 'network/vpc'],
  ['data/db', 'network/vpc'],
  ['app/api', 'platform/eks'],
  ['app/api', 'data/db'],
  ['tools/app', 'tools/dns'],
];

describe('run scheduler', () => {
  test('every module starts after all its dependencies ended, and no later than needed (no level barrier)', async () => {
    const graph = graphOf(DIAMOND);
    const { executor } = fakeExecutor({ 'network/vpc': 80, 'tools/dns': 5, 'tools/app': 5 });
    const run = await runScheduled({ graph, modules: graph.nodes(), executor, parallelism: 10 });
    const byId = new Map(run.results.map((result) => [result.id, result]));
    assert.equal(run.results.length, 6);
    assert.ok(run.results.every((result) => result.status === 'succeeded'));
    for (const [from, to] of DIAMOND)
      assert.ok(byId.get(from)!.start! >= byId.get(to)!.end!, `${from} started before ${to} ended`);
    // tools/app is on level 1 like platform/eks, but does not wait for network/vpc (level 0) to end.
    assert.ok(byId.get('tools/app')!.end! < byId.get('network/vpc')!.end!, 'tools/app waited for the slow level 0');
    assert.equal(byId.get('app/api')!.value, 'app/api done');
  });

  test('never more than `parallelism` at once, and that many when there is work', async () => {
    const graph = graphOf([], ['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    const { executor, record } = fakeExecutor(Object.fromEntries(graph.nodes().map((id) => [id, 20])));
    const events: RunEvent<string>[] = [];
    const run = await runScheduled({
      graph,
      modules: graph.nodes(),
      executor,
      parallelism: 3,
      onEvent: (e) => events.push(e),
    });
    assert.equal(record.maxRunning, 3);
    assert.equal(run.parallelism, 3);
    // From the recorded times: at no start were 3 others still running.
    for (const result of run.results) {
      const overlapping = run.results.filter((other) => other.start! <= result.start! && other.end! > result.start!);
      assert.ok(overlapping.length <= 3, `${overlapping.length} running when ${result.id} started`);
    }
    assert.equal(events.filter((e) => e.type === 'start').length, 7);
    assert.equal(events.filter((e) => e.type === 'finish').length, 7);
  });

  test('parallelism 0 means 10; a negative one is an error before anything runs', async () => {
    assert.equal(effectiveParallelism(0), 10);
    assert.equal(effectiveParallelism(undefined), 10);
    assert.equal(effectiveParallelism(4), 4);
    assert.throws(() => effectiveParallelism(1.5), ParallelismError);
    const graph = graphOf([], ['a']);
    const { executor, record } = fakeExecutor();
    await assert.rejects(runScheduled({ graph, modules: ['a'], executor, parallelism: -1 }), (error: unknown) => {
      assert.ok(error instanceof ParallelismError);
      assert.equal(error.message, 'parallelism must be a whole number of at least 0 (0 means the default, 10), not -1');
      return true;
    });
    assert.deepEqual(record.calls, []);
  });

  test('a failed module skips exactly its dependents, naming it; unrelated branches go on', async () => {
    const graph = graphOf(DIAMOND);
    const { executor, record } = fakeExecutor({}, ['platform/eks']);
    const run = await runScheduled({ graph, modules: graph.nodes(), executor });
    const status = Object.fromEntries(run.results.map((result) => [result.id, result.status]));
    assert.deepEqual(status, {
      'network/vpc': 'succeeded',
      'platform/eks': 'failed',
      'data/db': 'succeeded',
      'app/api': 'skipped',
      'tools/dns': 'succeeded',
      'tools/app': 'succeeded',
    });
    const api = run.results.find((result) => result.id === 'app/api')!;
    assert.equal(api.message, 'upstream dependencies failed: platform/eks');
    assert.deepEqual(api.attempts, []);
    assert.equal(api.start, undefined);
    assert.equal(run.results.find((result) => result.id === 'platform/eks')!.message, 'platform/eks broke');
    assert.ok(!record.calls.includes('app/api'));
  });

  test('a skip carries the failed module down a chain', async () => {
    const graph = graphOf([
      ['b', 'a'],
      ['c', 'b'],
    ]);
    const { executor } = fakeExecutor({}, ['a']);
    const run = await runScheduled({ graph, modules: graph.nodes(), executor });
    assert.equal(run.results.find((result) => result.id === 'c')!.message, 'upstream dependencies failed: a');
  });

  test('modules in a cycle are refused up front with the cycle path; a cycle outside the selection is not', async () => {
    const graph = graphOf([
      ['b', 'a'],
      ['c', 'b'],
      ['a', 'c'],
      ['d', 'a'],
      ['e', 'e'],
    ]);
    const { executor, record } = fakeExecutor();
    await assert.rejects(runScheduled({ graph, modules: graph.nodes(), executor }), (error: unknown) => {
      assert.ok(error instanceof RunCycleError);
      assert.deepEqual(error.cycles, [
        ['a', 'c', 'b', 'a'],
        ['e', 'e'],
      ]);
      assert.match(error.message, /circular dependency .*: a -> c -> b -> a; e -> e$/);
      return true;
    });
    assert.deepEqual(record.calls, []);
    const run = await runScheduled({ graph, modules: ['a', 'd'], executor });
    assert.deepEqual(run.results.map((result) => result.id).sort(), ['a', 'd']);
  });

  test('dependencies outside the selection are not run and do not hold anything up', async () => {
    const graph = graphOf(DIAMOND);
    const { executor, record } = fakeExecutor();
    await runScheduled({ graph, modules: ['app/api', 'data/db'], executor });
    assert.deepEqual(record.calls, ['data/db', 'app/api']);
  });

  test('cancelling stops the running modules (their signal aborts) and marks the rest cancelled', async () => {
    const graph = graphOf(DIAMOND);
    const { executor } = fakeExecutor({ 'network/vpc': 10_000, 'tools/dns': 10_000 });
    const controller = new AbortController();
    const running = runScheduled({
      graph,
      modules: graph.nodes(),
      executor,
      signal: controller.signal,
      parallelism: 2,
    });
    await sleep(30);
    controller.abort();
    const run = await running;
    assert.ok(run.cancelled);
    assert.ok(run.end - run.start < 5_000, 'the run ended promptly');
    const status = Object.fromEntries(run.results.map((result) => [result.id, result.status]));
    assert.deepEqual(status, {
      'network/vpc': 'cancelled',
      'platform/eks': 'cancelled',
      'data/db': 'cancelled',
      'app/api': 'cancelled',
      'tools/dns': 'cancelled',
      'tools/app': 'cancelled',
    });
    const vpc = run.results.find((result) => result.id === 'network/vpc')!;
    assert.equal(vpc.attempts.length, 1, 'the running one was started');
    assert.equal(run.results.find((result) => result.id === 'app/api')!.attempts.length, 0);
  });

  test('cancelling while modules wait for a slot cancels them without starting them', async () => {
    const graph = graphOf([], ['a', 'b', 'c']);
    const { executor, record } = fakeExecutor({ a: 10_000, b: 10_000, c: 10_000 });
    const controller = new AbortController();
    const running = runScheduled({
      graph,
      modules: graph.nodes(),
      executor,
      signal: controller.signal,
      parallelism: 1,
    });
    await sleep(20);
    controller.abort();
    const run = await running;
    assert.deepEqual(record.calls, ['a']);
    assert.deepEqual(run.results.map((result) => [result.id, result.status, result.attempts.length]).sort(), [
      ['a', 'cancelled', 1],
      ['b', 'cancelled', 0],
      ['c', 'cancelled', 0],
    ]);
  });

  test('retries: exponential backoff between attempts, each attempt recorded; a non-retryable failure is final', async () => {
    const graph = graphOf([['b', 'a']], ['c']);
    let aCalls = 0;
    const delays: number[] = [];
    const executor = async (id: string, _signal: AbortSignal, attempt: number): Promise<ExecutorOutcome<number>> => {
      if (id === 'a') {
        aCalls++;
        return attempt < 3 ? { ok: false, message: `transient ${attempt}` } : { ok: true, value: attempt };
      }
      if (id === 'c') return { ok: false, message: 'locked', retryable: false };
      return { ok: true, value: attempt };
    };
    const events: RunEvent<number>[] = [];
    const run = await runScheduled({
      graph,
      modules: graph.nodes(),
      executor,
      retries: 3,
      retryDelay: (attempt) => backoffDelay(attempt, { baseMs: 100, random: () => 0.5 }),
      sleep: async (ms) => {
        delays.push(ms);
        return true;
      },
      onEvent: (event) => events.push(event),
    });
    const a = run.results.find((result) => result.id === 'a')!;
    assert.equal(a.status, 'succeeded');
    assert.equal(aCalls, 3);
    assert.deepEqual(
      a.attempts.map(({ attempt, ok, message, delayMs }) => ({ attempt, ok, message, delayMs })),
      [
        { attempt: 1, ok: false, message: 'transient 1', delayMs: 0 },
        { attempt: 2, ok: false, message: 'transient 2', delayMs: 75 },
        { attempt: 3, ok: true, message: undefined, delayMs: 150 },
      ],
    );
    assert.deepEqual(delays, [75, 150]);
    assert.deepEqual(
      events.filter((event) => event.type === 'retry').map((event) => event.type === 'retry' && event.attempt),
      [2, 3],
    );
    const c = run.results.find((result) => result.id === 'c')!;
    assert.equal(c.status, 'failed');
    assert.equal(c.attempts.length, 1);
    assert.equal(run.results.find((result) => result.id === 'b')!.status, 'succeeded');
  });

  test('retries run out: the module fails with the last message', async () => {
    const graph = graphOf([], ['a']);
    const run = await runScheduled({
      graph,
      modules: ['a'],
      executor: async (_id, _signal, attempt) => ({ ok: false, message: `try ${attempt}` }),
      retries: 2,
      sleep: async () => true,
    });
    assert.equal(run.results[0]!.status, 'failed');
    assert.equal(run.results[0]!.message, 'try 3');
    assert.equal(run.results[0]!.attempts.length, 3);
  });

  test('backoff doubles up to the cap, with jitter between half and all of it', () => {
    assert.equal(backoffDelay(2, { baseMs: 1000, random: () => 0 }), 500);
    assert.equal(backoffDelay(3, { baseMs: 1000, random: () => 0.999999 }), 2000);
    assert.equal(backoffDelay(4, { baseMs: 1000, random: () => 0.5 }), 3000);
    assert.equal(backoffDelay(20, { baseMs: 1000, maxMs: 8000, random: () => 0 }), 4000);
  });

  test('an executor that throws is a failure, not a crash', async () => {
    const graph = graphOf([['b', 'a']]);
    const run = await runScheduled({
      graph,
      modules: graph.nodes(),
      executor: async (id) => {
        if (id === 'a') throw new Error('spawn ENOENT');
        return { ok: true, value: 1 };
      },
    });
    assert.deepEqual(
      run.results.map((result) => [result.id, result.status, result.message]),
      [
        ['a', 'failed', 'spawn ENOENT'],
        ['b', 'skipped', 'upstream dependencies failed: a'],
      ],
    );
  });

  test('when slots are short, the module holding up the longest chain starts first', async () => {
    // z has two modules after it; a and b none.
    const graph = graphOf(
      [
        ['y', 'z'],
        ['x', 'y'],
      ],
      ['a', 'b'],
    );
    const { executor, record } = fakeExecutor();
    await runScheduled({ graph, modules: graph.nodes(), executor, parallelism: 1 });
    assert.equal(record.calls[0], 'z');
  });
});
