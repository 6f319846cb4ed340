import { compareIds, cyclePath, cyclicComponents, type Dependencies, type DependencyGraph, subgraph } from '../graph';

/**
 * Runs an operation (a plan, an apply) over many modules in dependency order, the way Terraform's
 * `internal/dag` walker runs its vertices, one level up:
 *
 * - each module is a promise that awaits its own dependencies and nothing else (no barrier at
 *   level boundaries): it starts as soon as every dependency it has in the selection succeeded;
 * - a semaphore held here, outside the executor, bounds how many run at once (`-parallelism`);
 * - when a dependency failed, the module does not run and reports "upstream dependencies
 *   failed: <the failed modules>"; unrelated branches go on;
 * - with a `gate`, a module whose dependencies are done may finish without running: `unaffected`
 *   (nothing it reads changes) or `stale` (what it reads changes only once an upstream applies);
 * - modules in a cycle are refused before anything starts, with the cycle's path;
 * - aborting the signal lets running executors stop (they get the same signal) and marks every
 *   module that has not finished as cancelled;
 * - opt-in retries with exponential backoff and jitter, each attempt recorded.
 *
 * Pure: no I/O, no timers except the retry delay (injectable); the executor does the work.
 * Dependencies outside the selection count as satisfied (they are not run).
 */

/** Terraform's default `-parallelism`, also what 0 means. */
export const DEFAULT_PARALLELISM = 10;

/** A parallelism that is not a whole number ≥ 0. */
export class ParallelismError extends Error {}

/** The selection has cycles: there is no order to run them in. */
export class RunCycleError extends Error {
  constructor(
    /** Each cycle as a closed path, `["a", "b", "a"]`. */
    readonly cycles: string[][],
  ) {
    super(
      `circular dependency between the modules to run, so none was run: ${cycles.map((cycle) => cycle.join(' -> ')).join('; ')}`,
    );
  }
}

/** `-parallelism` as Terraform reads it: 0 (or nothing) means 10, a negative number is an error. */
export function effectiveParallelism(value: number | undefined): number {
  if (value === undefined || value === 0) return DEFAULT_PARALLELISM;
  if (!Number.isInteger(value) || value < 0)
    throw new ParallelismError(
      `parallelism must be a whole number of at least 0 (0 means the default, ${DEFAULT_PARALLELISM}), not ${value}`,
    );
  return value;
}

/** What the scheduler reads of a graph: a module's direct dependencies (`DependencyGraph` fits). */
export type RunGraph = Dependencies;

/** What an executor reports for one attempt. */
export type ExecutorOutcome<T> =
  | { ok: true; value: T }
  /** `retryable: false` for failures another attempt cannot fix (e.g. the module is locked by someone else). */
  | { ok: false; message: string; value?: T; retryable?: boolean };

/**
 * Runs one module; `attempt` counts from 1. It should stop promptly when `signal` aborts. `ranFor`: why its gate
 * runs it, when the gate says (an upstream's apply changed what it reads).
 */
export type Executor<T> = (
  id: string,
  signal: AbortSignal,
  attempt: number,
  ranFor?: string,
) => Promise<ExecutorOutcome<T>>;

/**
 * `skipped`: a dependency failed. `unaffected`: not run, as nothing it reads changes (its gate said so).
 * `stale`: not run, as what it reads changes only once a module upstream applies (its gate said so).
 */
export type ModuleRunStatus = 'succeeded' | 'failed' | 'skipped' | 'cancelled' | 'unaffected' | 'stale';

/**
 * What a gate says of a module whose dependencies are done: finish it without running (`skip`), run it and mark
 * it stale (`stale`: its plan reads values that change once an upstream applies), or run it for a reason
 * (`run`: an upstream's apply changed what it reads).
 */
export type GateDecision = { skip: 'unaffected' | 'stale'; reason: string } | { stale: string } | { run: string };

export interface AttemptRecord {
  /** From 1. */
  attempt: number;
  start: number;
  end: number;
  ok: boolean;
  message?: string;
  /** The backoff waited before this attempt (0 for the first). */
  delayMs: number;
}

export interface ModuleRunResult<T> {
  id: string;
  status: ModuleRunStatus;
  /** When the first attempt started; undefined when it never ran. */
  start?: number;
  /** When the last attempt ended. */
  end?: number;
  attempts: AttemptRecord[];
  /** The last attempt's value. */
  value?: T;
  /** Why it failed, was skipped or cancelled. */
  message?: string;
  /** For a skipped module: the failed modules upstream of it, sorted. */
  upstreamFailed?: string[];
  /** A module that ran though a module upstream changes what it reads (its gate's `stale`): why its result is stale. */
  stale?: string;
}

export type RunEvent<T> =
  | { type: 'start'; id: string; attempt: number; time: number; ranFor?: string }
  | { type: 'retry'; id: string; attempt: number; delayMs: number; message: string }
  | { type: 'finish'; result: ModuleRunResult<T> };

