import { createHash } from 'node:crypto';
import {
  type AnalysisResult,
  BrokenModulesError,
  brokenModules,
  type ModuleSummary,
  type SkippedModule,
  skippedAsBroken,
} from '../analysis';
import type { ConfigRecord } from '../config';
import { folderRelative } from '../evaluation';
import { compareIds, cyclesAmong } from '../graph';

/**
 * What a CI pipeline runs, independent of the CI system: the modules (all, or a selection such
 * as the changed ones), each with its job-name slug, variables and the dependencies that are in
 * the pipeline too, ordered by execution level. GitLab and GitHub emitters render this.
 */
export interface PipelinePlan {
  /** Sorted by level, then id. */
  modules: PlannedModule[];
  /** The execution levels that hold at least one module, ascending. */
  levels: number[];
  /** Modules left out because they, or a module they depend on, do not parse (with `skipBroken`). */
  skipped: SkippedModule[];
  /** How many Terraform Stacks components (of the selection) get no job: HCP Terraform plans them. */
  components: number;
  /** The graph's cycles that none of a selection's modules closes: left alone, as its order needs none of them. */
  cyclesLeftAlone: number;
}

export interface PlannedModule {
  id: string;
  /** `unit`: a Terragrunt unit, run with terragrunt. */
  kind: 'module' | 'unit';
  /** A unit of a stack file: the stack's folder (relative, `/`-separated), where `terragrunt stack generate` makes it. */
  stackPath?: string;
  /** The module's folder relative to the workspace, `/`-separated; `.` for the workspace itself. */
  path: string;
  /** The job-name part: the id with `/` (and anything but letters, digits, `_`, `-`) as `-`. */
  slug: string;
  level: number;
  /** `TF_MODULE_PATH`, then one `TF_<SEGMENT>` per pattern segment, in pattern order. */
  variables: Record<string, string>;
  segments: Record<string, string>;
  /** Ids of the modules this one depends on that are in the pipeline too, sorted. */
  dependencies: string[];
}

/**
 * A CI file as an emitter makes it, for `generatePipeline` to write: the keys before the jobs,
 * then the jobs in file order. The jobs are made one at a time as the writer asks for them (a
 * generator, iterated once), so a 10,000-module pipeline's job objects never all exist at once.
 */
export interface CiFile {
  head: ConfigRecord;
  /** The key the jobs go under (GitHub's `jobs`); undefined: the jobs are top-level keys (GitLab). */
  jobsKey: string | undefined;
  /** Hidden jobs the jobs extend (GitLab's `.terrace-plan`), written before them and not counted as jobs. */
  templates?: readonly (readonly [name: string, template: ConfigRecord])[];
  jobs: Iterable<readonly [name: string, job: ConfigRecord]>;
}

/** The graph has cycles: no order exists in which to plan and apply. */
export class PipelineCycleError extends Error {
  constructor(readonly cycles: string[][]) {
    super(
      `circular dependency: ${cycles.map((cycle) => cycle.join(' -> ')).join('; ')} — a pipeline needs an order, so none was generated`,
    );
  }
}

/** The workspace reads too many states for its graph to be built (`AnalysisResult.tooBig`): no order to follow. */
export class PipelineTooBigError extends Error {}

/**
 * The plan of a pipeline over `result`'s modules, or over `selection` only (ids; dependencies on
 * modules outside it are dropped). Refuses (throws `PipelineCycleError`) when the modules it holds have
 * cycles among themselves (a selection's order needs no cycle of the rest of the graph, whose modules it
 * does not run) (`PipelineTooBigError` when there is no graph to follow),
 * and (throws `BrokenModulesError`) when a module to plan does not parse, unless `skipBroken`:
 * then such modules and their dependents are left out, and listed as skipped.
 */
export function planPipeline(
  result: AnalysisResult,
  selection?: ReadonlySet<string>,
  skipBroken = false,
): PipelinePlan {
  if (result.tooBig) throw new PipelineTooBigError(`${result.tooBig} No pipeline was generated.`);
  // A Stack's components get no job: HCP Terraform plans them (`terraform stacks plan`), and no root
  // module depends on them, so their cycles are the Stack's, not the pipeline's.
  const runnable = result.modules.filter((module): module is RunnableModule => module.kind !== 'component');
  const components = new Set(result.modules.filter((module) => module.kind === 'component').map((module) => module.id));
  const { own, leftAlone } = selectionCycles(result, selection);
  if (own.length > 0) throw new PipelineCycleError(own);
  const slugs = jobSlugs(runnable.map((module) => module.id));
  let chosen = selection ? runnable.filter((module) => selection.has(module.id)) : runnable;
  const skipped = skippedAsBroken(result, selection);
  if (skipped.length > 0) {
    if (!skipBroken) throw new BrokenModulesError(brokenModules(result, selection));
    const left = new Set(skipped.map((module) => module.id));
    chosen = chosen.filter((module) => !left.has(module.id));
  }
  const present = new Set(chosen.map((module) => module.id));
  const variableNames = new Map<string, string>();
  const modules = chosen.map(
    (module): PlannedModule => ({
      id: module.id,
      kind: module.kind,
      ...(module.stackDir !== undefined ? { stackPath: folderRelative(result.root, module.stackDir) } : {}),
      path: module.id,
      slug: slugs.get(module.id)!,
      level: module.level,
      variables: moduleVariables(module, variableNames),
      segments: module.segments,
      dependencies: result.graph
        .dependencies(module.id)
        .filter((dep) => present.has(dep))
        .sort(compareIds),
    }),
  );
  modules.sort((a, b) => a.level - b.level || compareIds(a.id, b.id));
  const levels = [...new Set(modules.map((module) => module.level))];
  const componentsLeftOut = [...components].filter((id) => !selection || selection.has(id)).length;
  return { modules, levels, skipped, components: componentsLeftOut, cyclesLeftAlone: leftAlone };
}

