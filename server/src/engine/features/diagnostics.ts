import type { AnalysisResult } from '../analysis';
import { cyclesThroughEdges } from '../graph';
import { FILE_START, type Location, type Range } from '../hcl';
import { describeAssumed, type MatchedEdge, type UnmatchedReference, unreadableNote } from '../state';
import { referenceLabel } from '../workspace';
import { countedOnce, readsNote } from './repeatedReads';

/** A problem in one file, as the Problems view shows it. LSP-compatible but free of LSP types. */
export interface EngineDiagnostic {
  range: Range;
  severity: 'error' | 'warning' | 'information';
  /** `cycle`, `unwritten-state`, `unresolved-reference`, `missing-unit`, `inferred-reference`, `ambiguous-writer`, `hcl-syntax`, `module-problem`, `missing-output`, … */
  code: DiagnosticCode;
  message: string;
  related: { location: Location; message: string }[];
}

export type DiagnosticCode =
  | 'cycle'
  | 'unwritten-state'
  | 'unresolved-reference'
  | 'missing-unit'
  | 'refused-by-terragrunt'
  | 'too-many-reads'
  | 'not-evaluated'
  | 'variables-not-allowed'
  | 'unknown-component'
  | 'inferred-reference'
  | 'ambiguous-writer'
  | 'hcl-syntax'
  | 'module-problem'
  | 'missing-output'
  | 'unknown-mock-output';

/**
 * Every diagnostic of a workspace, by absolute file path: cycles (an error on each reference that
 * is an edge of a cycle, with the whole path and the other edges as related locations), states
 * that no module writes, keys that cannot be resolved statically, states with two writers,
 * syntax errors and module-level problems.
 */
export function workspaceDiagnostics(result: AnalysisResult): Map<string, EngineDiagnostic[]> {
  const byFile = new Map<string, EngineDiagnostic[]>();
  const add = (file: string, diagnostic: EngineDiagnostic) => {
    const list = byFile.get(file);
    if (list) list.push(diagnostic);
    else byFile.set(file, [diagnostic]);
  };
  for (const { edge, path, members, others, otherCount } of cycleEdges(result)) {
    const unlisted = otherCount - others.length;
    // The path is one cycle of the set; the modules it does not pass close on it too.
    const onPath = new Set(path);
    const missed = members.filter((id) => !onPath.has(id));
    const alsoIn =
      missed.length === 0
        ? ''
        : `; also in this cycle: ${missed.slice(0, MAX_NAMED).join(', ')}${missed.length > MAX_NAMED ? ` and ${missed.length - MAX_NAMED} more` : ''}`;
    add(edge.reference.file, {
      range: edge.reference.headerRange,
      severity: 'error',
      code: 'cycle',
      message: `Circular dependency: ${path.join(' -> ')}${alsoIn}${unlisted > 0 ? ` (${otherCount} other reads in this cycle, ${others.length} listed)` : ''}`,
      related: others.map((other) => ({
        location: { file: other.reference.file, range: other.reference.headerRange },
        // The Problems view labels a related row by file name only (main.tf, main.tf…): the message names the module.
        message: `${other.from}: ${referenceLabel(other.reference)} ${other.reference.block ? 'depends on' : 'reads the state of'} ${other.to}`,
      })),
    });
  }
  for (const item of result.unresolved) add(item.reference.file, unresolvedDiagnostic(item));
  for (const edge of result.edges) if (edge.match === 'inferred') add(edge.reference.file, inferredDiagnostic(edge));
  for (const item of result.ambiguous) {
    add(item.reference.file, {
      range: item.reference.headerRange,
      severity: 'warning',
      code: 'ambiguous-writer',
      message: `${item.writers.length} modules write ${item.address}: ${item.writers.join(', ')}`,
      related: [],
    });
  }
  for (const error of result.syntaxErrors) {
    add(error.file, {
      range: error.range ?? FILE_START,
      severity: 'error',
      code: 'hcl-syntax',
      message: error.message,
      related: [],
    });
  }
  for (const problem of result.problems) {
    add(problem.file, {
      range: problem.range ?? FILE_START,
      severity: problem.error ? 'error' : 'warning',
      code: problem.error ?? 'module-problem',
      message: problem.message,
      related: [],
    });
  }
  for (const [file, list] of byFile) byFile.set(file, sayEachOnce(list));
  return byFile;
}

