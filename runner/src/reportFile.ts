import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { folderRelative } from '../../server/src/engine/evaluation';
import { REPORT_FILE } from './runLayout';
import { resultText } from './runReport';
import type { RunReport } from './runRequest';

/**
 * The run's JSON report, `<run folder>/report.json`: each module's status, the words the summary table shows,
 * the reason it was decided without running (unaffected, stale), what its plan or apply did to each output
 * (names and kinds only: no value leaves the run) and where its log is. For scripts and CI after a run.
 */
export interface ReportJson {
  kind: RunReport['kind'];
  runId: string;
  start: string;
  end: string;
  cancelled: boolean;
  modules: ModuleReportJson[];
}

export interface ModuleReportJson {
  id: string;
  status: string;
  result: string;
  /** Why it was skipped, decided without running, or failed. */
  reason?: string;
  /** Why a plan that ran is stale (an upstream changes what it reads). */
  stale?: string;
  changes?: boolean;
  counts?: Record<string, number>;
  outputs?: Record<string, string>;
  /** Relative to the workspace. */
  log?: string;
}

export function reportJson(report: RunReport): ReportJson {
  const relative = (file: string) => folderRelative(report.root, file);
  const order = new Map(report.targets.map((target, index) => [target.id, index]));
  const results = [...report.result.results].sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  return {
    kind: report.kind,
    runId: report.runId,
    start: new Date(report.result.start).toISOString(),
    end: new Date(report.result.end).toISOString(),
    cancelled: report.result.cancelled,
    modules: results.map((result) => {
      const value = result.value;
      return {
        id: result.id,
        status: result.status,
        result: resultText(report.kind, result),
        ...(result.message !== undefined ? { reason: result.message } : {}),
        ...(result.stale !== undefined ? { stale: result.stale } : {}),
        ...(value ? { changes: value.changes } : {}),
        ...(value?.counts ? { counts: { ...value.counts } } : {}),
        ...(value?.outputs ? { outputs: { ...value.outputs } } : {}),
        ...(value?.logFile ? { log: relative(value.logFile) } : {}),
      };
    }),
  };
}

/** Writes the report into the run's folder; returns its path. */
export function writeReportFile(report: RunReport): string {
  const file = path.join(report.runDir, REPORT_FILE);
  writeFileSync(file, `${JSON.stringify(reportJson(report), null, 2)}\n`);
  return file;
}