/**
 * The cycles a pipeline or a run of `selection` (none: every module) must order, closing among its own modules,
 * and how many of the graph's others it leaves alone. A Stack's components get no job and are in neither: HCP
 * Terraform plans them, and their cycles are the Stack's.
 */
export function selectionCycles(
  result: AnalysisResult,
  selection?: ReadonlySet<string>,
): { own: string[][]; leftAlone: number } {
  const components = new Set(result.modules.filter((module) => module.kind === 'component').map((module) => module.id));
  const graphCycles = result.cycles.filter((cycle) => !cycle.some((id) => components.has(id)));
  if (!selection || graphCycles.length === 0) return { own: graphCycles, leftAlone: 0 };
  const chosen = result.modules.filter((module) => selection.has(module.id) && !components.has(module.id));
  const own = cyclesAmong(
    result.graph,
    chosen.map((module) => module.id),
  );
  return { own, leftAlone: own.length > 0 ? 0 : graphCycles.length };
}

/** A module a pipeline can run: a root module or a Terragrunt unit. */
type RunnableModule = ModuleSummary & { kind: 'module' | 'unit' };

/** The plan's modules grouped by execution level, lowest first (`modules` is sorted that way). */
export function modulesByLevel(plan: PipelinePlan): { level: number; modules: PlannedModule[] }[] {
  const groups: { level: number; modules: PlannedModule[] }[] = [];
  for (const module of plan.modules) {
    const last = groups.at(-1);
    if (last?.level === module.level) last.modules.push(module);
    else groups.push({ level: module.level, modules: [module] });
  }
  return groups;
}

/**
 * The plan of some of a plan's modules (a level, a run of levels), for a file of a split pipeline:
 * their dependencies outside it are dropped, as the files' own order keeps them.
 */
export function planPart(modules: readonly PlannedModule[]): PipelinePlan {
  const present = new Set(modules.map((module) => module.id));
  return {
    modules: modules.map((module) => ({
      ...module,
      dependencies: module.dependencies.filter((dep) => present.has(dep)),
    })),
    levels: [...new Set(modules.map((module) => module.level))],
    skipped: [],
    components: 0,
    cyclesLeftAlone: 0,
  };
}

/** The names of a module's jobs, and of the lock they share (GitLab's resource group, GitHub's concurrency group). */
export interface JobNames {
  plan: string;
  apply: string;
  lock: string;
}

/**
 * Each module's `JobNames` (`plan-<slug>`, `apply-<slug>`, `terraform-<slug>`) by id, made once
 * per module rather than at each use: a string made from parts is copied into one piece when it
 * is first read, and the YAML writer reads every string it writes, so a name that appears six
 * times is copied once.
 */
export function jobNames(plan: PipelinePlan): Map<string, JobNames> {
  return new Map(
    plan.modules.map((module) => [
      module.id,
      { plan: `plan-${module.slug}`, apply: `apply-${module.slug}`, lock: `terraform-${module.slug}` },
    ]),
  );
}

/**
 * A job-name slug per id, unique over all ids: `platform/stage/eu-central-1/vpc` gives
 * `platform-stage-eu-central-1-vpc`, `.` gives `root`. Ids that would share a slug (`a/b-c` and
 * `a-b/c`) get a short hash of the id appended, so names do not depend on which jobs are present.
 */
export function jobSlugs(ids: readonly string[]): Map<string, string> {
  const plain = ids.map(plainSlug);
  const count = new Map<string, number>();
  for (const slug of plain) count.set(slug, (count.get(slug) ?? 0) + 1);
  const slugs = new Map<string, string>();
  ids.forEach((id, index) => {
    const slug = plain[index]!;
    slugs.set(id, count.get(slug)! > 1 ? `${slug}-${createHash('sha1').update(id).digest('hex').slice(0, 6)}` : slug);
  });
  return slugs;
}

/** An id's slug when no other id shares it (`jobSlugs` adds a hash to those that do). */
export function plainSlug(id: string): string {
  return id === '.' ? 'root' : id.replace(/[^A-Za-z0-9_-]/g, '-');
}

/**
 * `TF_MODULE_PATH`, then `TF_<SEGMENT>` per segment. `names` remembers each segment's variable
 * name: all modules share a handful of segment names, and the replacement is the costly part.
 */
function moduleVariables(module: ModuleSummary, names: Map<string, string>): Record<string, string> {
  const variables: Record<string, string> = { TF_MODULE_PATH: module.id };
  for (const name in module.segments) {
    let variable = names.get(name);
    if (variable === undefined) {
      variable = `TF_${name.toUpperCase().replace(/[^A-Z0-9_]/g, '_')}`;
      names.set(name, variable);
    }
    variables[variable] = module.segments[name]!;
  }
  return variables;
}

/** A word for a POSIX shell: as it is when it is safe, else in single quotes. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./=:@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
