import { hasRunState, moduleFingerprint, moduleRunStates, runTargets } from '../../../runner/src';
import type { ModuleRunState } from '../engine/run';
import type { FolderState } from './workspaceFolders';

/** How long computed run states are reused at most (they age: `terrace.planMaxAge`). */
const FRESH_MS = 30_000;

/**
 * The run states of each folder's modules for hovers, code lenses and the graph model: read from
 * `.terrace/state.json` and the modules' files, cached until the graph changes, a run reports a
 * change (or the state file changes on disk), or half a minute passes. Undefined for a folder
 * where no run has happened, so that nothing is shown there.
 */
export class RunStateCache {
  private readonly cache = new Map<string, { key: string; at: number; states: Map<string, ModuleRunState> }>();
  private generation = 0;
  /** Bumped whenever what `forFolder` answers may change (a graph's version aside). */
  get statesGeneration(): number {
    return this.generation;
  }
  /**
   * Module fingerprints hash every plan input on disk. They change only when files change on
   * disk, not with each unsaved edit that bumps the graph's version: kept until `filesChanged`.
   */
  private readonly fingerprints = new Map<string, string>();
  /** Which fingerprint is each module's, by folder then id, to forget one module's. */
  private readonly fingerprintKeys = new Map<string, Map<string, string>>();

  constructor(
    /** `terrace.planMaxAge` of a folder, in hours (0 = no limit). */
    private readonly planMaxAgeHours: (root: string) => Promise<number>,
  ) {}

  /** Something under `.terrace/` changed: compute again on the next request. */
  changed(): void {
    this.generation++;
  }

  /** Terraform files changed on disk: fingerprints are computed again. */
  filesChanged(): void {
    this.fingerprints.clear();
    this.generation++;
  }

  /** A run just ran terraform in these modules of a folder: their fingerprints are computed again. */
  modulesRan(root: string, ids: readonly string[]): void {
    const keys = this.fingerprintKeys.get(root);
    for (const id of ids) {
      const key = keys?.get(id);
      if (key !== undefined) this.fingerprints.delete(key);
    }
    this.generation++;
  }

  async forFolder(folder: FolderState): Promise<Map<string, ModuleRunState> | undefined> {
    if (folder.error || !hasRunState(folder.root)) return undefined;
    const hours = await this.planMaxAgeHours(folder.root);
    const key = `${folder.version}:${this.generation}:${hours}`;
    const cached = this.cache.get(folder.root);
    if (cached && cached.key === key && Date.now() - cached.at < FRESH_MS) return cached.states;
    const result = folder.analysis.result();
    const keys = new Map<string, string>();
    this.fingerprintKeys.set(folder.root, keys);
    const states = moduleRunStates(folder.root, runTargets(result), {
      planMaxAgeMs: Math.max(0, hours) * 3_600_000,
      fingerprint: (module) => {
        const key = [module.dir, ...module.sourceDirs].join('\0');
        keys.set(module.id, key);
        let fingerprint = this.fingerprints.get(key);
        if (fingerprint === undefined) {
          fingerprint = moduleFingerprint(module.dir, module.sourceDirs);
          this.fingerprints.set(key, fingerprint);
        }
        return fingerprint;
      },
    });
    this.cache.set(folder.root, { key, at: Date.now(), states });
    return states;
  }

  forget(root: string): void {
    this.cache.delete(root);
    this.fingerprintKeys.delete(root);
  }
}
