import type { PanelModel, PanelModule } from '../../server/src/protocol';
import { FolderTree } from './folderTree';
import { modulePlaces } from './modulePlaces';
import { PathLabels } from './nodeLabels';

/** Index of a graph model, built once per model. */
export class GraphIndex {
  readonly byId = new Map<string, PanelModule>();
  /** Module → the modules it depends on. */
  readonly dependencies = new Map<string, Set<string>>();
  /** Module → the modules that depend on it. */
  readonly dependents = new Map<string, Set<string>>();
  /** Each module's name and what tells it apart from the others (`nodeLabels.ts`). */
  readonly labels: PathLabels;
  /** The modules' folders, for folding. */
  readonly tree: FolderTree;
  /** How many execution levels it has, as `terrace levels` counts them: a module in or behind a cycle has none. */
  readonly levelCount: number;
  /** Where each module's column comes (`modulePlaces.ts`). */
  readonly places: Map<string, number>;

  /** The modules' ids, in the graph's order. */
  private readonly ids: readonly string[];

  /** `before`: the index of the graph this one follows; what depends only on the ids is kept when they are the same. */
  constructor(
    readonly graph: PanelModel,
    before?: GraphIndex,
  ) {
    for (const module of graph.modules) {
      this.byId.set(module.id, module);
      this.dependencies.set(module.id, new Set());
      this.dependents.set(module.id, new Set());
    }
    for (const edge of graph.edges) {
      this.dependencies.get(edge.from)?.add(edge.to);
      this.dependents.get(edge.to)?.add(edge.from);
    }
    this.ids = graph.modules.map((module) => module.id);
    // An edit keeps the modules: their labels and folders (most of an index of 11,000 modules) stay as they were.
    const kept = before && sameIds(before.ids, this.ids) ? before : undefined;
    this.tree = kept?.tree ?? new FolderTree(this.ids);
    this.labels = kept?.labels ?? new PathLabels(this.ids, this.tree.sharedDepth);
    const places = modulePlaces(graph.modules, this.dependencies);
    this.levelCount = places.levelCount;
    this.places = places.place;
  }

  /** `id` and everything reachable from it along `next`, in at most `hops` steps (null: any number). */
  closure(id: string, next: Map<string, Set<string>>, hops: number | null = null): Set<string> {
    const seen = new Set([id]);
    let frontier = [id];
    for (let step = 0; frontier.length && (hops === null || step < hops); step++) {
      const reached: string[] = [];
      for (const from of frontier) {
        for (const other of next.get(from) ?? []) {
          if (!seen.has(other)) {
            seen.add(other);
            reached.push(other);
          }
        }
      }
      frontier = reached;
    }
    return seen;
  }

  /** The modules on a dependency path between `a` and `b`, whichever depends on the other (both, in a cycle). */
  between(a: string, b: string): Set<string> {
    const on = new Set<string>();
    for (const [reader, writer] of [
      [a, b],
      [b, a],
    ] as const) {
      const upstream = this.closure(reader, this.dependencies);
      if (!upstream.has(writer)) continue;
      for (const id of this.closure(writer, this.dependents)) if (upstream.has(id)) on.add(id);
    }
    return on;
  }
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, n) => id === b[n]);
}
