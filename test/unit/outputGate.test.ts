import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DependencyGraph } from '../../server/src/engine/graph';
import {
  type GatedModule,
  type GateMode,
  type ModuleRunResult,
  type OutputChange,
  outputGate,
  type PlannedOutputs,
  runScheduled,
} from '../../server/src/engine/run';

/**
 * A plan of what a change reaches, decided per dependent from the outputs it reads (the scheduler with the
 * output gate and a fake executor; the real terraform is in planReach.test.ts): which modules plan, which are
 * unaffected, which wait for an upstream to apply, and why each.
 */
function graphOf(edges: [string, string][]): DependencyGraph {
  const graph = new DependencyGraph();
  for (const [from, to] of edges) graph.addEdge(from, to);
  return graph;
}

/** net ← api, net ← worker, api ← web, worker ← report */
const EDGES: [string, string][] = [
  ['api', 'net'],
  ['worker', 'net'],
  ['web', 'api'],
  ['report', 'worker'],
];

async function plan(
  outputs: Record<string, Record<string, OutputChange>>,
  gated: Record<string, { changed?: boolean; reads: Record<string, string[] | 'all' | 'unknown'> }>,
  mode: GateMode = 'plan',
): Promise<{ ran: string[]; results: Map<string, ModuleRunResult<PlannedOutputs>> }> {
  const ran: string[] = [];
  const modules = new Map<string, GatedModule>(
    Object.entries(gated).map(([id, module]) => [
      id,
      {
        changed: module.changed ?? false,
        reads: new Map(
          Object.entries(module.reads).map(([upstream, read]) => [
            upstream,
            read === 'all' || read === 'unknown' ? read : new Set(read),
          ]),
        ),
      },
    ]),
  );
  const result = await runScheduled<PlannedOutputs>({
    graph: graphOf(EDGES),
    modules: ['net', 'api', 'worker', 'web', 'report'],
    executor: async (id) => {
      ran.push(id);
      return { ok: true, value: { outputs: outputs[id] ?? {} } };
    },
    gate: outputGate(modules, mode),
  });
  return { ran: ran.sort(), results: new Map(result.results.map((r) => [r.id, r])) };
}

const DEPENDENTS = {
  api: { reads: { net: ['cidr', 'vpc_id'] } },
  worker: { reads: { net: ['subnet_ids'] } },
  web: { reads: { api: ['url'] } },
  report: { reads: { worker: ['queue'] } },
};

