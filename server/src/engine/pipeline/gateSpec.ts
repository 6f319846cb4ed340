import { type OutputContracts, upstreamReads } from '../contracts';
import type { OutputChange, OutputsRead } from '../run';
import type { MatchedEdge } from '../state';
import { type PipelinePlan, plainSlug } from './pipelinePlan';

/**
 * What the jobs of a gated pipeline (changed-only) tell each other, and what the generator tells each job: the
 * contract between `generatePipeline` and `terrace gate`, which runs in the jobs. Names and kinds of output
 * changes only: never a value.
 */

/** What a module reads of another module of the pipeline: the outputs it names, all of them, or names not known. */
export interface GateRead {
  /** The other module's job slug: its jobs' names and the files they write. */
  slug: string;
  outputs: string[] | 'all' | 'unknown';
}

/** What a module's jobs need to decide, written into them at generation time (`TERRACE_GATE`). */
export interface GateSpec {
  /** The version of Terrace that generated the pipeline: the jobs refuse another. */
  terrace: string;
  ci: 'gitlab' | 'github';
  /**
   * What the upstream records read before a module plans are: their `plans` (GitLab, whose dependents plan before
   * their upstreams apply; a plan-only pipeline), or their `applies` (GitHub, whose module job plans and applies).
   */
  after: 'plans' | 'applies';
  module: string;
  slug: string;
  /** Its own files changed: it plans whatever its upstreams do. */
  changed: boolean;
  /** What it reads of each module it depends on in the pipeline, by id (in the JSON, as `gateReadText`). */
  reads: Record<string, GateRead>;
  /** GitHub: what each module that depends on it in the pipeline reads of it, by id, to say which of them start. */
  dependents?: Record<string, GateRead>;
  /**
   * GitHub split by level: the modules it reads whose jobs ran in an earlier workflow of the chain, by id: their
   * records are in the file the chain passes on (`GITHUB_RECORDS_FILE`), not in its caller's `needs`.
   */
  earlier?: string[];
}

/**
 * What the `decide` and `forward` jobs of a chained GitHub workflow need (split by level), written into them at
 * generation time (`TERRACE_GATE`): the workflow's modules, and what each reads of the modules of earlier
 * workflows.
 */
export interface GateChainSpec {
  terrace: string;
  after: GateSpec['after'];
  /** The workflow's modules: their job slugs, by id. */
  modules: Record<string, string>;
  /** What each of them reads of the modules of earlier workflows, by id (in the JSON, as `gateReadText`). */
  reads: Record<string, Record<string, GateRead>>;
  /** It has a workflow before it, whose records it passes on: every workflow of the chain but the first. */
  earlier: boolean;
}

/**
 * The file a chained workflow passes on to the next, at the checkout's root: the record of each module of the
 * workflows so far, by id (a skipped module's job as unaffected). No folder in its name: an artifact's path is
 * read as a glob, and a hidden folder left out.
 */
export const GITHUB_RECORDS_FILE = 'terrace-records.json';

/** What a module's plan or apply job did, for the jobs of the modules that depend on it. */
export interface GateRecord {
  terrace: string;
  module: string;
  stage: 'plan' | 'apply';
  /** `stale`: not planned, as an output it reads changes once an upstream applies. */
  status: 'planned' | 'applied' | 'unaffected' | 'stale';
  reason?: string;
  /** What its plan or apply does to each of its outputs (planned, applied). */
  outputs?: Record<string, OutputChange>;
  /** Stale (planned or not): the modules whose applies it waits for. */
  waitsFor?: string[];
}

/** What decides the gate of each module: the modules the change reaches, and what each reads of each upstream. */
export interface PipelineGate {
  /** The version of Terrace the jobs must run: the one generating the pipeline. */
  terrace: string;
  reached: ReadonlySet<string>;
  reads: ReadonlyMap<string, ReadonlyMap<string, OutputsRead>>;
}

/**
 * The gate of a changed-only pipeline, as the hosts make it: the version of Terrace the jobs must run, the modules
 * whose own files the change reaches (`reached`: their ids), and what each module reads of each it depends on.
 */
