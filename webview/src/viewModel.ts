import type { GraphEdge, GraphModel, GraphModule, RunStateView } from '../../server/src/protocol';

/**
 * What the panel shows of a graph model: the visible nodes (modules, or one node per collapsed group
 * and level) and edges, after grouping, focus and filtering. Pure: no DOM, no layout.
 */

/** How the user looks at the graph; kept in the webview's state. */
export interface ViewOptions {
  /** A segment name (`service`, `environment`…) or `folder` (the first folder of the id); null: no groups. */
  groupBy: string | null;
  /** Group names collapsed into one node per level. */
  collapsed: string[];
  /** Only this module and its upstream (dependencies) and/or downstream (dependents) closure. */
  focus: { id: string; upstream: boolean; downstream: boolean } | null;
  /** The search text; when `filter` is on, only matches (and collapsed groups holding one) are drawn. */
  search: string;
  filter: boolean;
}

export const DEFAULT_VIEW: ViewOptions = { groupBy: null, collapsed: [], focus: null, search: '', filter: false };

export interface ViewNode {
  /** The module id, or `group:<name>:<level>` for a collapsed group. */
  id: string;
  kind: 'module' | 'group';
  /** A Terragrunt unit (run with terragrunt), drawn with round corners; never a group. */
  unit: boolean;
  /** A Terraform Stack's component or embedded stack (planned by HCP Terraform), drawn with a dashed outline; never a group. */
  component: boolean;
  level: number;
  /** The short name: the last folder of the module, or the group's name. */
  label: string;
  /** The rest of the path (service · environment · region), or the group's size. */
  detail: string;
  /** The node's group when grouping is on. */
  group: string | null;
  /** The modules it stands for: itself, or the group's modules at this level. */
  members: string[];
  inCycle: boolean;
  /** References of its modules that resolve to no module, or to more than one. */
  problems: { name: string; reason: string; kind: 'unresolved' | 'ambiguous' | 'syntax' }[];
  /** The run state of the module (of a group: the most pressing of its modules'), once Terrace ran terraform on it. */
  runState?: RunDisplay;
  /** Why, in a few words (`files changed since the last plan`). */
  runReason?: string;
}

/** How a module's run state is shown. */
export type RunDisplay = 'running' | 'failed' | 'drifted' | 'apply' | 'plan' | 'idle';

/** Most pressing first: a group shows the first of these that one of its modules is in. */
export const RUN_DISPLAYS: readonly RunDisplay[] = ['running', 'failed', 'drifted', 'apply', 'plan', 'idle'];

export const RUN_DISPLAY_NAMES: Record<RunDisplay, string> = {
  running: 'running',
  failed: 'plan failed',
  drifted: 'drifted',
  apply: 'apply needed',
  plan: 'plan needed',
  idle: 'idle',
};

export function runDisplay(view: RunStateView | undefined): RunDisplay | undefined {
  if (!view) return undefined;
  if (view.running) return 'running';
  if (view.state === 'PlanNeeded' && /fail|stopped/i.test(view.reason)) return 'failed';
  if (view.drifted) return 'drifted';
  if (view.state === 'ApplyNeeded') return 'apply';
  if (view.state === 'PlanNeeded') return 'plan';
  return 'idle';
}

export interface ViewEdge {
  id: string;
  /** The reader (the dependent): its remote_state block points at `to`. */
  from: string;
  /** The writer (the dependency). */
  to: string;
  inCycle: boolean;
  /** How many module edges it stands for (more than one between collapsed groups). */
  count: number;
  /** The surest match among them: exact, else inferred (one writer fits a partly known address), else ambiguous. */
  match: GraphEdge['match'];
}

export interface ViewGraph {
  nodes: ViewNode[];
  edges: ViewEdge[];
  /** The execution levels that have a visible node, ascending: one column each. */
  levels: number[];
  /** Group names (with their module counts) when grouping is on. */
  groups: { name: string; modules: number; collapsed: boolean }[];
}

/** What a node's subtitle starts with, for the kinds a box alone does not name. */
function kindWord(kind: GraphModule['kind']): string {
  return kind === 'unit' ? 'terragrunt' : kind === 'component' ? 'stack' : '';
}