describe('what a change reaches, from the outputs each dependent reads', () => {
  test('an upstream change that alters no output: every dependent unaffected, none planned', async () => {
    const { ran, results } = await plan(
      { net: { cidr: 'unchanged', vpc_id: 'unchanged', subnet_ids: 'unchanged' } },
      { net: { changed: true, reads: {} }, ...DEPENDENTS },
    );
    assert.deepEqual(ran, ['net']);
    assert.equal(results.get('api')!.status, 'unaffected');
    assert.equal(results.get('api')!.message, 'reads cidr, vpc_id of net: unchanged in its plan');
    assert.equal(results.get('web')!.status, 'unaffected');
    assert.equal(results.get('web')!.message, 'api is unaffected');
    assert.equal(results.get('report')!.message, 'worker is unaffected');
  });

  test('an output read by one dependent and not another; a second hop waits too', async () => {
    const { ran, results } = await plan(
      { net: { cidr: 'changed', vpc_id: 'unchanged', subnet_ids: 'unchanged' } },
      { net: { changed: true, reads: {} }, ...DEPENDENTS },
    );
    assert.deepEqual(ran, ['net']);
    assert.equal(results.get('api')!.status, 'stale');
    assert.equal(results.get('api')!.message, 'after net applies: reads cidr (changed)');
    assert.equal(results.get('worker')!.status, 'unaffected');
    assert.equal(results.get('web')!.status, 'stale');
    assert.equal(results.get('web')!.message, 'after net applies: reads from api, which waits for it');
    assert.equal(results.get('report')!.status, 'unaffected');
  });

  test('known only after apply, added or removed: stale; a read of every output: any change; none: no change', async () => {
    const { results } = await plan(
      { net: { cidr: 'unknown', vpc_id: 'unchanged', subnet_ids: 'removed', extra: 'added' } },
      {
        net: { changed: true, reads: {} },
        api: { reads: { net: ['cidr'] } },
        worker: { reads: { net: 'all' } },
        web: { reads: { api: ['url'] } },
        report: { reads: { worker: [] } },
      },
    );
    assert.equal(results.get('api')!.message, 'after net applies: reads cidr (unknown)');
    assert.equal(
      results.get('worker')!.message,
      'after net applies: reads cidr (unknown), extra (added), subnet_ids (removed)',
    );
    assert.equal(results.get('report')!.status, 'unaffected', 'it only runs after worker');
    assert.equal(results.get('report')!.message, 'reads no output of worker');
  });

  test('a read whose output names are not known: planned when no output changes, stale when one does', async () => {
    const unchanged = await plan(
      { net: { cidr: 'unchanged', vpc_id: 'unchanged' } },
      { net: { changed: true, reads: {} }, ...DEPENDENTS, api: { reads: { net: 'unknown' } } },
    );
    assert.deepEqual(unchanged.ran, ['api', 'net']);
    assert.equal(unchanged.results.get('api')!.status, 'succeeded');
    const changed = await plan(
      { net: { cidr: 'changed', vpc_id: 'unchanged' } },
      { net: { changed: true, reads: {} }, ...DEPENDENTS, api: { reads: { net: 'unknown' } } },
    );
    assert.deepEqual(changed.ran, ['net']);
    assert.equal(
      changed.results.get('api')!.message,
      'after net applies: reads outputs named only at run time, and cidr (changed) changes',
    );
  });

  test('a dependent with a change of its own is planned, and marked stale when an upstream changes what it reads', async () => {
    const { ran, results } = await plan(
      { net: { cidr: 'changed', vpc_id: 'unchanged', subnet_ids: 'unchanged' }, api: { url: 'unchanged' } },
      { net: { changed: true, reads: {} }, ...DEPENDENTS, api: { changed: true, reads: { net: ['cidr'] } } },
    );
    assert.deepEqual(ran, ['api', 'net']);
    assert.equal(results.get('api')!.status, 'succeeded');
    assert.equal(results.get('api')!.stale, 'after net applies: reads cidr (changed)');
    assert.equal(results.get('web')!.status, 'stale', 'its plan of api reads the old cidr');
  });

  test('an upstream whose plan fails: its dependents are skipped as before', async () => {
    const result = await runScheduled<PlannedOutputs>({
      graph: graphOf(EDGES),
      modules: ['net', 'api', 'web'],
      executor: async (id) => (id === 'net' ? { ok: false, message: 'broke' } : { ok: true, value: { outputs: {} } }),
      gate: outputGate(new Map([['api', { changed: false, reads: new Map([['net', 'all' as const]]) }]])),
    });
    const byId = new Map(result.results.map((r) => [r.id, r]));
    assert.equal(byId.get('api')!.status, 'skipped');
    assert.equal(byId.get('api')!.message, 'upstream dependencies failed: net');
  });

  test('after applies: a dependent whose reads changed runs on the new values, a second hop decides from its apply', async () => {
    const { ran, results } = await plan(
      { net: { cidr: 'changed', vpc_id: 'unchanged', subnet_ids: 'unchanged' }, api: { url: 'unchanged' } },
      { net: { changed: true, reads: {} }, ...DEPENDENTS },
      'apply',
    );
    assert.deepEqual(ran, ['api', 'net']);
    assert.equal(results.get('api')!.status, 'succeeded');
    assert.equal(results.get('api')!.stale, undefined, 'nothing waits after an apply');
    assert.equal(results.get('worker')!.message, 'reads subnet_ids of net: unchanged by its apply');
    assert.equal(results.get('web')!.message, 'reads url of api: unchanged by its apply');
    assert.equal(results.get('report')!.message, 'worker is unaffected');
  });
});
