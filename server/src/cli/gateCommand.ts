import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { outputChanges, outputHashes } from '../../../runner/src';
import { type GateRecord, type GateSpec, gateRecordFile } from '../engine/pipeline';
import {
  type GatedModule,
  type GateMode,
  gateDecision,
  type ModuleGate,
  type OutputChange,
  type OutputsRead,
  summarizePlanJson,
} from '../engine/run';
import { TERRACE_VERSION } from '../terraceVersion';
import { decideChained, forwardRecords, needsRecord, parseNeeds, readChainRecords } from './gateChain';
import { asResult, GateInputError, parseGateRecord, parseGateSpec, parseHashes, readSet, snippet } from './gateInput';
import type { GateIo } from './gateIo';

/**
 * `terrace gate <step>`: what a job of a changed-only pipeline runs to decide, from the outputs its module reads,
 * whether it plans and applies (the rule is the engine's `gateDecision`, as `terrace plan --changed-only` runs
 * it). What the job needs comes from its `TERRACE_GATE` variable, written at generation time; what its upstream
 * jobs did, from the records they wrote: GitLab, files at the checkout's root (artifacts); GitHub, their job
 * outputs (`TERRACE_NEEDS`, the caller's `toJSON(needs)`), or, for an upstream of an earlier workflow of a chain
 * split by level (the spec's `earlier`), the records file the chain passes on. Run at the checkout's root. Steps:
 *
 * - `plan`, before init: prints `plan` (plan it) or `skip` (unaffected or stale: the job ends, green);
 * - `planned`, its saved plan's `terraform show -json` on stdin: records what the plan does to its outputs;
 * - `apply` (GitLab), before init: `skip` (unaffected), `saved` (apply its saved plan) or `fresh` (plan afresh and
 *   apply: an output it reads changed in an upstream's apply, or its plan job did not plan it);
 * - `outputs`, `terraform output -json` on stdin: prints a hash of each value, for `applied`;
 * - `applied --before <hashes>`, `terraform output -json` on stdin after the apply: records what it changed;
 * - `decide` and `forward`, in the jobs of a GitHub workflow chained by level (see `gateChain.ts`): which of the
 *   workflow's modules start, from the records the workflows before it passed on; those records and the
 *   workflow's own, passed on to the next.
 *
 * The reasons go to stderr (the job's log) in the words `terrace plan` uses; only names and kinds of output
 * changes are written, never a value. Exit 1 with one line on bad input: no spec, another version, a record
 * missing or not one.
 */
export const GATE_STEPS = ['plan', 'planned', 'apply', 'outputs', 'applied', 'decide', 'forward'] as const;
export type GateStep = (typeof GATE_STEPS)[number];

export function gateCommand(step: GateStep, flags: { before?: string }, io: GateIo): number {
  try {
    if (step === 'outputs') {
      io.out(`${JSON.stringify(Object.fromEntries(stateHashes(io.stdin(), 'before the apply')))}\n`);
      return 0;
    }
    if (step === 'decide' || step === 'forward') {
      if (step === 'decide') decideChained(io);
      else forwardRecords(io);
      return 0;
    }
    const spec = parseGateSpec(io.env['TERRACE_GATE']);
    const job = new GateJob(spec, io);
    if (step === 'plan') job.beforePlan();
    else if (step === 'planned') job.planned(io.stdin());
    else if (step === 'apply') job.beforeApply();
    else {
      if (flags.before === undefined) throw new GateInputError('terrace gate applied needs --before <hashes>');
      job.applied(parseHashes(flags.before), io.stdin());
    }
    return 0;
  } catch (error) {
    if (!(error instanceof GateInputError)) throw error;
    io.err(`Error: ${error.message}\n`);
    return 1;
  }
}

function stateHashes(json: string, when: string): ReadonlyMap<string, string> {
  const hashes = outputHashes(json);
  if (!hashes)
    throw new GateInputError(`the input is not what terraform output -json prints (${when}): ${snippet(json)}`);
  return hashes;
}

/** One module's job: its spec, and the records of its upstreams' jobs. */
class GateJob {
  private readonly module: GatedModule;
  /** GitHub split by level: the records of the earlier workflows' modules, once read. */
  private earlier: ReadonlyMap<string, GateRecord> | undefined;