/** The short name of a module and the rest of its path: `eks`, `platform · prod · eu-west-1`. */
export function moduleLabel(id: string): { label: string; detail: string } {
  if (id === '.') return { label: '(root)', detail: '' };
  const parts = id.split('/');
  return { label: parts.at(-1) ?? id, detail: parts.slice(0, -1).join(' · ') };
}

/** Grouping by Terraform Stack: each Stack's components and embedded stacks in one group, named by its folder. */
export const STACK_GROUPING = 'Stack';
/** The group of the root modules and units under Stack grouping: drawn without a box. */
export const NOT_IN_A_STACK = '(not in a Stack)';

/** The group of a module under `groupBy`. */
export function groupOf(module: GraphModule, groupBy: string): string {
  if (groupBy === STACK_GROUPING) {
    if (module.kind !== 'component') return NOT_IN_A_STACK;
    // `platform/component.dns` is in the Stack of `platform`; `component.dns`, of the workspace's folder.
    return module.id.split('/').slice(0, -1).join('/') || '.';
  }
  if (groupBy === 'folder') return module.id.split('/')[0] ?? module.id;
  return module.segments[groupBy] ?? '(none)';
}

/**
 * What one can group by: the Terraform Stacks when there are components; the named segments that take
 * more than one value (not the last one, which names the module itself), or the first folder when
 * modules have no named segments.
 */
export function groupChoices(graph: GraphModel): string[] {
  const bySegment = segmentChoices(graph);
  return graph.modules.some((module) => module.kind === 'component') ? [STACK_GROUPING, ...bySegment] : bySegment;
}

