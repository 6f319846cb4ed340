import { folderRelative } from '../../server/src/engine/evaluation';
import { compareIds } from '../../server/src/engine/graph';
import { describeCounts, type ModuleRunResult, type PlanCounts, type RunEvent } from '../../server/src/engine/run';
import type { ModuleOutcome, RunKind, RunReport, RunTarget } from './runRequest';

/**
 * What a run prints, the same in the editor's terminal and in `terrace plan`: each module's
 * terraform output prefixed with its id in a stable colour, a status line as each module starts
 * and finishes, and a summary table with durations. Text only (with ANSI colours when asked);
 * lines end with `\n`.
 */
export interface PrinterOptions {
  color: boolean;
  /** The workspace root, to print paths relative to it. */
  root: string;
}

const RESET = '\x1b[0m';
const ID_COLORS = [36, 35, 33, 34, 96, 95, 93, 94, 32, 92];
const MAX_PREFIX = 40;

/** The colour of a module id: the same for an id in every run (a hash of it). */
export function idColor(id: string): number {
  let hash = 0;
  for (let i = 0; i < id.length; i++) hash = (hash * 31 + id.charCodeAt(i)) >>> 0;
  return ID_COLORS[hash % ID_COLORS.length]!;
}

const VERB: Record<RunKind, string> = {
  plan: 'planning',
  drift: 'checking drift',
  apply: 'applying',
  deploy: 'planning and applying',
};
const TITLE: Record<RunKind, string> = { plan: 'plan', drift: 'drift check', apply: 'apply', deploy: 'apply' };

export class RunPrinter {
  private width = 0;
  private targets: RunTarget[] = [];

  constructor(
    private readonly write: (text: string) => void,
    private readonly options: PrinterOptions,
  ) {}

  private paint(code: number | string, text: string): string {
    return this.options.color ? `\x1b[${code}m${text}${RESET}` : text;
  }

  private id(id: string): string {
    return this.paint(idColor(id), id);
  }

  /** The first lines: what runs, how many at once, with which binary, where the logs go. */
  begin(
    kind: RunKind,
    targets: RunTarget[],
    run: { runDir: string; parallelism: number; binary: { version: string } },
  ) {
    this.targets = targets;
    this.width = Math.min(MAX_PREFIX, Math.max(0, ...targets.map((target) => target.id.length)));
    const count = `${targets.length} module${targets.length === 1 ? '' : 's'}`;
    this.write(
      this.paint(1, `Terrace ${TITLE[kind]}: ${count}, parallelism ${run.parallelism}, ${run.binary.version}`) + '\n',
    );
    this.write(this.paint(2, `Logs and plans: ${this.relative(run.runDir)}/`) + '\n');
  }

  /** A line of a module's terraform output. */
  output(id: string, line: string): void {
    const prefix = id.length > this.width ? `…${id.slice(id.length - this.width + 1)}` : id.padEnd(this.width);
    this.write(`${this.paint(idColor(id), prefix)} ${this.paint(2, '│')} ${line}\n`);
  }

  /** A status line for a scheduler event. */
  event(kind: RunKind, event: RunEvent<ModuleOutcome>): void {
    switch (event.type) {
      case 'start':
        this.write(
          `${this.paint(1, '▶')} ${this.id(event.id)}: ${VERB[kind]}${event.attempt > 1 ? ` (attempt ${event.attempt})` : ''}${event.ranFor ? `, as ${event.ranFor}` : ''}\n`,
        );
        break;
      case 'retry':
        this.write(
          `${this.paint(33, '↻')} ${this.id(event.id)}: attempt ${event.attempt} in ${formatDuration(event.delayMs)} after: ${event.message}\n`,
        );
        break;
      case 'finish': {
        const { result } = event;
        const [mark, color] = MARKS[statusOf(result)];
        const duration = result.start !== undefined ? ` (${formatDuration(result.end! - result.start)})` : '';
        this.write(`${this.paint(color, mark)} ${this.id(result.id)}: ${resultText(kind, result)}${duration}\n`);
        break;
      }
    }
  }

  /** The closing table: one row per module (dependency order), with its result and duration, then the totals. */
  summary(report: RunReport): void {
    const results = new Map(report.result.results.map((result) => [result.id, result]));
    const rows = orderByDependencies(this.targets.length > 0 ? this.targets : report.targets).map((id) => {
      const result = results.get(id)!;
      return {
        id,
        text: truncate(resultText(report.kind, result), 70),
        status: statusOf(result),
        duration: result.start !== undefined ? formatDuration(result.end! - result.start) : '-',
      };
    });
    const idWidth = Math.max(6, ...rows.map((row) => row.id.length));
    const textWidth = Math.max(6, ...rows.map((row) => row.text.length));
    const elapsed = formatDuration(report.result.end - report.result.start);
    this.write('\n');
    this.write(
      this.paint(1, `  ${'Module'.padEnd(idWidth)}  ${'Result'.padEnd(textWidth)}  ${'Duration'.padStart(8)}`) + '\n',
    );
    for (const row of rows) {
      const [, color] = MARKS[row.status];
      this.write(
        `  ${this.id(row.id)}${' '.repeat(idWidth - row.id.length)}  ${this.paint(color, row.text.padEnd(textWidth))}  ${row.duration.padStart(8)}\n`,
      );
    }
    this.write('\n');
    this.write(`${this.paint(1, totalsLine(report))} in ${elapsed}\n`);
    const dir = this.relative(report.runDir);
    this.write(
      this.paint(2, `Full logs: ${dir}/<module>/terraform.log; each result and why: ${dir}/report.json`) + '\n',
    );
  }