  constructor(
    private readonly spec: GateSpec,
    private readonly io: GateIo,
  ) {
    const reads = Object.entries(spec.reads).map(([id, read]): [string, OutputsRead] => [id, readSet(read.outputs)]);
    this.module = { changed: spec.changed, reads: new Map(reads) };
  }

  /** Before init in a plan job: plan it, or end the job (unaffected, or stale until an upstream applies). */
  beforePlan(): void {
    const { decision, waitsFor } = this.decideBeforePlan();
    const id = this.spec.module;
    if (decision && 'skip' in decision) {
      const status = decision.skip;
      if (status === 'unaffected') this.say(`${id}: skipped: ${decision.reason}`);
      else
        this.say(
          `${id}: ${decision.reason}`,
          `${id}: not planned now: its plan would read values its upstreams' applies replace`,
        );
      this.record({ stage: 'plan', status, reason: decision.reason, ...(waitsFor ? { waitsFor: [...waitsFor] } : {}) });
      this.step('skip');
      return;
    }
    this.say(`${id}: planning${planningReason(this.spec, decision)}`);
    this.step('plan');
  }

  /** After the plan: what it does to the module's outputs, for its dependents. */
  planned(showJson: string): void {
    let outputs: Record<string, OutputChange>;
    try {
      outputs = summarizePlanJson(showJson).outputs;
    } catch {
      throw new GateInputError(`the input is not what terraform show -json prints of a plan: ${snippet(showJson)}`);
    }
    const { waitsFor } = this.decideBeforePlan();
    this.say(`${this.spec.module}: planned; its outputs: ${outputsText(outputs)}`);
    this.record({ stage: 'plan', status: 'planned', outputs, ...(waitsFor ? { waitsFor: [...waitsFor] } : {}) });
  }

  /** Before init in a GitLab apply job: skip, apply the saved plan, or plan afresh and apply. */
  beforeApply(): void {
    const id = this.spec.module;
    const own = this.read(this.spec.module, this.spec.slug, 'plan');
    const { decision } = this.decide('apply', 'apply');
    if (decision && 'skip' in decision) {
      this.say(`${id}: skipped: ${decision.reason}`);
      this.record({ stage: 'apply', status: 'unaffected', reason: decision.reason });
      this.step('skip');
    } else if (decision && 'run' in decision) {
      this.say(`${id}: planning and applying, as ${decision.run}`);
      this.step('fresh');
    } else if (own.status !== 'planned') {
      this.say(`${id}: planning and applying: its plan job did not plan it (${own.status}: ${own.reason ?? ''})`);
      this.step('fresh');
    } else {
      const upstream = Object.keys(this.spec.reads).length > 0;
      this.say(
        `${id}: applying its saved plan${upstream ? ": no output it reads changed in its upstreams' applies" : ''}`,
      );
      this.step('saved');
    }
  }

  /** After the apply: what it did to the module's outputs, compared by hash with before. */
  applied(before: ReadonlyMap<string, string>, outputJson: string): void {
    const outputs = outputChanges(before, stateHashes(outputJson, 'after the apply'));
    const changed = Object.keys(outputs)
      .sort()
      .filter((name) => outputs[name] !== 'unchanged');
    this.say(
      `${this.spec.module}: applied; ${changed.length > 0 ? `outputs changed: ${changed.join(', ')}` : 'no output changed'}`,
    );
    this.record({ stage: 'apply', status: 'applied', outputs });
  }

  /** The plan job's decision: from the upstreams' plans, or (GitHub) from their applies. */
  private decideBeforePlan(): ModuleGate {
    return this.spec.after === 'plans' ? this.decide('plan', 'plan') : this.decide('apply', 'apply');
  }

  /** The decision from the upstreams' records of `stage`. */
  private decide(stage: GateRecord['stage'], mode: GateMode): ModuleGate {
    const records = new Map<string, GateRecord>();
    for (const [id, read] of Object.entries(this.spec.reads)) records.set(id, this.read(id, read.slug, stage));
    const results = [...records.entries()].map(([id, record]) => asResult(id, record));
    return gateDecision(this.module, results, mode, (id) => records.get(id)?.waitsFor);
  }

