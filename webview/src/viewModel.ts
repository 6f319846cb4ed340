import type { PanelEdge, PanelModel, PanelModule } from '../../server/src/protocol';
import { getOrCreate } from './getOrCreate';
import type { GraphIndex } from './graphIndex';
import { pathLabels } from './nodeLabels';
import { plural } from './plural';
import { RUN_DISPLAYS, type RunDisplay, runDisplay } from './runDisplay';
import {
  type ColumnHeading,
  type ColumnSpan,
  columnHeadings,
  joinedLevels,
  type LevelSpan,
  viewColumns,
} from './viewColumns';

/**
 * What the panel shows of a graph model: the visible nodes (modules, or one node per folded folder or
 * group) and edges, each in its column, after grouping, folding, focus, paths, hiding and filtering.
 * Pure: no DOM, no layout.
 */

/** How the user looks at the graph; kept in the webview's state. */
export interface ViewOptions {
  /** A segment name (`service`, `environment`…) or `folder` (the first folder of the id); null: no groups. */
  groupBy: string | null;
  /** Group names collapsed into one node per level. */
  collapsed: string[];
  /**
   * Only this module and its upstream (dependencies) and/or downstream (dependents) closure, to
   * `hops` steps away (null or absent: all of it).
   */
  focus: { id: string; upstream: boolean; downstream: boolean; hops?: number | null } | null;
  /** Only the modules on a dependency path between these two (and the two). */
  paths: { from: string; to: string } | null;
  /** Modules left out of the drawing. */
  hidden: string[];
  /** The search text; when `filter` is on, only matches (and folded nodes holding one) are drawn. */
  search: string;
  filter: boolean;
}

export const DEFAULT_VIEW: ViewOptions = {
  groupBy: null,
  collapsed: [],
  focus: null,
  paths: null,
  hidden: [],
  search: '',
  filter: false,
};

export interface ViewNode {
  /** The module id, or `group:<folder or group>` for a folded folder or group. */
  id: string;
  kind: 'module' | 'group';
  /** A Terragrunt unit (run with terragrunt), drawn with round corners; never a group. */
  unit: boolean;
  /** A Terraform Stack's component or embedded stack (planned by HCP Terraform), drawn with a dashed outline; never a group. */
  component: boolean;
  /** Its execution level; of a folded node, the lowest and highest among its modules' that have one. Null: none has. */
  levels: LevelSpan | null;
  /** Where its column comes (`modulePlaces.ts`); of a folded node, its modules' first. */
  place: number;
  /** The column it is drawn in: its place's rank, or where folding puts it (`viewColumns.ts`). */
  column: number;
  /** The short name: the last folder of the module, or the folder's or group's name. */
  label: string;
  /** Its kind, then what tells it apart from nodes of the same name (`sub-a/prod`) or the rest of its path; or the group's size. */
  detail: string;
  /** The start of `detail` that must be drawn whole: the kind, and what tells it apart from nodes of the same name. */
  distinct: string;
  /** The node's group when grouping is on: the box it is drawn in. */
  group: string | null;
  /** Of a folded node, the folder or group it stands for. */
  fold: string | null;
  /** The modules it stands for: itself, or the folded folder's or group's. */
  members: string[];
  /** It is (of a folded node, it holds) a module in a cycle, or one that waits for one: such a module has no level. */
  inCycle: boolean;
  waitsForCycle: boolean;
  /**
   * Its modules' problems, each module's in turn: a module that does not parse, then its references that
   * resolve to no module, then to more than one (their texts come from the host when a hover card asks).
   */
  problems: { kind: 'unresolved' | 'ambiguous' | 'syntax'; from: string }[];
  /** The run state of the module (of a group: the most pressing of its modules'), once Terrace ran terraform on it. */
  runState?: RunDisplay;
  /** Why, in a few words (`files changed since the last plan`). */
  runReason?: string;
}

export interface ViewEdge {
  id: string;
  /** The reader (the dependent): its remote_state block points at `to`. */
  from: string;
  /** The writer (the dependency). */
  to: string;
  inCycle: boolean;
  /** How many module edges it stands for (more than one between folded nodes). */
  count: number;
  /** The surest match among them: exact, else inferred (one writer fits a partly known address), else ambiguous. */
  match: PanelEdge['match'];
  /** The writers' outputs read along the edges it stands for, sorted. */
  outputs: string[];
}

