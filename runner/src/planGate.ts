import { type GatedModule, type OutputsRead, outputGate, type RunOptions } from '../../server/src/engine/run';
import type { ModuleOutcome, RunKind, RunTarget } from './runRequest';

/**
 * The gate of a plan or a deploy whose targets say what they read (`RunTarget.gate`); none when no target does,
 * nor for other runs.
 */
export function gateOf(targets: readonly RunTarget[], kind: RunKind): Pick<RunOptions<ModuleOutcome>, 'gate'> {
  if (kind !== 'plan' && kind !== 'deploy') return {};
  const gated = new Map<string, GatedModule>();
  for (const target of targets) {
    if (!target.gate) continue;
    const reads = Object.entries(target.gate.reads).map(([id, read]): [string, OutputsRead] => [
      id,
      read === 'all' || read === 'unknown' ? read : new Set(read),
    ]);
    gated.set(target.id, { changed: target.gate.changed, reads: new Map(reads) });
  }
  return gated.size > 0 ? { gate: outputGate<ModuleOutcome>(gated, kind === 'deploy' ? 'apply' : 'plan') } : {};
}

/**
 * The targets of a plan of what a change reaches, each with its gate: whether the change reaches its own files
 * (`reached`), and what it reads of each module it depends on (`reads`, by reader then writer).
 */
export function gatedTargets(
  targets: readonly RunTarget[],
  reached: ReadonlySet<string>,
  reads: ReadonlyMap<string, ReadonlyMap<string, ReadonlySet<string> | 'all' | 'unknown'>>,
): RunTarget[] {
  return targets.map((target) => {
    const own = reads.get(target.id);
    const wire: Record<string, string[] | 'all' | 'unknown'> = {};
    for (const [writer, read] of own ?? []) wire[writer] = typeof read === 'string' ? read : [...read].sort();
    return { ...target, gate: { changed: reached.has(target.id), reads: wire } };
  });
}
