import { type GatedModule, type OutputsRead, outputGate, type RunOptions } from '../../server/src/engine/run';
import type { ModuleOutcome, RunTarget } from './runRequest';

/** The gate of a plan whose targets say what they read (`RunTarget.gate`); none when no target does. */
export function gateOf(targets: readonly RunTarget[]): Pick<RunOptions<ModuleOutcome>, 'gate'> {
  const gated = new Map<string, GatedModule>();
  for (const target of targets) {
    if (!target.gate) continue;
    const reads = Object.entries(target.gate.reads).map(([id, read]): [string, OutputsRead] => [
      id,
      read === 'all' ? 'all' : new Set(read),
    ]);
    gated.set(target.id, { changed: target.gate.changed, reads: new Map(reads) });
  }
  return gated.size > 0 ? { gate: outputGate<ModuleOutcome>(gated) } : {};
}