export interface RunOptions<T> {
  graph: RunGraph;
  /** The modules to run; dependencies outside this set are not run and count as satisfied. */
  modules: Iterable<string>;
  executor: Executor<T>;
  /** As Terraform's `-parallelism`: 0 or undefined = 10; negative is a `ParallelismError`. */
  parallelism?: number;
  signal?: AbortSignal;
  /** Extra attempts after a failure (0 = none, the default). */
  retries?: number;
  /** The wait before attempt `attempt` (≥ 2); by default `backoffDelay`. */
  retryDelay?: (attempt: number) => number;
  /** Waits `ms`, resolving early (to false) when `signal` aborts; a timer by default. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<boolean>;
  now?: () => number;
  /** Called synchronously as modules start, retry and finish. */
  onEvent?: (event: RunEvent<T>) => void;
  /**
   * Asked of each module once its dependencies in the run are done, none failed or cancelled, with their
   * results: undefined runs it (see `GateDecision`).
   */
  gate?: (id: string, upstream: readonly ModuleRunResult<T>[]) => GateDecision | undefined;
}

export interface RunResult<T> {
  /** One per selected module, in the order they finished (skipped and cancelled ones included). */
  results: ModuleRunResult<T>[];
  parallelism: number;
  start: number;
  end: number;
  cancelled: boolean;
}

export interface BackoffOptions {
  /** The wait before the second attempt, before jitter. */
  baseMs?: number;
  maxMs?: number;
  random?: () => number;
}

/**
 * Exponential backoff with jitter: `base · 2^(attempt-2)`, capped at `max`, then scaled by a
 * random factor in [0.5, 1) so that modules failing together do not retry together.
 */
export function backoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const base = options.baseMs ?? 5_000;
  const max = options.maxMs ?? 120_000;
  const random = options.random ?? Math.random;
  const exponential = Math.min(max, base * 2 ** Math.max(0, attempt - 2));
  return Math.round(exponential * (0.5 + random() / 2));
}

/** Runs `executor` over the selected modules; see the file comment for the rules. */
export async function runScheduled<T>(options: RunOptions<T>): Promise<RunResult<T>> {
  const parallelism = effectiveParallelism(options.parallelism);
  const retries = options.retries ?? 0;
  if (!Number.isInteger(retries) || retries < 0)
    throw new RangeError(`retries must be a whole number ≥ 0, not ${retries}`);
  const now = options.now ?? Date.now;
  const signal = options.signal ?? new AbortController().signal;
  const sleep = options.sleep ?? abortableSleep;
  const retryDelay = options.retryDelay ?? ((attempt: number) => backoffDelay(attempt));
  const emit = options.onEvent ?? (() => undefined);

  const selected = [...new Set(options.modules)].sort(compareIds);
  const graph = subgraph(options.graph, selected);
  assertAcyclic(graph);

  const priority = downstreamDepth(graph, selected);
  const semaphore = new Semaphore(parallelism);
  const results: ModuleRunResult<T>[] = [];
  const promises = new Map<string, Promise<ModuleRunResult<T>>>();
  const start = now();

  const finish = (result: ModuleRunResult<T>): ModuleRunResult<T> => {
    results.push(result);
    emit({ type: 'finish', result });
    return result;
  };

  const runModule = async (id: string): Promise<ModuleRunResult<T>> => {
    const dependencies = [...graph.dependencies(id)].sort(compareIds);
    const upstream = await Promise.all(dependencies.map((dep) => promises.get(dep)!));
    const failed = new Set<string>();
    let dependencyCancelled = false;
    for (const result of upstream) {
      if (result.status === 'failed') failed.add(result.id);
      else if (result.status === 'skipped') for (const root of result.upstreamFailed ?? []) failed.add(root);
      else if (result.status === 'cancelled') dependencyCancelled = true;
    }
    if (failed.size > 0) {
      const upstreamFailed = [...failed].sort(compareIds);
      return finish({
        id,
        status: 'skipped',
        attempts: [],
        message: `upstream dependencies failed: ${upstreamFailed.join(', ')}`,
        upstreamFailed,
      });
    }
    if (dependencyCancelled || signal.aborted) return finish(cancelled(id, []));
    const decision = options.gate?.(id, upstream);
    if (decision && 'skip' in decision)
      return finish({ id, status: decision.skip, attempts: [], message: decision.reason });
    const stale = decision && 'stale' in decision ? { stale: decision.stale } : {};
    const ranFor = decision && 'run' in decision ? decision.run : undefined;

    const attempts: AttemptRecord[] = [];
    let delayMs = 0;
    for (let attempt = 1; ; attempt++) {
      if (!(await semaphore.acquire(priority.get(id)!, id, signal))) return finish(cancelled(id, attempts));
      const attemptStart = now();
      emit({ type: 'start', id, attempt, time: attemptStart, ...(ranFor !== undefined ? { ranFor } : {}) });
      let outcome: ExecutorOutcome<T>;
      try {
        outcome = await options.executor(id, signal, attempt, ranFor);
      } catch (error) {
        outcome = { ok: false, message: error instanceof Error ? error.message : String(error) };
      } finally {
        semaphore.release();
      }
      const end = now();
      attempts.push({
        attempt,
        start: attemptStart,
        end,
        ok: outcome.ok,
        ...(outcome.ok ? {} : { message: outcome.message }),
        delayMs,
      });
      const ran = {
        id,
        start: attempts[0]!.start,
        end,
        attempts,
        ...(outcome.value !== undefined ? { value: outcome.value } : {}),
        ...stale,
      };
      if (outcome.ok) return finish({ ...ran, status: 'succeeded' });
      if (signal.aborted) return finish({ ...ran, status: 'cancelled', message: 'run cancelled' });
      if (attempt <= retries && outcome.retryable !== false) {
        delayMs = retryDelay(attempt + 1);
        emit({ type: 'retry', id, attempt: attempt + 1, delayMs, message: outcome.message });
        if (!(await sleep(delayMs, signal))) return finish({ ...ran, status: 'cancelled', message: 'run cancelled' });
        continue;
      }
      return finish({ ...ran, status: 'failed', message: outcome.message });
    }
  };

  // Dependencies first, so that every module's dependencies have their promise when it is created.
  for (const id of topologicalOrder(graph, selected)) promises.set(id, runModule(id));
  await Promise.all(promises.values());
  return { results, parallelism, start, end: now(), cancelled: signal.aborted };
}