export interface ViewGraph {
  nodes: ViewNode[];
  edges: ViewEdge[];
  /** The columns, left to right: the levels drawn in each, and whether modules with none are (`viewColumns.ts`). */
  columns: ColumnSpan[];
  /** Their headings: a column of levels each; side by side, the columns of modules with no level under one. */
  headings: ColumnHeading[];
  /** Group names (with their module counts) when grouping is on. */
  groups: { name: string; modules: number; collapsed: boolean }[];
}

/** What a node's subtitle starts with, for the kinds a box alone does not name. */
function kindWord(kind: PanelModule['kind']): string {
  return kind === 'unit' ? 'terragrunt' : kind === 'component' ? 'stack' : '';
}

/** Grouping by Terraform Stack: each Stack's components and embedded stacks in one group, named by its folder. */
export const STACK_GROUPING = 'Stack';
/** The group of the root modules and units under Stack grouping: drawn without a box. */
export const NOT_IN_A_STACK = '(not in a Stack)';

/** Grouping by folder: a box for each first folder that tells modules apart, and any folder folds. */
export const FOLDER_GROUPING = 'folder';

/** The group of a module under `groupBy`: the box it is drawn in. */
export function groupOf(index: GraphIndex, module: PanelModule, groupBy: string): string {
  if (groupBy === STACK_GROUPING) {
    if (module.kind !== 'component') return NOT_IN_A_STACK;
    // `platform/component.dns` is in the Stack of `platform`; `component.dns`, of the workspace's folder.
    return module.id.split('/').slice(0, -1).join('/') || '.';
  }
  if (groupBy === FOLDER_GROUPING) return index.tree.folderAt(module.id, 1);
  return module.segments[groupBy] ?? '(none)';
}

/**
 * What one can group by: the Terraform Stacks when there are components; the named segments that take
 * more than one value (not the last one, which names the module itself); the folders, when a folder
 * holds more than one module.
 */
export function groupChoices(index: GraphIndex): string[] {
  const { graph } = index;
  const stacks = graph.modules.some((module) => module.kind === 'component') ? [STACK_GROUPING] : [];
  const folders = index.tree.maxDepth > 0 ? [FOLDER_GROUPING] : [];
  return [...stacks, ...segmentChoices(graph), ...folders];
}

function segmentChoices(graph: PanelModel): string[] {
  const values = new Map<string, Set<string>>();
  const lastKeys = new Set<string>();
  for (const module of graph.modules) {
    const keys = Object.keys(module.segments);
    if (keys.length) lastKeys.add(keys.at(-1)!);
    for (const key of keys) {
      getOrCreate(values, key, () => new Set<string>()).add(module.segments[key]!);
    }
  }
  return [...values].filter(([key, set]) => set.size > 1 && !lastKeys.has(key)).map(([key]) => key);
}

/** Modules whose id contains every word of the search text (case-insensitive). */
export function matcher(search: string): ((id: string) => boolean) | null {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return null;
  return (id) => {
    const lower = id.toLowerCase();
    return words.every((word) => lower.includes(word));
  };
}

