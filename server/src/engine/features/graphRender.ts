import type { GraphJson } from './graphJson';
import { onceEach } from './repeatedReads';

/**
 * Text renderings of a graph for the CLI: Graphviz DOT, Mermaid and a plain summary. Each returns
 * a string and does no I/O. Edges point from a module to what it depends on; cycle edges are red, edges
 * matched by only the known part of an address (inferred, ambiguous) dashed.
 */
export function renderDot(graph: GraphJson): string {
  const cycleEdges = cycleEdgeSet(graph);
  const lines = ['digraph terrace {', '  rankdir=LR;', '  node [shape=box];'];
  graph.levels.forEach((ids, level) => {
    lines.push(`  subgraph level_${level} { rank=same; ${ids.map(quote).join('; ')}; }`);
  });
  for (const { from, to, sure } of uniqueEdges(graph)) {
    // Inferred and ambiguous edges dashed: the reader's address is known only in part.
    const style = [cycleEdges.has(`${from}\u0000${to}`) ? 'color=red' : '', sure ? '' : 'style=dashed'].filter(Boolean);
    lines.push(`  ${quote(from)} -> ${quote(to)}${style.length > 0 ? ` [${style.join(', ')}]` : ''};`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

export function renderMermaid(graph: GraphJson): string {
  const ids = new Map(graph.modules.map((module, index) => [module.id, `m${index}`]));
  const cycleEdges = cycleEdgeSet(graph);
  const lines = ['flowchart LR'];
  for (const module of graph.modules) lines.push(`  ${ids.get(module.id)}["${module.id.replace(/"/g, '#quot;')}"]`);
  const red: number[] = [];
  uniqueEdges(graph).forEach(({ from, to, sure }, index) => {
    lines.push(`  ${ids.get(from)} ${sure ? '-->' : '-.->'} ${ids.get(to)}`);
    if (cycleEdges.has(`${from}\u0000${to}`)) red.push(index);
  });
  if (red.length > 0) lines.push(`  linkStyle ${red.join(',')} stroke:red`);
  return `${lines.join('\n')}\n`;
}

/**
 * One line per level: `level 0: a, b`; then the modules with no level: each cycle's, with the cycles
 * that close them, and those that wait for a cycle.
 */
export function renderLevels(graph: GraphJson): string {
  const lines = graph.levels.map((ids, level) => `level ${level}: ${ids.join(', ')}\n`);
  for (const members of graph.cycleModules)
    lines.push(`no level, in a cycle: ${members.join(', ')} (${cyclesOf(graph, members).join('; ')})\n`);
  if (graph.waitingForCycles.length > 0)
    lines.push(`no level, waits for a cycle: ${graph.waitingForCycles.join(', ')}\n`);
  return lines.join('');
}

/** The cycles through a strongly connected set, as `a -> b -> a`. */
export function cyclesOf(graph: GraphJson, members: readonly string[]): string[] {
  return graph.cycles.filter((cycle) => members.includes(cycle[0]!)).map((cycle) => cycle.join(' -> '));
}

/** Modules by level, then cycles, unresolved and ambiguous references, for a person at a terminal. */
export function renderText(graph: GraphJson): string {
  const out: string[] = [
    `${graph.modules.length} modules, ${graph.edges.length} dependencies, ${graph.levels.length} level${graph.levels.length === 1 ? '' : 's'}`,
  ];
  const dependencies = new Map<string, Set<string>>();
  for (const edge of graph.edges)
    (dependencies.get(edge.from) ?? dependencies.set(edge.from, new Set()).get(edge.from)!).add(edge.to);
  const broken = new Set(graph.modules.filter((module) => !module.parses).map((module) => module.id));
  const line = (id: string, note = '') => {
    const deps = [...(dependencies.get(id) ?? [])].sort();
    const parses = broken.has(id) ? '  (does not parse: see the syntax errors)' : '';
    return `  ${id}${deps.length > 0 ? `  <- ${deps.join(', ')}` : ''}${note}${parses}`;
  };
  graph.levels.forEach((ids, level) => {
    out.push('', `Level ${level}`);
    for (const id of ids) out.push(line(id));
  });
  if (graph.cycleModules.length > 0) {
    out.push('', `Cycles (${graph.cycleModules.length}): no level until broken`);
    for (const members of graph.cycleModules) {
      for (const id of members) out.push(line(id, '  (in a cycle)'));
      for (const cycle of cyclesOf(graph, members)) out.push(`    ${cycle}`);
    }
  }
  if (graph.waitingForCycles.length > 0) {
    out.push('', `Waiting for a cycle (${graph.waitingForCycles.length}): no level until it is broken`);
    for (const id of graph.waitingForCycles) out.push(line(id));
  }
  if (graph.unresolved.length > 0) {
    out.push('', `Unresolved references (${graph.unresolved.length})`);
    out.push(...onceEach(graph.unresolved.map((item) => `  ${item.file}:${item.line} ${item.label}: ${item.reason}`)));
  }
  const inferred = graph.edges.filter((edge) => edge.match === 'inferred');
  if (inferred.length > 0) {
    out.push('', `Inferred references (${inferred.length}): matched by the known part of their address`);
    out.push(
      ...onceEach(inferred.map((edge) => `  ${edge.file}:${edge.line} ${edge.name} -> ${edge.to}${assuming(edge)}`)),
    );
  }
  if (graph.ambiguous.length > 0) {
    out.push('', `Ambiguous references (${graph.ambiguous.length}): depend on every writer`);
    out.push(
      ...onceEach(
        graph.ambiguous.map(
          (item) =>
            `  ${item.file}:${item.line} ${item.name}: ${item.address} is written by ${item.writers.join(', ')}`,
        ),
      ),
    );
  }
  return `${out.join('\n')}\n`;
}

/** `: assuming var.stack = "blue", bucket unknown`, or nothing. */
function assuming(edge: GraphJson['edges'][number]): string {
  const entries = Object.entries(edge.assumed);
  if (entries.length === 0) return '';
  const parts = entries.map(([hole, value]) =>
    value === null ? `${hole} unknown` : `${hole} = ${JSON.stringify(value)}`,
  );
  return `: assuming ${parts.join(', ')}`;
}

/** Each pair of modules once, with the surest match among its edges (exact before inferred before ambiguous). */
function uniqueEdges(graph: GraphJson): { from: string; to: string; sure: boolean }[] {
  const byPair = new Map<string, { from: string; to: string; sure: boolean }>();
  for (const { from, to, match } of graph.edges) {
    const key = `${from}\u0000${to}`;
    const seen = byPair.get(key);
    if (!seen) byPair.set(key, { from, to, sure: match === 'exact' });
    else if (match === 'exact') seen.sure = true;
  }
  return [...byPair.values()];
}

/** Edges between consecutive members of a cycle path. */
function cycleEdgeSet(graph: GraphJson): Set<string> {
  const members = new Map<string, number>();
  graph.cycleModules.forEach((set, index) => {
    for (const id of set) members.set(id, index);
  });
  const set = new Set<string>();
  for (const { from, to } of graph.edges) {
    if (members.has(from) && members.get(from) === members.get(to)) set.add(`${from}\u0000${to}`);
  }
  return set;
}

function quote(id: string): string {
  return JSON.stringify(id);
}
