import { deriveRunState, type ModuleRunState } from '../../server/src/engine/run';
import { moduleFingerprint } from './moduleFingerprint';
import { lockOwner } from './moduleLock';
import type { RunTarget } from './runRequest';
import { readRunState } from './stateFile';

export interface StateOptions {
  /** Plans older than this need planning again (`terrace.planMaxAge`); 0 = no limit. */
  planMaxAgeMs?: number;
  now?: number;
  /** The fingerprint of a module's files; the server passes a cached one (it reads every plan input). */
  fingerprint?: (module: RunTarget) => string;
}

/**
 * The run state of each module now: its record in `.terrace/state.json`, the fingerprint of its
 * files, its dependencies' applies and whether a run holds its lock. Reads the module files, so
 * callers cache it (the server does, per graph version and state file change).
 */
export function moduleRunStates(
  root: string,
  modules: readonly RunTarget[],
  options: StateOptions = {},
): Map<string, ModuleRunState> {
  const state = readRunState(root);
  const states = new Map<string, ModuleRunState>();
  for (const module of modules) {
    const running = lockOwner(root, module.id);
    states.set(
      module.id,
      deriveRunState(state.modules[module.id], {
        fingerprint: (options.fingerprint ?? fingerprintOf)(module),
        ...(options.now !== undefined ? { now: options.now } : {}),
        ...(options.planMaxAgeMs ? { planMaxAgeMs: options.planMaxAgeMs } : {}),
        dependencies: module.dependencies.map((id) => ({ id, record: state.modules[id] })),
        ...(running ? { running } : {}),
      }),
    );
  }
  return states;
}

function fingerprintOf(module: RunTarget): string {
  return moduleFingerprint(module.dir, module.sourceDirs);
}
