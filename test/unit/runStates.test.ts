import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  formatDuration,
  idColor,
  type ModuleOutcome,
  orderByDependencies,
  resultText,
  summaryRowModule,
} from '../../runner/src';
import { runStateLine } from '../../server/src/engine/features';
import { DependencyGraph } from '../../server/src/engine/graph';
import {
  deriveRunState,
  describeCounts,
  type ModuleRecord,
  type ModuleRunResult,
  type PlanRecord,
  selectModules,
  stalePlanReason,
  summarizePlanJson,
  UnknownModuleError,
} from '../../server/src/engine/run';

/** The pure parts of Run Plans: run states, plan summaries, selections and what the terminal prints. */
const T0 = Date.parse('2025-06-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const counts = (add: number, change: number, destroy: number) => ({ add, change, destroy, import: 0, outputs: 0 });

function plan(overrides: Partial<PlanRecord> = {}): PlanRecord {
  return {
    time: at(0),
    runId: 'r1',
    kind: 'plan',
    commit: 'c1',
    exitCode: 2,
    planFile: '.terrace/runs/r1/a/plan.tfplan',
    checksum: 'sum1',
    counts: counts(1, 0, 0),
    fingerprint: 'f1',
    logFile: '.terrace/runs/r1/a/terraform.log',
    ...overrides,
  };
}

describe('run states', () => {
  const now = { fingerprint: 'f1', now: T0 + 60_000 };

  test('never planned, failed, stopped, files changed: PlanNeeded with the reason', () => {
    assert.deepEqual(deriveRunState(undefined, now), { state: 'PlanNeeded', reason: 'never planned' });
    assert.equal(deriveRunState({ lastPlan: plan({ exitCode: 1 }) }, now).reason, 'the last plan failed');
    assert.equal(deriveRunState({ lastPlan: plan({ exitCode: null }) }, now).reason, 'the last plan was stopped');
    const changed = deriveRunState({ lastPlan: plan() }, { ...now, fingerprint: 'f2' });
    assert.deepEqual([changed.state, changed.reason], ['PlanNeeded', 'files changed since the last plan']);
  });

  test('changes not applied: ApplyNeeded with the counts; applied or none: Idle', () => {
    const pending = deriveRunState({ lastPlan: plan() }, now);
    assert.deepEqual(pending, {
      state: 'ApplyNeeded',
      reason: '1 to add, 0 to change, 0 to destroy',
      plannedAt: at(0),
      counts: counts(1, 0, 0),
    });
    const applied: ModuleRecord = {
      lastPlan: plan(),
      lastApply: { time: at(1), runId: 'r2', planChecksum: 'sum1', exitCode: 0, logFile: 'x' },
    };
    assert.deepEqual(
      [deriveRunState(applied, now).state, deriveRunState(applied, now).reason],
      ['Idle', 'plan applied'],
    );
    const failedApply: ModuleRecord = { ...applied, lastApply: { ...applied.lastApply!, exitCode: 1 } };
    assert.equal(deriveRunState(failedApply, now).state, 'ApplyNeeded');
    assert.equal(
      deriveRunState({ lastPlan: plan({ exitCode: 0, counts: counts(0, 0, 0) }) }, now).reason,
      'no changes',
    );
    const drifted = deriveRunState({ lastPlan: plan({ kind: 'drift', drifted: true, counts: counts(0, 1, 0) }) }, now);
    assert.deepEqual(
      [drifted.state, drifted.reason, drifted.drifted],
      ['ApplyNeeded', 'drifted: 0 to add, 1 to change, 0 to destroy', true],
    );
  });

  test('a dependency applied after the plan, or a plan older than the maximum age: PlanNeeded', () => {
    const dependency: ModuleRecord = {
      lastApply: { time: at(5), runId: 'r3', planChecksum: 'x', exitCode: 0, logFile: 'x' },
    };
    const record = { lastPlan: plan({ exitCode: 0 }) };
    assert.equal(
      deriveRunState(record, { ...now, dependencies: [{ id: 'network/vpc', record: dependency }] }).reason,
      'network/vpc applied since the last plan',
    );
    const earlier = { lastApply: { ...dependency.lastApply!, time: at(-5) } };
    assert.equal(
      deriveRunState(record, { ...now, dependencies: [{ id: 'network/vpc', record: earlier }] }).state,
      'Idle',
    );
    assert.equal(
      deriveRunState(record, { fingerprint: 'f1', now: T0 + 25 * 3_600_000, planMaxAgeMs: 24 * 3_600_000 }).reason,
      'the last plan is older than 24 h',
    );
    assert.equal(
      deriveRunState(record, { fingerprint: 'f1', now: T0 + 25 * 3_600_000 }).state,
      'Idle',
      'no limit by default',
    );
  });

  test('a saved plan may be applied only while checksum, commit, files and age match', () => {
    const current = { fingerprint: 'f1', commit: 'c1', planChecksum: 'sum1' };
    const record = { lastPlan: plan() };
    assert.equal(stalePlanReason(record, current), undefined);
    assert.equal(stalePlanReason(undefined, current), 'never planned');
    assert.equal(stalePlanReason({ lastPlan: plan({ exitCode: 0 }) }, current), 'the last plan has no changes');
    assert.equal(stalePlanReason(record, { ...current, planChecksum: undefined }), 'the saved plan file is gone');
    assert.equal(
      stalePlanReason(record, { ...current, planChecksum: 'other' }),
      'the saved plan file changed since it was made (checksum)',
    );
    assert.equal(
      stalePlanReason(record, { ...current, commit: 'c2c2c2c2c2c2' }),
      'the commit changed since the plan (c1 → c2c2c2c2)',
    );
    assert.equal(
      stalePlanReason(record, { ...current, fingerprint: 'f2' }),
      'the module’s files changed since the plan',
    );
    assert.equal(
      stalePlanReason(record, { ...current, planMaxAgeMs: 3_600_000, now: T0 + 2 * 3_600_000 }),
      'the plan is older than 1 h',
    );
    const applied = {
      ...record,
      lastApply: { time: at(1), runId: 'r2', planChecksum: 'sum1', exitCode: 0, logFile: 'x' },
    };
    assert.equal(stalePlanReason(applied, current), 'the saved plan was applied already');
  });

  test('the hover line', () => {
    const line = runStateLine(deriveRunState({ lastPlan: plan() }, now), T0 + 5 * 60_000);
    assert.equal(line, 'Run state: **ApplyNeeded** — 1 to add, 0 to change, 0 to destroy · planned 5 min ago');
    const running = runStateLine(
      {
        state: 'PlanNeeded',
        reason: 'never planned',
        running: { pid: 42, hostname: 'h', command: 'terrace plan', since: at(0) },
      },
      T0,
    );
    assert.equal(running, 'Run state: **PlanNeeded** — never planned · running now (terrace plan, pid 42)');
  });

  test("a run's gate decided it: unaffected keeps its plan current past an upstream apply; stale needs a plan", () => {
    const upstream: ModuleRecord = {
      lastApply: { time: at(5), runId: 'r3', planChecksum: 'x', exitCode: 0, logFile: 'x' },
    };
    const dependencies = [{ id: 'network/vpc', record: upstream }];
    const unaffected = {
      time: at(6),
      runId: 'r3',
      status: 'unaffected' as const,
      reason: 'reads vpc_id of network/vpc: unchanged by its apply',
      fingerprint: 'f1',
    };
    const record: ModuleRecord = { lastPlan: plan({ exitCode: 0 }), lastDecision: unaffected };
    const state = deriveRunState(record, { ...now, dependencies });
    assert.deepEqual([state.state, state.reason], ['Idle', 'no changes']);
    assert.deepEqual(state.decided, { status: 'unaffected', reason: unaffected.reason, at: at(6) });
    assert.equal(
      runStateLine(state, T0 + 10 * 60_000),
      'Run state: **Idle** — no changes · planned 10 min ago\n\nUnaffected 4 min ago, not run: reads vpc_id of network/vpc: unchanged by its apply',
    );
    // Decided before the upstream applied (from its plan), or on other files: the apply counts again.
    const before = { ...record, lastDecision: { ...unaffected, time: at(4) } };
    assert.equal(deriveRunState(before, { ...now, dependencies }).reason, 'network/vpc applied since the last plan');
    const edited = deriveRunState(record, { ...now, fingerprint: 'f2', dependencies });
    assert.deepEqual([edited.reason, edited.decided], ['files changed since the last plan', undefined]);
    // A plan after the decision is what counts.
    const replanned = deriveRunState({ ...record, lastPlan: plan({ exitCode: 0, time: at(7) }) }, now);
    assert.equal(replanned.decided, undefined);

    const stale = deriveRunState(
      {
        lastPlan: plan({ exitCode: 0 }),
        lastDecision: { ...unaffected, status: 'stale', reason: 'after network/vpc applies: reads cidr (changed)' },
      },
      now,
    );
    assert.deepEqual(
      [stale.state, stale.reason],
      ['PlanNeeded', 'stale after network/vpc applies: reads cidr (changed)'],
    );
  });
});

describe('plan summaries', () => {
  test('counts as Terraform prints them: a replacement is an add and a destroy; reads and no-ops do not count', () => {
    const summary = summarizePlanJson(
      JSON.stringify({
        resource_changes: [
          { address: 'terraform_data.b', change: { actions: ['create'] } },
          { address: 'terraform_data.a', change: { actions: ['delete', 'create'] } },
          { address: 'terraform_data.c', change: { actions: ['update'] } },
          { address: 'terraform_data.d', change: { actions: ['no-op'] } },
          { address: 'data.x.y', change: { actions: ['read'] } },
          { address: 'terraform_data.e', change: { actions: ['delete'] } },
          { address: 'terraform_data.f', change: { actions: ['no-op'], importing: { id: 'i' } } },
        ],
        output_changes: { a: { actions: ['update'] }, b: { actions: ['no-op'] } },
      }),
    );
    assert.deepEqual(summary.counts, { add: 2, change: 1, destroy: 2, import: 1, outputs: 1 });
    assert.deepEqual(
      summary.resources.map((r) => r.address),
      ['terraform_data.a', 'terraform_data.b', 'terraform_data.c', 'terraform_data.e'],
    );
    assert.equal(describeCounts(summary.counts), '2 to add, 1 to change, 2 to destroy, 1 to import');
    assert.equal(
      describeCounts({ add: 0, change: 0, destroy: 0, import: 0, outputs: 2 }),
      'changes to outputs only (2)',
    );
    assert.equal(describeCounts(counts(0, 0, 0)), 'no changes');
  });
});

describe('run selections', () => {
  const graph = new DependencyGraph(['tools/x']);
  graph.addEdge('app/api', 'platform/eks');
  graph.addEdge('platform/eks', 'network/vpc');
  graph.addEdge('app/worker', 'app/api');

  test('all, one module, with dependencies, with dependents', () => {
    assert.equal(selectModules(graph).length, 5);
    assert.deepEqual(selectModules(graph, { modules: ['app/api'] }), ['app/api']);
    assert.deepEqual(selectModules(graph, { modules: ['app/api'], withDependencies: true }), [
      'app/api',
      'network/vpc',
      'platform/eks',
    ]);
    assert.deepEqual(selectModules(graph, { modules: ['platform/eks'], withDependents: true }), [
      'app/api',
      'app/worker',
      'platform/eks',
    ]);
  });

  test('an unknown id is an error with a hint', () => {
    assert.throws(
      () => selectModules(graph, { modules: ['eks'] }),
      (error: unknown) => {
        assert.ok(error instanceof UnknownModuleError);
        assert.equal(error.message, "no such module: 'eks' (did you mean 'platform/eks'?)");
        return true;
      },
    );
  });
});

describe('what the terminal prints', () => {
  const outcome = (value: Partial<ModuleOutcome>): ModuleOutcome => ({
    kind: 'plan',
    exitCode: 2,
    changes: true,
    logFile: 'x',
    initRan: false,
    ...value,
  });
  const result = (status: ModuleRunResult<ModuleOutcome>['status'], extra = {}): ModuleRunResult<ModuleOutcome> => ({
    id: 'a',
    status,
    attempts: [],
    ...extra,
  });

  test('result words per run kind', () => {
    const changed = result('succeeded', { value: outcome({ counts: counts(1, 2, 3) }) });
    assert.equal(resultText('plan', changed), '1 to add, 2 to change, 3 to destroy');
    assert.equal(resultText('apply', changed), 'applied: 1 added, 2 changed, 3 destroyed');
    assert.equal(
      resultText('drift', result('succeeded', { value: outcome({ drifted: true, counts: counts(0, 1, 0) }) })),
      'drifted: 0 to add, 1 to change, 0 to destroy',
    );
    assert.equal(
      resultText(
        'drift',
        result('succeeded', { value: outcome({ changes: false, drifted: false, counts: counts(0, 0, 0) }) }),
      ),
      'no drift',
    );
    assert.equal(
      resultText('plan', result('skipped', { message: 'upstream dependencies failed: b' })),
      'skipped: upstream dependencies failed: b',
    );
    assert.equal(
      resultText('plan', result('failed', { message: 'terraform plan exited 1' })),
      'failed: terraform plan exited 1',
    );
    assert.equal(resultText('plan', result('cancelled')), 'cancelled');
  });

  test('a summary row names its module (with or without colours); other lines do not', () => {
    const ids = new Set(['network/vpc', 'app/api']);
    assert.deepEqual(summaryRowModule('  network/vpc   no changes      0.4s', ids), { id: 'network/vpc', start: 2 });
    assert.deepEqual(summaryRowModule('  \u001b[36mapp/api\u001b[0m       \u001b[32mno changes\u001b[0m  0.4s', ids), {
      id: 'app/api',
      start: 2,
    });
    assert.equal(summaryRowModule('  Module        Result', ids), undefined);
    assert.equal(summaryRowModule('network/vpc │ Plan: 1 to add', ids), undefined);
    assert.equal(summaryRowModule('  other/mod   no changes', ids), undefined);
  });

  test('rows in dependency order; a stable colour per id; durations', () => {
    assert.deepEqual(
      orderByDependencies([
        { id: 'app/api', dir: '', sourceDirs: [], dependencies: ['platform/eks', 'outside'] },
        { id: 'platform/eks', dir: '', sourceDirs: [], dependencies: ['network/vpc'] },
        { id: 'network/vpc', dir: '', sourceDirs: [], dependencies: [] },
        { id: 'tools/x', dir: '', sourceDirs: [], dependencies: [] },
      ]),
      ['network/vpc', 'tools/x', 'platform/eks', 'app/api'],
    );
    assert.equal(idColor('network/vpc'), idColor('network/vpc'));
    assert.ok(new Set(['a', 'b', 'c', 'd', 'e', 'f'].map(idColor)).size > 1);
    assert.equal(formatDuration(1234), '1.2s');
    assert.equal(formatDuration(125_000), '2m 05s');
  });
});
