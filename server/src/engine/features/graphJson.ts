import path from 'node:path';
import type { AnalysisResult } from '../analysis';
import type { OutputContracts } from '../contracts';
import { coveringCycles } from '../graph';
import type { Range } from '../hcl';
import { assumedValues, type MatchKind, type UnmatchedReference } from '../state';
import { referenceLabel } from '../workspace';

/**
 * The stable JSON form of an analysis (`terrace graph --format json`), read by other tools: ids
 * are paths relative to the root with `/`, files are relative to the root, lines are 1-based.
 */
export interface GraphJson {
  root: string;
  modules: {
    id: string;
    path: string;
    /** `unit`: a Terragrunt unit (run with terragrunt); `module`: a Terraform root module; `component`: a Stack's. */
    kind: 'module' | 'unit' | 'component';
    /** Null for a module in a cycle, or depending on one: nothing can run it until the cycle is broken. */
    level: number | null;
    segments: Record<string, string>;
    backend: { type: string; address: string | null } | null;
    /** False when a file it reads does not parse (see `syntaxErrors`): its edges come from the blocks that still do. */
    parses: boolean;
  }[];
  edges: {
    from: string;
    to: string;
    file: string;
    line: number;
    name: string;
    instance: string | null;
    address: string;
    matchedBy: 'backend-address' | 'path-convention' | 'known-text' | 'dependency' | 'component';
    /** `exact`; `inferred` (one writer fits the known parts); `ambiguous` (several fit: an edge to each). */
    match: MatchKind;
    /** What an inferred or ambiguous edge assumes of the unknown parts: each hole's value, null if unknown. */
    assumed: Record<string, string | null>;
    /** The writer's outputs the reader reads along this edge, sorted (given with the contracts). */
    outputs?: string[];
  }[];
  /** The modules of each level; a module without one (see `level`) is in none. */
  levels: string[][];
  /**
   * Cycles, as closed paths (`["a", "b", "c", "a"]`): for each strongly connected set of modules,
   * shortest first, enough to pass through each of its modules, at most 10 a set (`MAX_CYCLES_PER_SET`).
   */
  cycles: string[][];
  /** Each strongly connected set of modules (a cycle's modules and the others that close on it), sorted. */
  cycleModules: string[][];
  /** The modules that depend on a cycle's and so wait for it, with no level. */
  waitingForCycles: string[];
  unresolved: (ReferencePlace & {
    reason: string;
    /** A component or Terragrunt unit that does not exist, a block Terragrunt refuses: the configuration would not validate. */
    error: boolean;
  })[];
  ambiguous: (ReferencePlace & { address: string; writers: string[] })[];
  syntaxErrors: { file: string; line: number; column: number; message: string }[];
  /** `error`: Terragrunt itself refuses it (a unit that includes itself), or the workspace is too big for a graph. */
  problems: { file: string; line: number | null; message: string; error: boolean }[];
  /** Given with the contracts: the reads of other states' outputs, and those of outputs a writer does not declare. */
  outputReads?: OutputReadsJson;
}

export interface OutputReadsJson {
  /** Every read of another state's output found. */
  reads: number;
  /** Reads whose writers' code is in the repository and declares the output. */
  declared: number;
  /** Reads of an output named at run time only (`outputs[var.name]`): never checked. */
  computed: number;
  /** Reads of a state with no writer in the repository, or whose writer's code is not in it. */
  unchecked: number;
  /** Reads of an output a writer does not declare (and `mock_outputs` keys the dependency does not declare). */
  missing: {
    file: string;
    line: number;
    column: number;
    output: string;
    writers: string[];
    severity: 'error' | 'warning';
    message: string;
  }[];
}

/** Where a reference that found no single writer is, and how its configuration names it. */
interface ReferencePlace {
  from: string;
  file: string;
  line: number;
  name: string;
  /** `data.terraform_remote_state.vpc`, `dependency.vpc`, `component.vpc`. */
  label: string;
  instance: string | null;
}

