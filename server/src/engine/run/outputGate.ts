import type { OutputChange } from './planSummary';
import type { GateDecision, ModuleRunResult } from './runScheduler';

/**
 * Plan only what a change can reach, from the outputs each dependent reads: once the modules upstream of a
 * dependent have planned, it is
 * - *unaffected* when none of the outputs it reads changes in their plans (nor is any of them stale): it is
 *   not planned, and its own dependents see no change from it;
 * - *stale until an upstream applies* when one it reads changes, is added or removed, or is known only after
 *   apply, or when it reads from a module that is itself stale: a plan now would read the old value, so it
 *   is not planned (one with a change of its own is planned, and marked stale);
 * - planned when its own files changed.
 * Soundness before savings: a read whose output names are not known is planned (stale when any output changes).
 */

/**
 * What a dependent reads of one upstream: the outputs it names; `all` of them (it reads them whole); or `unknown`
 * (a read whose names are not known: it is planned unless one of them changes, when it waits as a stale one does).
 */
export type OutputsRead = ReadonlySet<string> | 'all' | 'unknown';

export interface GatedModule {
  /** Its own files changed (the change reaches it): it is planned whatever its upstreams' plans say. */
  changed: boolean;
  /** What it reads of each upstream, by the upstream's id (none: it only runs after it); one missing here is read whole. */
  reads: ReadonlyMap<string, OutputsRead>;
}

/** What the gate reads of an upstream's result: the output changes of its plan. */
export interface PlannedOutputs {
  outputs?: Readonly<Record<string, OutputChange>>;
}

/**
 * `plan`: upstream results are plans, and a dependent whose reads change waits (stale) for them to apply.
 * `apply`: upstream results are applies (`terrace apply`), whose outputs are what the apply did to the state:
 * a dependent whose reads change is planned and applied in turn; nothing waits.
 */
export type GateMode = 'plan' | 'apply';

/**
 * The scheduler's gate (`RunOptions.gate`) for the modules of `gated`; a module not in it runs as without a gate.
 */
export function outputGate<T extends PlannedOutputs>(
  gated: ReadonlyMap<string, GatedModule>,
  mode: GateMode = 'plan',
): (id: string, upstream: readonly ModuleRunResult<T>[]) => GateDecision | undefined {
  // The modules each stale one waits for to apply, to say so down the line.
  const waitsFor = new Map<string, readonly string[]>();
  return (id, upstream) => {
    const module = gated.get(id);
    if (!module) return undefined;
    const gate = gateDecision(module, upstream, mode, (upstreamId) => waitsFor.get(upstreamId));
    if (gate.waitsFor) waitsFor.set(id, gate.waitsFor);
    return gate.decision;
  };
}

/** What the gate decides of one module, and the modules it waits for to apply when it is stale. */
export interface ModuleGate {
  /** Undefined: it runs as without a gate (its own files changed, or what it reads is not known). */
  decision: GateDecision | undefined;
  /** Stale (planned or not): the upstream modules whose applies it waits for, sorted. */
  waitsFor?: readonly string[];
}

/**
 * The decision of one module from its upstreams' results, once they are done: `waitsFor` says of an upstream
 * whether it is stale itself, and which modules it waits for (its own `ModuleGate.waitsFor`). A run keeps
 * them as it goes (`outputGate`); a pipeline's job reads them from what its upstreams' jobs wrote.
 */
export function gateDecision<T extends PlannedOutputs>(
  module: GatedModule,
  upstream: readonly ModuleRunResult<T>[],
  mode: GateMode,
  waitsFor: (id: string) => readonly string[] | undefined,
): ModuleGate {
  const stale: string[] = [];
  const roots = new Set<string>();
  const unchanged: string[] = [];
  // Apply mode: what changed of what it reads, by upstream.
  const ranFor: string[] = [];
  let unresolved: string | undefined;
  for (const result of upstream) {
    const read = module.reads.get(result.id) ?? 'unknown';
    // Run after it only (a Terragrunt `dependencies` path): nothing it does reaches this plan.
    if (typeof read !== 'string' && read.size === 0) {
      unchanged.push(`reads no output of ${result.id}`);
      continue;
    }
    const upstreamRoots = waitsFor(result.id);
    if (upstreamRoots) {
      for (const root of upstreamRoots) roots.add(root);
      stale.push(
        `after ${upstreamRoots.join(', ')} ${upstreamRoots.length === 1 ? 'applies' : 'apply'}: reads from ${result.id}, which waits for it`,
      );
      continue;
    }
    if (result.status === 'unaffected') {
      unchanged.push(`${result.id} is unaffected`);
      continue;
    }
    const outputs = result.value?.outputs;
    if (!outputs) {
      roots.add(result.id);
      stale.push(`after ${result.id} applies: its plan says nothing of its outputs`);
      ranFor.push(`${result.id}'s apply says nothing of its outputs`);
      continue;
    }
    const names = read === 'all' || read === 'unknown' ? Object.keys(outputs).sort() : [...read].sort();
    // An output it names that the plan does not know is read as changed: the plan may not declare it yet.
    const changes = names.filter((name) => (outputs[name] ?? 'changed') !== 'unchanged');
    if (changes.length > 0) {
      roots.add(result.id);
      const changed = changes.map((name) => `${name} (${outputs[name] ?? 'changed'})`).join(', ');
      ranFor.push(
        read === 'unknown'
          ? `reads outputs of ${result.id} named only at run time, and its apply changed ${changes.join(', ')}`
          : `${result.id}'s apply changed ${changes.join(', ')}`,
      );
      stale.push(
        read === 'unknown'
          ? `after ${result.id} applies: reads outputs named only at run time, and ${changed} changes`
          : `after ${result.id} applies: reads ${changed}`,
      );
    } else if (read === 'unknown') unresolved ??= result.id;
    else unchanged.push(readsText(read, names, result.id, mode));
  }
  // Its upstreams applied what it reads: it runs on the new values.
  if (stale.length > 0 && mode === 'apply') return { decision: { run: ranFor.join('; ') } };
  if (stale.length > 0) {
    const reason = stale.join('; ');
    return {
      decision: module.changed ? { stale: reason } : { skip: 'stale', reason },
      waitsFor: [...roots].sort(),
    };
  }
  // Which outputs it reads of one is not known: planned, though none of them changes.
  if (module.changed || unresolved !== undefined) return { decision: undefined };
  return { decision: { skip: 'unaffected', reason: unchanged.join('; ') || 'reads nothing that changes' } };
}

/** `reads cidr, vpc_id of net/vpc: unchanged in its plan` (`unchanged by its apply`). */
function readsText(read: OutputsRead, names: readonly string[], upstream: string, mode: GateMode): string {
  if (names.length === 0) return `reads no output of ${upstream}`;
  const what = read === 'all' ? `every output (${names.join(', ')})` : names.join(', ');
  return `reads ${what} of ${upstream}: unchanged ${mode === 'apply' ? 'by its apply' : 'in its plan'}`;
}
