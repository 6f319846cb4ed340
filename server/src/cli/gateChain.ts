import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { type GateRecord, GITHUB_RECORDS_FILE } from '../engine/pipeline';
import { type GatedModule, type GateMode, gateDecision } from '../engine/run';
import { TERRACE_VERSION } from '../terraceVersion';
import {
  asResult,
  GateInputError,
  parseGateChainSpec,
  parseGateRecord,
  parseGateRecords,
  readSet,
  snippet,
} from './gateInput';
import type { GateIo } from './gateIo';

/**
 * `terrace gate decide` and `forward`: the gate of a GitHub pipeline split by level, whose workflows are chained by
 * `workflow_run`. A job's `if:` cannot read an artifact, and a workflow reads only the artifacts of the run that
 * started it; so each workflow but the last ends with a `forward` job that passes on, as an artifact, the records of
 * its modules' jobs (from its `needs`) and those the workflow before it passed on (`GITHUB_RECORDS_FILE`): the next
 * workflow sees every earlier module's record. Each workflow but the first starts with a `decide` job that reads
 * them and says which of its modules start as far as the earlier workflows go (its output `starts`, which the
 * module jobs' `if:` reads as it reads their upstream jobs'), the reasons in its log. The rule is the engine's
 * `gateDecision`, as for an upstream job's `starts`. Both read the workflow's `TERRACE_GATE` (`GateChainSpec`).
 */

/** The `decide` job: which of the workflow's modules start, from the earlier workflows' records. */
export function decideChained(io: GateIo): void {
  const spec = parseGateChainSpec(io.env['TERRACE_GATE']);
  const records = readChainRecords(io.cwd);
  const mode: GateMode = spec.after === 'plans' ? 'plan' : 'apply';
  const starting: string[] = [];
  const lines: string[] = [];
  for (const [id, reads] of Object.entries(spec.reads)) {
    const upstream = Object.keys(reads);
    const results = upstream.map((writer) => {
      const record = records.get(writer);
      if (!record)
        throw new GateInputError(
          `${GITHUB_RECORDS_FILE} holds no record of ${writer}, which ${id} reads: the workflows before this one pass on the record of every module they ran`,
        );
      return asResult(writer, record);
    });
    const module: GatedModule = {
      changed: false,
      reads: new Map(Object.entries(reads).map(([writer, read]) => [writer, readSet(read.outputs)])),
    };
    const { decision } = gateDecision(module, results, mode, (writer) => records.get(writer)?.waitsFor);
    const before = `as far as ${upstream.join(', ')} ${upstream.length === 1 ? 'goes' : 'go'}`;
    if (decision && 'skip' in decision && decision.skip === 'unaffected')
      lines.push(`${id}: skipped ${before}: ${decision.reason}`);
    else {
      starting.push(spec.modules[id]!);
      // No decision: a read whose output names are known only at run time, and none of them changed.
      const why =
        decision && 'reason' in decision
          ? decision.reason
          : decision && 'run' in decision
            ? decision.run
            : 'it reads outputs named only at run time';
      lines.push(`${id}: starts: ${why}`);
    }
  }
  say(io, lines);
  output(io, `starts=${starting.sort().join(' ')}\n`);
}

/**
 * The `forward` job: the records of the earlier workflows (none for the first) and of this workflow's module jobs,
 * from its `needs` on stdin (a skipped job's module as unaffected), written to `GITHUB_RECORDS_FILE` for the next.
 */
export function forwardRecords(io: GateIo): void {
  const spec = parseGateChainSpec(io.env['TERRACE_GATE']);
  const records = new Map(spec.earlier ? readChainRecords(io.cwd) : []);
  const where = 'the needs on stdin';
  const needs = parseNeeds(io.stdin(), where);
  for (const [id, slug] of Object.entries(spec.modules)) records.set(id, needsRecord(needs, where, id, slug));
  writeFileSync(`${io.cwd}/${GITHUB_RECORDS_FILE}`, `${JSON.stringify(Object.fromEntries(records))}\n`);
  const own = Object.keys(spec.modules).length;
  io.err(`records passed on: ${records.size} (this workflow's modules: ${own})\n`);
}

/** The records the workflows before this one passed on, at the checkout's root. */
export function readChainRecords(cwd: string): Map<string, GateRecord> {
  const file = `${cwd}/${GITHUB_RECORDS_FILE}`;
  if (!existsSync(file))
    throw new GateInputError(
      `${GITHUB_RECORDS_FILE} is missing: the records the workflow before this one passed on (its artifact terrace-records)`,
    );
  return parseGateRecords(readFileSync(file, 'utf8'), GITHUB_RECORDS_FILE);
}

type Needs = Record<string, { result?: unknown; outputs?: Record<string, unknown> } | null>;

/** A job's `toJSON(needs)` (`where` names it). */
export function parseNeeds(text: string, where: string): Needs {
  let needs: unknown;
  try {
    needs = JSON.parse(text);
  } catch {
    throw new GateInputError(`${where} is not JSON: ${snippet(text)}`);
  }
  if (typeof needs !== 'object' || needs === null || Array.isArray(needs))
    throw new GateInputError(`${where} is not a JSON object`);
  return needs as Needs;
}

/**
 * A module's record from `toJSON(needs)`: its module job's `record` output, or, when that job was skipped (its
 * `if:` found nothing it reads changed), unaffected.
 */
export function needsRecord(needs: Needs, where: string, id: string, slug: string): GateRecord {
  const job = `module-${slug}`;
  const entry = needs[job];
  if (typeof entry !== 'object' || entry === null)
    throw new GateInputError(`${where} has no job ${job}, the job of ${id}`);
  if (entry.result === 'skipped') return { terrace: TERRACE_VERSION, module: id, stage: 'plan', status: 'unaffected' };
  const text = entry.outputs?.['record'];
  if (typeof text !== 'string' || text === '')
    throw new GateInputError(`the job ${job} (${id}) ended ${String(entry.result)} without a record`);
  // Its plan job's record when that job ended it, else its apply job's.
  return parseGateRecord(text, `the record of ${job}`, id, undefined);
}

/** Reasons in the job's log and its step summary (as code: a folder's name is text there, not Markdown). */
function say(io: GateIo, lines: readonly string[]): void {
  io.err(lines.map((line) => `${line}\n`).join(''));
  const summary = io.env['GITHUB_STEP_SUMMARY'];
  if (summary && lines.length > 0) appendFileSync(summary, lines.map((line) => `    ${line}\n`).join(''));
}

function output(io: GateIo, lines: string): void {
  const file = io.env['GITHUB_OUTPUT'];
  if (!file) throw new GateInputError('GITHUB_OUTPUT is not set: terrace gate writes the job outputs there');
  appendFileSync(file, lines);
}