/** The diagnostics of one file, those the same on the same range once, with how many reads they stand for. */
function sayEachOnce(list: EngineDiagnostic[]): EngineDiagnostic[] {
  // Most files have one: nothing to count (an edit at 11,000 units builds every file's list).
  if (list.length === 1) return list;
  const counted = countedOnce(list, (d) => {
    const { start, end } = d.range;
    return `${start.line}:${start.character}:${end.line}:${end.character}:${d.severity}:${d.code}:${d.message}`;
  });
  if (counted.length === list.length) return list;
  return counted.map(({ item, count }) =>
    count === 1 ? item : { ...item, message: `${item.message}${readsNote(count)}` },
  );
}

function unresolvedDiagnostic(item: UnmatchedReference): EngineDiagnostic {
  // What terragrunt or the Stack would reject: a unit where none is, a block as Terragrunt refuses
  // it, a component the Stack lacks.
  if (item.missingUnit || item.refused || item.missingComponent) {
    return {
      range: item.reference.headerRange,
      severity: 'error',
      code: item.missingComponent ? 'unknown-component' : item.refused ? 'refused-by-terragrunt' : 'missing-unit',
      message: capitalize(item.reason),
      related: [],
    };
  }
  const unwritten = item.address !== undefined;
  return {
    range: item.reference.headerRange,
    severity: unwritten ? 'warning' : 'information',
    code: unwritten ? 'unwritten-state' : 'unresolved-reference',
    message: unwritten
      ? `No module in this workspace writes ${item.address}${unreadableNote(item.unreadable)}`
      : capitalize(item.reason),
    related: [],
  };
}

/** An inferred edge: what it assumes, and how to make it exact. */
function inferredDiagnostic(edge: MatchedEdge): EngineDiagnostic {
  const unknown = edge.unknowns.length > 0 ? `${edge.unknowns.join('; ')}: ` : '';
  const assuming = edge.assumed.length > 0 ? `, assuming ${describeAssumed(edge.assumed)}` : '';
  const pin =
    edge.unknowns.length > 0
      ? ' Give the variables values (terraform.tfvars or *.auto.tfvars beside the module) to make the match exact.'
      : '';
  return {
    range: edge.reference.headerRange,
    severity: 'information',
    code: 'inferred-reference',
    message: `Inferred: ${unknown}only the state of ${edge.to} fits ${edge.address}${assuming}.${pin}`,
    related: [],
  };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * How many of a cycle's other edges a cycle's diagnostic lists as related locations: those along the
 * cycle's path first. A cycle of 40 modules all reading each other has 1,560 edges; listing every
 * other on each would send 2.4 million related rows (a 1,000-module hub: a gigabyte).
 */
export const MAX_RELATED_EDGES = 20;

/** How many of a cycle's modules off its path a message names. */
const MAX_NAMED = 10;

/** Each edge inside a cycle, with its cycle's path and some of the cycle's other edges, and how many there are. */
function cycleEdges(
  result: AnalysisResult,
): { edge: MatchedEdge; path: string[]; members: string[]; others: MatchedEdge[]; otherCount: number }[] {
  const cycleOf = new Map<string, number>();
  result.cycleMembers.forEach((members, index) => {
    for (const id of members) cycleOf.set(id, index);
  });
  const byCycle = new Map<number, MatchedEdge[]>();
  for (const edge of result.edges) {
    const cycle = cycleOf.get(edge.from);
    if (cycle === undefined || cycle !== cycleOf.get(edge.to)) continue;
    const list = byCycle.get(cycle);
    if (list) list.push(edge);
    else byCycle.set(cycle, [edge]);
  }
  return [...byCycle].flatMap(([cycle, edges]) => {
    const path = result.cycles[cycle]!;
    const members = result.cycleMembers[cycle]!;
    const steps = new Set(path.slice(1).map((to, i) => `${path[i]}\0${to}`));
    const onPath = (edge: MatchedEdge) => steps.has(`${edge.from}\0${edge.to}`);
    const alongPath = edges.filter(onPath);
    // A read off the set's path is told the cycle it closes, not one elsewhere in the set.
    const through = alongPath.length < edges.length ? cyclesThroughEdges(result.graph, members) : undefined;
    // One more than listed: an edge drops itself from the list.
    const shown = [...new Set([...alongPath, ...edges])].slice(0, MAX_RELATED_EDGES + 1);
    return edges.map((edge) => ({
      edge,
      path: onPath(edge) || !through ? path : through(edge.from, edge.to),
      members,
      others: shown.filter((other) => other !== edge).slice(0, MAX_RELATED_EDGES),
      otherCount: edges.length - 1,
    }));
  });
}
