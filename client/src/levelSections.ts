import type { GraphModel } from '../../server/src/protocol';

/** A heading of Show Execution Levels and its modules' ids. */
export interface LevelSection {
  title: string;
  ids: string[];
  /** No level: in a cycle, or waiting for one. */
  noLevel: boolean;
}

/**
 * The levels as `terrace levels` counts them: each level's modules without those in or behind a cycle (a level
 * only they filled is not one), then the modules in a cycle, then those that wait for one.
 */
export function levelSections(graph: GraphModel): LevelSection[] {
  const byId = new Map(graph.modules.map((module) => [module.id, module]));
  const inCycle = (id: string) => byId.get(id)?.inCycle === true;
  const waits = (id: string) => byId.get(id)?.waitsForCycle === true;
  const levels = graph.levels
    .map((ids) => ids.filter((id) => !inCycle(id) && !waits(id)))
    .filter((ids) => ids.length > 0)
    .map((ids, level) => ({ title: `Level ${level}`, ids, noLevel: false }));
  const all = graph.levels.flat();
  const cycles = all.filter(inCycle);
  const waiting = all.filter(waits);
  return [
    ...levels,
    ...(cycles.length > 0 ? [{ title: 'In a cycle, no level', ids: cycles, noLevel: true }] : []),
    ...(waiting.length > 0 ? [{ title: 'Waits for a cycle, no level', ids: waiting, noLevel: true }] : []),
  ];
}