function cancelled<T>(id: string, attempts: AttemptRecord[]): ModuleRunResult<T> {
  const ran = attempts.length > 0 ? { start: attempts[0]!.start, end: attempts.at(-1)!.end } : {};
  return { id, status: 'cancelled', attempts, message: 'run cancelled', ...ran };
}

/** Throws `RunCycleError` when the selected modules have cycles among them (what `runScheduled` refuses). */
export function checkRunnable(graph: RunGraph, modules: Iterable<string>): void {
  assertAcyclic(subgraph(graph, [...new Set(modules)].sort(compareIds)));
}

function assertAcyclic(graph: DependencyGraph): void {
  const cyclic = cyclicComponents(graph);
  if (cyclic.length > 0) throw new RunCycleError(cyclic.map((component) => cyclePath(graph, component)));
}

/** Kahn's order over an acyclic graph: every module after its dependencies; ties by id. */
function topologicalOrder(graph: DependencyGraph, selected: readonly string[]): string[] {
  const pending = new Map(selected.map((id) => [id, graph.dependencies(id).length]));
  const ready = selected.filter((id) => pending.get(id) === 0);
  const order: string[] = [];
  for (let head = 0; head < ready.length; head++) {
    const id = ready[head]!;
    order.push(id);
    for (const dependent of [...graph.dependents(id)].sort(compareIds)) {
      const left = pending.get(dependent)! - 1;
      pending.set(dependent, left);
      if (left === 0) ready.push(dependent);
    }
  }
  return order;
}

/**
 * The longest chain of dependents below each module: when more modules are ready than slots are
 * free, the ones that hold up the longest chains start first (the critical path).
 */
function downstreamDepth(graph: DependencyGraph, selected: readonly string[]): Map<string, number> {
  const depth = new Map<string, number>();
  for (const id of topologicalOrder(graph, selected).reverse()) {
    let deepest = 0;
    for (const dependent of graph.dependents(id)) deepest = Math.max(deepest, depth.get(dependent)! + 1);
    depth.set(id, deepest);
  }
  return depth;
}

/**
 * A counting semaphore whose waiters are served by priority (higher first), then id. Slots are
 * handed out on the next turn of the event loop, so that the modules that become ready at the
 * same moment (at the start, or when one finishes) compete by priority, not by arrival.
 */
class Semaphore {
  private readonly waiting: { priority: number; id: string; grant: (granted: boolean) => void }[] = [];
  private scheduled = false;

  constructor(private free: number) {}

  /** Resolves true once a slot is taken, false when `signal` aborts first. */
  acquire(priority: number, id: string, signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter = {
        priority,
        id,
        grant: (granted: boolean) => {
          signal.removeEventListener('abort', onAbort);
          resolve(granted);
        },
      };
      const onAbort = () => {
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
        waiter.grant(false);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
      this.waiting.sort((a, b) => b.priority - a.priority || compareIds(a.id, b.id));
      this.schedule();
    });
  }

  release(): void {
    this.free++;
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => {
      this.scheduled = false;
      this.drain();
    }, 0);
  }

  private drain(): void {
    while (this.free > 0 && this.waiting.length > 0) {
      this.free--;
      this.waiting.shift()!.grant(true);
    }
  }
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
