import type { AnalysisResult } from '../analysis';
import type { Location, Range } from '../hcl';
import { describeAssumed, type MatchedEdge, type UnmatchedReference, unreadableNote } from '../state';
import { referenceLabel } from '../workspace';

/** A problem in one file, as the Problems view shows it. LSP-compatible but free of LSP types. */
export interface EngineDiagnostic {
  range: Range;
  severity: 'error' | 'warning' | 'information';
  /** `cycle`, `unwritten-state`, `unresolved-reference`, `missing-unit`, `inferred-reference`, `ambiguous-writer`, `hcl-syntax`, `module-problem`. */
  code: DiagnosticCode;
  message: string;
  related: { location: Location; message: string }[];
}

export type DiagnosticCode =
  | 'cycle'
  | 'unwritten-state'
  | 'unresolved-reference'
  | 'missing-unit'
  | 'unknown-component'
  | 'inferred-reference'
  | 'ambiguous-writer'
  | 'hcl-syntax'
  | 'module-problem';

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
  for (const { edge, path, others } of cycleEdges(result)) {
    add(edge.reference.file, {
      range: edge.reference.headerRange,
      severity: 'error',
      code: 'cycle',
      message: `Circular dependency: ${path.join(' -> ')}`,
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
      range: error.range ?? START,
      severity: 'error',
      code: 'hcl-syntax',
      message: error.message,
      related: [],
    });
  }
  for (const problem of result.problems) {
    add(problem.file, {
      range: problem.range ?? START,
      severity: 'warning',
      code: 'module-problem',
      message: problem.message,
      related: [],
    });
  }
  return byFile;
}

const START: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

function unresolvedDiagnostic(item: UnmatchedReference): EngineDiagnostic {
  // What terragrunt or the Stack would reject: a unit where none is, a component the Stack lacks.
  if (item.missingUnit || item.missingComponent) {
    return {
      range: item.reference.headerRange,
      severity: 'error',
      code: item.missingComponent ? 'unknown-component' : 'missing-unit',
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

/** Each edge inside a cycle, with its cycle's path and the cycle's other edges. */
function cycleEdges(result: AnalysisResult): { edge: MatchedEdge; path: string[]; others: MatchedEdge[] }[] {
  const cycleOf = new Map<string, number>();
  result.cycleMembers.forEach((members, index) => {
    for (const id of members) cycleOf.set(id, index);
  });
  const inCycle = result.edges.filter(
    (edge) => cycleOf.has(edge.from) && cycleOf.get(edge.from) === cycleOf.get(edge.to),
  );
  return inCycle.map((edge) => ({
    edge,
    path: result.cycles[cycleOf.get(edge.from)!]!,
    others: inCycle.filter((other) => other !== edge && cycleOf.get(other.from) === cycleOf.get(edge.from)),
  }));
}