  private relative(file: string): string {
    const relative = folderRelative(this.options.root, file);
    return relative.startsWith('..') ? file : relative;
  }
}

type Status = 'changes' | 'clean' | 'failed' | 'skipped' | 'cancelled' | 'unaffected' | 'stale';

const MARKS: Record<Status, [string, number]> = {
  clean: ['✔', 32],
  changes: ['±', 33],
  failed: ['✖', 31],
  skipped: ['⊘', 90],
  cancelled: ['■', 90],
  unaffected: ['○', 90],
  stale: ['⧗', 33],
};

function statusOf(result: ModuleRunResult<ModuleOutcome>): Status {
  if (result.status === 'succeeded')
    return result.value?.changes && result.value.kind !== 'apply' && result.value.kind !== 'deploy'
      ? 'changes'
      : 'clean';
  return result.status;
}

/** The words for a module's result: `no changes`, `1 to add, …`, `applied: …`, `failed: …`, `skipped: …`. */
export function resultText(kind: RunKind, result: ModuleRunResult<ModuleOutcome>): string {
  switch (result.status) {
    case 'succeeded': {
      const value = result.value!;
      if (kind === 'apply') return `applied: ${appliedCounts(value.counts)}`;
      if (kind === 'deploy')
        return value.changes ? `applied: ${appliedCounts(value.counts)}${outputsText(value)}` : 'no changes';
      const counts = describeCounts(value.counts ?? { add: 0, change: 0, destroy: 0, import: 0, outputs: 0 });
      if (kind === 'drift') return value.drifted ? `drifted: ${counts}` : value.changes ? counts : 'no drift';
      // Planned before an upstream applies what it reads: its plan shows the old values.
      return result.stale ? `${counts} (stale: ${result.stale})` : counts;
    }
    case 'failed':
      return `failed: ${result.message ?? 'unknown error'}`;
    case 'skipped':
    case 'unaffected':
      return `skipped: ${result.message}`;
    case 'stale':
      return result.message ?? 'stale until an upstream applies';
    case 'cancelled':
      return 'cancelled';
  }
}

/** `; outputs changed: cidr` after an apply that changed outputs. */
function outputsText(value: ModuleOutcome): string {
  const changed = Object.entries(value.outputs ?? {}).filter(([, change]) => change !== 'unchanged');
  return changed.length > 0
    ? `; outputs changed: ${changed
        .map(([name]) => name)
        .sort()
        .join(', ')}`
    : '';
}

function appliedCounts(counts: PlanCounts | undefined): string {
  if (!counts) return 'done';
  return `${counts.add} added, ${counts.change} changed, ${counts.destroy} destroyed`;
}

/** `4 modules: 2 with changes, 1 without changes, 1 failed` (only the non-zero parts after the first). */
export function totalsLine(report: RunReport): string {
  const count = { changes: 0, clean: 0, failed: 0, skipped: 0, cancelled: 0, unaffected: 0, stale: 0 };
  for (const result of report.result.results) count[statusOf(result)]++;
  const n = report.result.results.length;
  const succeeded = report.result.results.filter((result) => result.status === 'succeeded');
  const parts =
    report.kind === 'apply'
      ? [`${count.clean} applied`]
      : report.kind === 'deploy'
        ? [
            `${succeeded.filter((r) => r.value?.changes).length} applied`,
            `${succeeded.filter((r) => !r.value?.changes).length} without changes`,
          ]
        : report.kind === 'drift'
          ? [
              `${report.result.results.filter((r) => r.value?.drifted).length} drifted`,
              `${count.changes} with changes`,
              `${count.clean} without changes`,
            ]
          : [`${count.changes} with changes`, `${count.clean} without changes`];
  if (count.unaffected) parts.push(`${count.unaffected} unaffected`);
  if (count.stale) parts.push(`${count.stale} to plan once an upstream applies`);
  if (count.failed) parts.push(`${count.failed} failed`);
  if (count.skipped) parts.push(`${count.skipped} skipped`);
  if (count.cancelled) parts.push(`${count.cancelled} cancelled`);
  return `${n} module${n === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

/** The module id a summary row starts with (for the terminal's links), if `line` is one of `ids`. */
export function summaryRowModule(line: string, ids: ReadonlySet<string>): { id: string; start: number } | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes
  const plain = line.replace(/\x1b\[[0-9;]*m/g, '');
  const match = /^ {2}(\S+) {2,}/.exec(plain);
  if (!match || !ids.has(match[1]!)) return undefined;
  return { id: match[1]!, start: 2 };
}

/** Ids in dependency order: by depth (longest chain of dependencies inside the set), then id. */
export function orderByDependencies(targets: readonly RunTarget[]): string[] {
  const byId = new Map(targets.map((target) => [target.id, target]));
  const depth = new Map<string, number>();
  const visit = (id: string, seen: Set<string>): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    if (seen.has(id)) return 0;
    seen.add(id);
    let d = 0;
    for (const dep of byId.get(id)?.dependencies ?? []) if (byId.has(dep)) d = Math.max(d, visit(dep, seen) + 1);
    depth.set(id, d);
    return d;
  };
  for (const target of targets) visit(target.id, new Set());
  return [...byId.keys()].sort((a, b) => depth.get(a)! - depth.get(b)! || compareIds(a, b));
}

export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return `${minutes}m ${String(seconds).padStart(2, '0')}s`;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