function segmentChoices(graph: GraphModel): string[] {
  const values = new Map<string, Set<string>>();
  const lastKeys = new Set<string>();
  for (const module of graph.modules) {
    const keys = Object.keys(module.segments);
    if (keys.length) lastKeys.add(keys.at(-1)!);
    for (const key of keys) {
      getOrCreate(values, key, () => new Set<string>()).add(module.segments[key]!);
    }
  }
  const choices = [...values].filter(([key, set]) => set.size > 1 && !lastKeys.has(key)).map(([key]) => key);
  if (choices.length) return choices;
  const folders = new Set(graph.modules.map((module) => module.id.split('/')[0]));
  return folders.size > 1 && graph.modules.some((module) => module.id.includes('/')) ? ['folder'] : [];
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

/** Index of a graph model, built once per model. */
export class GraphIndex {
  readonly byId = new Map<string, GraphModule>();
  /** Module → the modules it depends on. */
  readonly dependencies = new Map<string, Set<string>>();
  /** Module → the modules that depend on it. */
  readonly dependents = new Map<string, Set<string>>();

  constructor(readonly graph: GraphModel) {
    for (const module of graph.modules) {
      this.byId.set(module.id, module);
      this.dependencies.set(module.id, new Set());
      this.dependents.set(module.id, new Set());
    }
    for (const edge of graph.edges) {
      this.dependencies.get(edge.from)?.add(edge.to);
      this.dependents.get(edge.to)?.add(edge.from);
    }
  }

  /** `id` and everything reachable from it along `next`. */
  closure(id: string, next: Map<string, Set<string>>): Set<string> {
    const seen = new Set([id]);
    const stack = [id];
    while (stack.length) {
      for (const other of next.get(stack.pop()!) ?? []) {
        if (!seen.has(other)) {
          seen.add(other);
          stack.push(other);
        }
      }
    }
    return seen;
  }
}

/** The nodes and edges to draw for `options`. */
export function buildView(index: GraphIndex, options: ViewOptions): ViewGraph {
  const { graph } = index;
  let visible: GraphModule[] = graph.modules;
  const focus = options.focus && index.byId.has(options.focus.id) ? options.focus : null;
  if (focus) {
    const keep = new Set([focus.id]);
    if (focus.upstream) for (const id of index.closure(focus.id, index.dependencies)) keep.add(id);
    if (focus.downstream) for (const id of index.closure(focus.id, index.dependents)) keep.add(id);
    visible = visible.filter((module) => keep.has(module.id));
  }
  const matches = options.filter ? matcher(options.search) : null;
  if (matches) visible = visible.filter((module) => matches(module.id));

  const problems = new Map<string, ViewNode['problems']>();
  for (const [kind, list] of [
    ['unresolved', graph.unresolved],
    ['ambiguous', graph.ambiguous],
  ] as const) {
    for (const problem of list) {
      getOrCreate(problems, problem.from, () => []).push({ name: problem.name, reason: problem.reason, kind });
    }
  }
  for (const module of graph.modules) {
    if (module.parses) continue;
    getOrCreate(problems, module.id, () => []).unshift({
      name: 'syntax',
      reason: 'does not parse (see Problems): terraform cannot run it; its edges come from the blocks that still parse',
      kind: 'syntax',
    });
  }

  const groupBy = options.groupBy;
  const collapsed = new Set(options.collapsed);
  const groupSizes = new Map<string, number>();
  if (groupBy) for (const module of graph.modules) increment(groupSizes, groupOf(module, groupBy));

  const nodes: ViewNode[] = [];
  const nodeOf = new Map<string, string>();
  const groupNodes = new Map<string, ViewNode>();
  for (const module of visible) {
    const group = groupBy ? groupOf(module, groupBy) : null;
    if (group !== null && collapsed.has(group)) {
      const id = `group:${group}:${module.level}`;
      let node = groupNodes.get(id);
      if (!node) {
        node = {
          id,
          kind: 'group',
          unit: false,
          component: false,
          level: module.level,
          label: group,
          detail: '',
          group,
          members: [],
          inCycle: false,
          problems: [],
        };
        groupNodes.set(id, node);
        nodes.push(node);
      }
      node.members.push(module.id);
      node.inCycle ||= module.inCycle;
      const run = runDisplay(module.runState);
      if (run && (!node.runState || RUN_DISPLAYS.indexOf(run) < RUN_DISPLAYS.indexOf(node.runState))) {
        node.runState = run;
        node.runReason = `${module.id}: ${module.runState!.reason}`;
      }
      node.problems.push(...(problems.get(module.id) ?? []));
      nodeOf.set(module.id, id);
      continue;
    }
    const { label, detail } = moduleLabel(module.id);
    nodes.push({
      id: module.id,
      kind: 'module',
      unit: module.kind === 'unit',
      component: module.kind === 'component',
      level: module.level,
      label,
      // Said in words too: the corners or the outline alone would not tell it.
      detail: [kindWord(module.kind), detail].filter((part) => part !== '').join(' · '),
      group,
      members: [module.id],
      inCycle: module.inCycle,
      problems: problems.get(module.id) ?? [],
      runState: runDisplay(module.runState),
      runReason: module.runState?.reason,
    });
    nodeOf.set(module.id, module.id);
  }
  for (const node of groupNodes.values()) {
    node.detail = `${node.members.length} module${node.members.length === 1 ? '' : 's'}`;
  }

  const edges = new Map<string, ViewEdge>();
  for (const edge of graph.edges) {
    const from = nodeOf.get(edge.from);
    const to = nodeOf.get(edge.to);
    if (!from || !to) continue;
    // Inside one collapsed group node: only a module reading its own state stays a (self) edge.
    if (from === to && edge.from !== edge.to) continue;
    const id = `${from}\u2192${to}`;
    const existing = edges.get(id);
    if (existing) {
      existing.count++;
      existing.inCycle ||= edge.inCycle;
      if (MATCH_RANK[edge.match] < MATCH_RANK[existing.match]) existing.match = edge.match;
    } else {
      edges.set(id, { id, from, to, inCycle: edge.inCycle, count: 1, match: edge.match });
    }
  }

  const levels = [...new Set(nodes.map((node) => node.level))].sort((a, b) => a - b);
  const groups = groupBy
    ? [...groupSizes]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, modules]) => ({ name, modules, collapsed: collapsed.has(name) }))
    : [];
  return { nodes, edges: [...edges.values()], levels, groups };
}

const MATCH_RANK: Record<GraphEdge['match'], number> = { exact: 0, inferred: 1, ambiguous: 2 };

export function getOrCreate<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}

function increment(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}