export function pipelineGate(
  terrace: string,
  reached: Iterable<string>,
  contracts: OutputContracts,
  edges: readonly MatchedEdge[],
): PipelineGate {
  return { terrace, reached: new Set(reached), reads: upstreamReads(contracts, edges) };
}

/**
 * The file a GitLab job writes its record to, at the root of the checkout, named after the module's lock
 * (`terraform-<slug>`) as its plan file is: `$TERRACE_LOCK.plan.json` in the job's artifacts.
 */
export function gateRecordFile(slug: string, stage: GateRecord['stage']): string {
  return `terraform-${slug}.${stage}.json`;
}

/**
 * A read of module `id` as the spec writes it, short as the pipeline repeats it for every edge: the job slug (`=`
 * when it is the id's own, `plainSlug`), then the output names, or `*` (all of them) or `?` (names not known),
 * space-separated (`= cidr vpc_id`). Output names are identifiers: no space, `*` or `?` in them.
 */
export function gateReadText(id: string, read: GateRead): string {
  const outputs = read.outputs === 'all' ? ['*'] : read.outputs === 'unknown' ? ['?'] : read.outputs;
  return [read.slug === plainSlug(id) ? '=' : read.slug, ...outputs].join(' ');
}

/** `gateReadText`'s read of module `id`; undefined when the text is not one. */
export function parseGateRead(id: string, text: string): GateRead | undefined {
  const [written, ...names] = text.split(' ');
  const slug = written === '=' ? plainSlug(id) : written;
  if (slug === undefined || !/^[A-Za-z0-9_-]+$/.test(slug)) return undefined;
  if (names.length === 1 && (names[0] === '*' || names[0] === '?'))
    return { slug, outputs: names[0] === '*' ? 'all' : 'unknown' };
  if (!names.every((name) => /^[^\s*?]+$/.test(name))) return undefined;
  return { slug, outputs: names };
}

/** What `reader` reads of `writer`, both modules of `plan`, as a spec says it. */
export function gateReadOf(plan: PipelinePlan, gate: PipelineGate): (reader: string, writer: string) => GateRead {
  const slugOf = new Map(plan.modules.map((module) => [module.id, module.slug]));
  return (reader, writer) => {
    const read = gate.reads.get(reader)?.get(writer) ?? 'unknown';
    return { slug: slugOf.get(writer)!, outputs: typeof read === 'string' ? read : [...read].sort() };
  };
}

/** Reads by id as the JSON of a spec writes them (`gateReadText`). */
export function gateReadTexts(reads: Record<string, GateRead>): Record<string, string> {
  return Object.fromEntries(Object.entries(reads).map(([id, read]) => [id, gateReadText(id, read)]));
}

/**
 * Each module's `GateSpec` as JSON (its reads as `gateReadText`), by id. `workflowOf`: a GitHub chain's workflow
 * of each module (split by level), to say which modules it reads ran in an earlier one.
 */
export function gateSpecs(
  plan: PipelinePlan,
  gate: PipelineGate,
  ci: GateSpec['ci'],
  after: GateSpec['after'],
  workflowOf?: ReadonlyMap<string, number>,
): Map<string, string> {
  const readOf = gateReadOf(plan, gate);
  const dependents = new Map<string, Record<string, GateRead>>();
  if (ci === 'github')
    for (const module of plan.modules)
      for (const dep of module.dependencies) {
        const own = dependents.get(dep) ?? {};
        dependents.set(dep, own);
        own[module.id] = { ...readOf(module.id, dep), slug: module.slug };
      }
  const specs = new Map<string, string>();
  for (const module of plan.modules) {
    const earlier = workflowOf
      ? module.dependencies.filter((dep) => workflowOf.get(dep)! < workflowOf.get(module.id)!)
      : [];
    const spec = {
      terrace: gate.terrace,
      ci,
      after,
      module: module.id,
      slug: module.slug,
      changed: gate.reached.has(module.id),
      reads: gateReadTexts(Object.fromEntries(module.dependencies.map((dep) => [dep, readOf(module.id, dep)]))),
      ...(ci === 'github' ? { dependents: gateReadTexts(dependents.get(module.id) ?? {}) } : {}),
      ...(earlier.length > 0 ? { earlier } : {}),
    };
    specs.set(module.id, JSON.stringify(spec));
  }
  return specs;
}
