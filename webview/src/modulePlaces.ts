import type { PanelModule } from '../../server/src/protocol';
import { getOrCreate } from './getOrCreate';

/**
 * Where each module's column comes, as numbers that only order columns (`viewColumns.ts`). A module
 * with a level comes at its level. One in a cycle, or one that waits for a cycle, has none (README:
 * levels) and comes after every level: the cycles first, then what waits for them, then a cycle that
 * waits for one of those, and so on (the stages: cycles even, waiting odd), each stage's columns in the
 * order of the levels the engine files them at, after everything they depend on. So the cycles stand
 * side by side under one heading, and what waits under another, unless a cycle depends on what waits.
 */
export interface ModulePlaces {
  /** How many execution levels the graph has, as `terrace levels` counts them: the levels of the modules with one. */
  levelCount: number;
  place: Map<string, number>;
}

/** `dependencies`: module → the modules it depends on. */
export function modulePlaces(
  modules: readonly PanelModule[],
  dependencies: ReadonlyMap<string, ReadonlySet<string>>,
): ModulePlaces {
  const levelless = (module: PanelModule) => module.inCycle || module.waitsForCycle === true;
  const levelCount = modules.reduce(
    (count, module) => (levelless(module) ? count : Math.max(count, module.level + 1)),
    0,
  );
  const place = new Map<string, number>();
  const byLevel = new Map<number, PanelModule[]>();
  for (const module of modules) {
    if (levelless(module)) getOrCreate(byLevel, module.level, () => []).push(module);
    else place.set(module.id, module.level);
  }
  const filed = [...byLevel.keys()].sort((a, b) => a - b);
  const levels = (filed.at(-1) ?? 0) + 1;
  const stage = new Map<string, number>();
  for (const level of filed) {
    // A module depends on nothing filed at its own level but its own cycle's (the engine's levels): such
    // a dependency joins two modules of one cycle, which share a stage and so a column.
    const here = byLevel.get(level)!;
    const sets = new UnionFind(here.map((module) => module.id));
    const need = new Map<string, number>();
    for (const module of here) {
      let at = 0;
      for (const dependency of dependencies.get(module.id) ?? []) {
        if (sets.has(dependency)) sets.join(module.id, dependency);
        else at = Math.max(at, stage.get(dependency) ?? 0);
      }
      need.set(module.id, at);
    }
    const setNeed = new Map<string, number>();
    for (const module of here) {
      const set = sets.find(module.id);
      setNeed.set(set, Math.max(setNeed.get(set) ?? 0, need.get(module.id)!));
    }
    for (const module of here) {
      const at = setNeed.get(sets.find(module.id))!;
      // Cycles on even stages, what waits on odd ones: the first of its kind not before what it depends on.
      const own = module.inCycle ? at + (at % 2) : at + 1 - (at % 2);
      stage.set(module.id, own);
      place.set(module.id, levelCount + own * levels + level);
    }
  }
  return { levelCount, place };
}

/** Sets of ids, joined one pair at a time. */
class UnionFind {
  private readonly parent = new Map<string, string>();

  constructor(ids: readonly string[]) {
    for (const id of ids) this.parent.set(id, id);
  }

  has(id: string): boolean {
    return this.parent.has(id);
  }

  find(id: string): string {
    let root = id;
    while (this.parent.get(root) !== root) root = this.parent.get(root)!;
    // Each id on the way points at the root now: the next find is one step.
    for (let at = id; at !== root; ) {
      const next = this.parent.get(at)!;
      this.parent.set(at, root);
      at = next;
    }
    return root;
  }

  join(a: string, b: string): void {
    this.parent.set(this.find(a), this.find(b));
  }
}