  /** The record an upstream's job (or this module's plan job) wrote. */
  private read(id: string, slug: string, stage: GateRecord['stage']): GateRecord {
    if (this.spec.earlier?.includes(id)) {
      this.earlier ??= readChainRecords(this.io.cwd);
      const record = this.earlier.get(id);
      if (!record) throw new GateInputError(`the records of the workflows before this one hold none of ${id}`);
      return record;
    }
    if (this.spec.ci === 'gitlab') {
      const file = `${this.io.cwd}/${gateRecordFile(slug, stage)}`;
      const name = gateRecordFile(slug, stage);
      if (!existsSync(file))
        throw new GateInputError(
          `${name} is missing: the record of ${id}'s ${stage} job, which this job needs (an artifact of ${stage}-${slug})`,
        );
      return parseGateRecord(readFileSync(file, 'utf8'), name, id, stage);
    }
    const needs = this.io.env['TERRACE_NEEDS'];
    if (needs === undefined)
      throw new GateInputError('TERRACE_NEEDS is not set: the caller passes toJSON(needs) as the input upstream');
    return needsRecord(parseNeeds(needs, 'TERRACE_NEEDS'), 'TERRACE_NEEDS', id, slug);
  }

  /** Writes this job's record: GitLab, its file; GitHub, its outputs and which dependents start. */
  private record(parts: Omit<GateRecord, 'terrace' | 'module'>): void {
    const record: GateRecord = { terrace: TERRACE_VERSION, module: this.spec.module, ...parts };
    const text = JSON.stringify(record);
    if (this.spec.ci === 'gitlab') {
      writeFileSync(`${this.io.cwd}/${gateRecordFile(this.spec.slug, record.stage)}`, `${text}\n`);
      return;
    }
    // A plan its apply job follows: the apply's record is the one its dependents read.
    if (this.spec.after === 'applies' && record.status === 'planned') {
      this.output(`record=${text}\n`);
      return;
    }
    this.output(`record=${text}\nstarts=${this.dependentsStarting(record).join(' ')}\n`);
  }

  /** GitHub: the job slugs of the dependents this record lets start (they decide the rest themselves). */
  private dependentsStarting(record: GateRecord): string[] {
    const mode: GateMode = this.spec.after === 'plans' ? 'plan' : 'apply';
    const self = asResult(this.spec.module, record);
    const starting: string[] = [];
    for (const [id, read] of Object.entries(this.spec.dependents ?? {})) {
      const dependent: GatedModule = { changed: false, reads: new Map([[this.spec.module, readSet(read.outputs)]]) };
      const { decision } = gateDecision(dependent, [self], mode, (upstream) =>
        upstream === this.spec.module ? record.waitsFor : undefined,
      );
      if (decision && 'skip' in decision && decision.skip === 'unaffected')
        this.say(`${id}: skipped as far as ${this.spec.module} goes: ${decision.reason}`);
      else {
        starting.push(read.slug);
        const why =
          decision && 'reason' in decision
            ? `: ${decision.reason}`
            : decision && 'run' in decision
              ? `: ${decision.run}`
              : '';
        this.say(`${id}: starts${why}`);
      }
    }
    return starting.sort();
  }

  private step(word: string): void {
    this.io.out(`${word}\n`);
    if (this.spec.ci === 'github') this.output(`step=${word}\n`);
  }

  /** A reason, in the job's log (and GitHub's step summary). */
  private say(...lines: string[]): void {
    const text = lines.map((line) => `${line}\n`).join('');
    this.io.err(text);
    const summary = this.io.env['GITHUB_STEP_SUMMARY'];
    // As an indented code block: a folder's name is text there, not Markdown.
    if (this.spec.ci === 'github' && summary) appendFileSync(summary, lines.map((line) => `    ${line}\n`).join(''));
  }

  private output(lines: string): void {
    const file = this.io.env['GITHUB_OUTPUT'];
    if (!file) throw new GateInputError('GITHUB_OUTPUT is not set: terrace gate writes the job outputs there');
    appendFileSync(file, lines);
  }
}

/** Why a module is planned: its own change, a read whose names are not known, or an upstream's apply. */
function planningReason(spec: GateSpec, decision: ModuleGate['decision']): string {
  if (decision && 'stale' in decision) return ` (its own files changed), marked stale: ${decision.stale}`;
  if (decision && 'run' in decision) return `, as ${decision.run}`;
  if (spec.changed) return ': its own files changed';
  return ': it reads outputs named only at run time';
}

function outputsText(outputs: Record<string, OutputChange>): string {
  const names = Object.keys(outputs).sort();
  return names.length === 0 ? 'none' : names.map((name) => `${name} (${outputs[name]})`).join(', ');
}