/** The nodes and edges to draw for `options`. */
export function buildView(index: GraphIndex, options: ViewOptions): ViewGraph {
  const { graph } = index;
  let visible: PanelModule[] = graph.modules;
  const focus = options.focus && index.byId.has(options.focus.id) ? options.focus : null;
  if (focus) {
    const keep = new Set([focus.id]);
    const hops = focus.hops ?? null;
    if (focus.upstream) for (const id of index.closure(focus.id, index.dependencies, hops)) keep.add(id);
    if (focus.downstream) for (const id of index.closure(focus.id, index.dependents, hops)) keep.add(id);
    visible = visible.filter((module) => keep.has(module.id));
  }
  const paths =
    options.paths && index.byId.has(options.paths.from) && index.byId.has(options.paths.to) ? options.paths : null;
  if (paths) {
    const on = index.between(paths.from, paths.to);
    visible = visible.filter((module) => on.has(module.id) || module.id === paths.from || module.id === paths.to);
  }
  if (options.hidden.length) {
    const hidden = new Set(options.hidden);
    visible = visible.filter((module) => !hidden.has(module.id));
  }
  const matches = options.filter ? matcher(options.search) : null;
  if (matches) visible = visible.filter((module) => matches(module.id));

  const problems = new Map<string, ViewNode['problems']>();
  for (const module of graph.modules) {
    const from = module.id;
    const found: ViewNode['problems'] = module.parses ? [] : [{ kind: 'syntax', from }];
    for (let i = 0; i < (module.unresolved ?? 0); i++) found.push({ kind: 'unresolved', from });
    for (let i = 0; i < (module.ambiguous ?? 0); i++) found.push({ kind: 'ambiguous', from });
    if (found.length) problems.set(from, found);
  }

  const groupBy = options.groupBy;
  const collapsed = new Set(options.collapsed);
  const groupSizes = new Map<string, number>();
  if (groupBy) for (const module of graph.modules) increment(groupSizes, groupOf(index, module, groupBy));
  // Under folder grouping any folder folds; otherwise a whole group does.
  const foldOf = (module: PanelModule, group: string | null): string | null =>
    groupBy === FOLDER_GROUPING
      ? index.tree.foldOf(module.id, collapsed)
      : group !== null && collapsed.has(group)
        ? group
        : null;

  const nodes: ViewNode[] = [];
  const nodeOf = new Map<string, string>();
  const foldNodes = new Map<string, ViewNode>();
  for (const module of visible) {
    const group = groupBy ? groupOf(index, module, groupBy) : null;
    const fold = foldOf(module, group);
    if (fold !== null) {
      const node = getOrCreate(foldNodes, fold, () => foldNode(fold, group));
      if (node.members.length === 0) nodes.push(node);
      addToFold(node, module, index.places.get(module.id)!, problems.get(module.id) ?? []);
      nodeOf.set(module.id, node.id);
      continue;
    }
    const { name, context, shared } = index.labels.get(module.id)!;
    const kind = kindWord(module.kind);
    nodes.push({
      id: module.id,
      kind: 'module',
      unit: module.kind === 'unit',
      component: module.kind === 'component',
      levels: levelsOf(module),
      place: index.places.get(module.id)!,
      column: 0,
      label: name,
      // The kind said in words too: the corners or the outline alone would not tell it.
      detail: [kind, context].filter((part) => part !== '').join(' · '),
      // Drawn whole (the node widens for it): the kind, and what tells the node from its namesakes.
      distinct: [kind, shared ? context : ''].filter((part) => part !== '').join(' · '),
      group,
      fold: null,
      members: [module.id],
      inCycle: module.inCycle,
      waitsForCycle: module.waitsForCycle ?? false,
      problems: problems.get(module.id) ?? [],
      runState: runDisplay(module.runState),
      runReason: module.runState?.reason,
    });
    nodeOf.set(module.id, module.id);
  }
  labelFolds(index, [...foldNodes.values()], groupBy === FOLDER_GROUPING);

  const edges = new Map<string, ViewEdge>();
  for (const edge of graph.edges) {
    const id = drawnEdgeId(nodeOf, edge);
    if (id === undefined) continue;
    const existing = edges.get(id);
    if (existing) {
      existing.count++;
      existing.inCycle ||= edge.inCycle;
      if (MATCH_RANK[edge.match] < MATCH_RANK[existing.match]) existing.match = edge.match;
      if (edge.outputs.length > 0) existing.outputs = mergedNames(existing.outputs, edge.outputs);
    } else {
      const [from, to] = [nodeOf.get(edge.from)!, nodeOf.get(edge.to)!];
      edges.set(id, { id, from, to, inCycle: edge.inCycle, count: 1, match: edge.match, outputs: edge.outputs });
    }
  }

  const { column, spans } = viewColumns(nodes, [...edges.values()], foldNodes.size > 0);
  for (const node of nodes) node.column = column.get(node.id)!;
  const groups = groupBy
    ? [...groupSizes]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, modules]) => ({ name, modules, collapsed: collapsed.has(name) }))
    : [];
  return { nodes, edges: [...edges.values()], columns: spans, headings: columnHeadings(spans), groups };
}