/** The analysis as JSON; with the contracts, each edge lists the outputs read along it. */
export function graphJson(result: AnalysisResult, contracts?: OutputContracts): GraphJson {
  const rel = (file: string) => relativeFile(result.root, file);
  const unleveled = new Set([...result.cycleMembers.flat(), ...result.waitingForCycles]);
  const place = (item: { from: string; reference: UnmatchedReference['reference'] }) => ({
    from: item.from,
    file: rel(item.reference.file),
    line: item.reference.headerRange.start.line + 1,
    name: item.reference.name,
    instance: item.reference.instance,
  });
  return {
    root: result.root,
    modules: result.modules.map((module) => ({
      id: module.id,
      path: module.dir,
      kind: module.kind,
      level: unleveled.has(module.id) ? null : module.level,
      segments: module.segments,
      backend: module.backend ? { type: module.backend.type, address: module.backend.address ?? null } : null,
      parses: module.syntaxErrors.length === 0,
    })),
    edges: sortByPlace(
      result.edges.map((edge) => ({
        ...place(edge),
        to: edge.to,
        address: edge.address,
        matchedBy: edge.matchedBy,
        match: edge.match,
        assumed: assumedValues(edge.assumed),
        ...(contracts ? { outputs: [...contracts.outputsAlong(edge)] } : {}),
      })),
    ).map(({ from, to, file, line, name, instance, address, matchedBy, match, assumed, outputs }) => ({
      from,
      to,
      file,
      line,
      name,
      instance,
      address,
      matchedBy,
      match,
      assumed,
      ...(outputs ? { outputs } : {}),
    })),
    levels: leveled(result.levels, unleveled),
    cycles: result.cycleMembers.flatMap((members) => coveringCycles(result.graph, members)),
    cycleModules: result.cycleMembers,
    waitingForCycles: result.waitingForCycles,
    unresolved: sortByPlace(
      result.unresolved.map((item) => ({
        ...place(item),
        label: referenceLabel(item.reference),
        reason: item.reason,
        error: item.missingComponent === true || item.missingUnit === true || item.refused === true,
      })),
    ),
    ambiguous: sortByPlace(
      result.ambiguous.map((item) => ({
        ...place(item),
        label: referenceLabel(item.reference),
        address: item.address ?? '',
        writers: item.writers,
      })),
    ),
    syntaxErrors: result.syntaxErrors.map((error) => ({
      file: rel(error.file),
      line: (error.range?.start.line ?? 0) + 1,
      column: (error.range?.start.character ?? 0) + 1,
      message: error.message,
    })),
    problems: result.problems.map((problem) => ({
      file: rel(problem.file),
      line: problem.range ? problem.range.start.line + 1 : null,
      message: problem.message,
      error: problem.error !== undefined,
    })),
    ...(contracts ? { outputReads: outputReadsJson(contracts, rel) } : {}),
  };
}

function outputReadsJson(contracts: OutputContracts, rel: (file: string) => string): OutputReadsJson {
  let declared = 0;
  let computed = 0;
  let unchecked = 0;
  for (const use of contracts.uses) {
    if (use.output === undefined) computed++;
    else if (use.writers.every((writer) => writer.declared === null)) unchecked++;
    else if (use.writers.some((writer) => writer.declared)) declared++;
  }
  return {
    reads: contracts.uses.length,
    declared,
    computed,
    unchecked,
    missing: contracts.problems.map((problem) => ({
      file: rel(problem.file),
      line: problem.range.start.line + 1,
      column: problem.range.start.character + 1,
      output: problem.output,
      writers: problem.writers,
      severity: problem.severity,
      message: problem.message,
    })),
  };
}

/**
 * The levels without the modules that have none: a level only they filled is the last (whatever has a
 * level depends on modules that have one), so no level in between is left empty.
 */
function leveled(levels: readonly string[][], unleveled: ReadonlySet<string>): string[][] {
  const kept = levels.map((ids) => ids.filter((id) => !unleveled.has(id)));
  while (kept.length > 0 && kept.at(-1)!.length === 0) kept.pop();
  return kept;
}

/** `app/api/main.tf:5: syntax error: …`: a problem with its place, as the CLI prints it. */
export function problemLine(
  root: string,
  problem: { file: string; range: Range | undefined; message: string },
): string {
  return `${relativeFile(root, problem.file)}:${(problem.range?.start.line ?? 0) + 1}: ${problem.message}`;
}

export function relativeFile(root: string, file: string): string {
  const relative = path.relative(root, file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative.split(path.sep).join('/');
}

/** Sorted by reader, file, line, instance: the order a person reads them in. */
function sortByPlace<T extends { from: string; file: string; line: number; instance: string | null }>(items: T[]): T[] {
  const key = (item: T) => [item.from, item.file, String(item.line).padStart(8, '0'), item.instance ?? ''];
  return items.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! < kb[i]! ? -1 : 1;
    return 0;
  });
}