/**
 * Each of a view's edges' outputs again, from the graph's edges it stands for: for outputs that came
 * after the view was built (`EdgeOutputsRequest`).
 */
export function fillEdgeOutputs(view: ViewGraph, graph: PanelModel): void {
  const nodeOf = viewNodeOf(view);
  const byId = new Map(view.edges.map((edge) => [edge.id, edge]));
  for (const edge of view.edges) edge.outputs = [];
  for (const edge of graph.edges) {
    const id = edge.outputs.length > 0 ? drawnEdgeId(nodeOf, edge) : undefined;
    const shown = id === undefined ? undefined : byId.get(id);
    if (shown) shown.outputs = mergedNames(shown.outputs, edge.outputs);
  }
}

/** The node each module of a view is drawn in (its own, or the folded node it is in). */
export function viewNodeOf(view: ViewGraph): Map<string, string> {
  return new Map(view.nodes.flatMap((node) => node.members.map((member) => [member, node.id] as const)));
}

/**
 * The id of the drawn edge a module's edge is part of, given each module's node; none when it is not drawn:
 * an end not shown, or both inside one folded node, where only a module reading its own state stays a (self) edge.
 */
function drawnEdgeId(nodeOf: ReadonlyMap<string, string>, edge: PanelEdge): string | undefined {
  const from = nodeOf.get(edge.from);
  const to = nodeOf.get(edge.to);
  if (!from || !to || (from === to && edge.from !== edge.to)) return undefined;
  return `${from}\u2192${to}`;
}

/** Two sorted lists of names as one, sorted, each once. */
function mergedNames(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])].sort();
}

/** A module's execution level; none for one in or behind a cycle. */
function levelsOf(module: PanelModule): LevelSpan | null {
  return module.inCycle || module.waitsForCycle ? null : { first: module.level, last: module.level };
}

/** A folded folder or group, empty: its modules are added one by one. */
function foldNode(fold: string, group: string | null): ViewNode {
  return {
    id: `group:${fold}`,
    kind: 'group',
    unit: false,
    component: false,
    levels: null,
    place: Number.POSITIVE_INFINITY,
    column: 0,
    label: fold,
    detail: '',
    distinct: '',
    group,
    fold,
    members: [],
    inCycle: false,
    waitsForCycle: false,
    problems: [],
  };
}

function addToFold(node: ViewNode, module: PanelModule, place: number, problems: ViewNode['problems']): void {
  node.members.push(module.id);
  node.levels = joinedLevels(node.levels, levelsOf(module));
  node.place = Math.min(node.place, place);
  node.inCycle ||= module.inCycle;
  node.waitsForCycle ||= module.waitsForCycle ?? false;
  const run = runDisplay(module.runState);
  if (run && (!node.runState || RUN_DISPLAYS.indexOf(run) < RUN_DISPLAYS.indexOf(node.runState))) {
    node.runState = run;
    node.runReason = `${module.id}: ${module.runState!.reason}`;
  }
  node.problems.push(...problems);
}

/**
 * A folded node's title and subtitle: a folder's name, told apart from folded folders of the same name
 * like modules are (`us-east-1` · `prod`), and how many modules it holds (`47 units`).
 */
function labelFolds(index: GraphIndex, folds: ViewNode[], folders: boolean): void {
  const labels = folders
    ? pathLabels(
        folds.map((node) => node.label),
        index.tree.sharedDepth,
      )
    : undefined;
  for (const node of folds) {
    const kinds = new Set(node.members.map((id) => index.byId.get(id)!.kind));
    const noun =
      kinds.size === 1 && kinds.has('unit')
        ? 'unit'
        : kinds.size === 1 && kinds.has('component')
          ? 'component'
          : 'module';
    const count = plural(node.members.length, noun);
    const label = labels?.get(node.label);
    if (label) node.label = label.name;
    node.detail = [count, label?.context ?? ''].filter((part) => part !== '').join(' · ');
    node.distinct = label?.shared ? node.detail : count;
  }
}

const MATCH_RANK: Record<PanelEdge['match'], number> = { exact: 0, inferred: 1, ambiguous: 2 };

function increment(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}
