import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  checkRunnable,
  type ExecutorOutcome,
  effectiveParallelism,
  type ModuleRunResult,
  type PlanCounts,
  runScheduled,
  stalePlanReason,
} from '../../server/src/engine/run';
import { gitHead } from './gitHead';
import { fileChecksum, moduleFingerprint } from './moduleFingerprint';
import { acquireModuleLock, ModuleBusyError, type ModuleLock } from './moduleLock';
import { type ModuleContext, ModuleRun } from './moduleRun';
import { gateOf } from './planGate';
import { writeReportFile } from './reportFile';
import { createRunDir, LOG_FILE, moduleRunDir } from './runLayout';
import type { ModuleOutcome, RunReport, RunRequest, RunSettings, RunTarget } from './runRequest';
import { readRunState, updateModuleRecord } from './stateFile';
import { resolveTerraformBinary, type TerraformBinary } from './terraformBinary';

/**
 * A run of terraform over modules of one workspace: `plan` (saved plans with
 * `-detailed-exitcode`), `drift` (the same, marking modules whose clean state changed) or
 * `apply` (of saved plans that are still current). Shared by `terrace plan` and the editor's
 * commands: the scheduler orders the modules, this file runs each one — its lock, `init` when
 * needed, the command, the plan's summary, the log, the state record.
 */
/**
 * Runs `kind` over the targets in dependency order. Throws before anything starts on a bad
 * parallelism (`ParallelismError`), a missing binary (`TerraformNotFoundError`) or a cycle among
 * the targets (`RunCycleError`).
 */
export async function runModules(request: RunRequest): Promise<RunReport> {
  const { root, settings, kind } = request;
  const parallelism = effectiveParallelism(settings.parallelism);
  const env = terraformEnv(settings.env);
  const { binary, terragrunt } = await resolveRunBinaries(request.targets, settings, env);
  // Terragrunt runs the same terraform as the run's modules, unless the environment says otherwise.
  if (terragrunt) {
    env.TG_TF_PATH ??= binary.path;
    env.TERRAGRUNT_TFPATH ??= binary.path;
  }
  const byId = new Map(request.targets.map((target) => [target.id, target]));
  const graph = { dependencies: (id: string) => byId.get(id)?.dependencies ?? [] };
  checkRunnable(graph, byId.keys());
  const commit = await gitHead(root);
  const run = createRunDir(root);
  const context: ModuleContext = { request, binary, terragrunt, env, commit, runDir: run.dir, runId: run.id };
  request.onStart?.({ runId: run.id, runDir: run.dir, binary, parallelism });
  const result = await runScheduled<ModuleOutcome>({
    graph,
    modules: byId.keys(),
    parallelism,
    retries: kind === 'apply' ? 0 : (settings.retries ?? 0),
    ...(settings.retryDelay ? { retryDelay: settings.retryDelay } : {}),
    ...(request.signal ? { signal: request.signal } : {}),
    executor: (id, signal, attempt, ranFor) => runOne(context, byId.get(id)!, signal, attempt, ranFor),
    onEvent: (event) => {
      if (event.type === 'finish') recordDecision(context, byId.get(event.result.id)!, event.result);
      request.onEvent?.(event);
    },
    ...gateOf(request.targets, kind),
  });
  const report: RunReport = { kind, root, runId: run.id, runDir: run.dir, binary, result, targets: request.targets };
  writeReportFile(report);
  return report;
}

/** Keeps what the gate decided of a module it did not run (unaffected, stale) in its record, for its run state. */
function recordDecision(context: ModuleContext, target: RunTarget, result: ModuleRunResult<ModuleOutcome>): void {
  if (result.status !== 'unaffected' && result.status !== 'stale') return;
  const { status } = result;
  updateModuleRecord(context.request.root, target.id, (record) => {
    record.lastDecision = {
      time: new Date().toISOString(),
      runId: context.runId,
      status,
      reason: result.message ?? '',
      fingerprint: moduleFingerprint(target.dir, target.sourceDirs),
    };
  });
}

/** Terraform's (and Terragrunt's) environment for unattended runs, then the workspace's `execution.env`. */
export function terraformEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    TF_IN_AUTOMATION: '1',
    TF_INPUT: '0',
    TG_NON_INTERACTIVE: 'true',
    TERRAGRUNT_NON_INTERACTIVE: 'true',
    ...extra,
  };
}

/**
 * The binaries a run needs: terraform, and terragrunt when a target is a Terragrunt unit. A missing
 * one is one clear error (`TerraformNotFoundError`) before anything starts, naming the units that
 * need terragrunt.
 */
export async function resolveRunBinaries(
  targets: readonly RunTarget[],
  settings: RunSettings,
  env: NodeJS.ProcessEnv = terraformEnv(settings.env),
): Promise<{ binary: TerraformBinary; terragrunt: TerraformBinary | undefined }> {
  const binary = await resolveTerraformBinary(settings.binary, env, settings.binarySetting);
  const units = targets.filter((target) => target.kind === 'unit').map((target) => target.id);
  if (units.length === 0) return { binary, terragrunt: undefined };
  const named = units.length > 3 ? `${units.slice(0, 3).join(', ')} and ${units.length - 3} more` : units.join(', ');
  const terragrunt = await resolveTerraformBinary(
    settings.terragrunt ?? 'terragrunt',
    env,
    settings.terragruntSetting ?? 'execution.terragrunt',
    ['--version'],
    `the Terragrunt unit${units.length === 1 ? '' : 's'} ${named}`,
    'terragrunt',
  );
  return { binary, terragrunt };
}

async function runOne(
  context: ModuleContext,
  target: RunTarget,
  signal: AbortSignal,
  attempt: number,
  ranFor: string | undefined,
): Promise<ExecutorOutcome<ModuleOutcome>> {
  const { request } = context;
  const { root, settings, kind } = request;
  let lock: ModuleLock;
  try {
    lock = await acquireModuleLock(root, target.id, {
      command: settings.command,
      waitMs: settings.lockWaitMs ?? 0,
      signal,
    });
  } catch (error) {
    if (error instanceof ModuleBusyError) return { ok: false, message: error.message, retryable: false };
    throw error;
  }
  const dir = moduleRunDir(context.runDir, target.id);
  mkdirSync(dir, { recursive: true });
  const logFile = path.join(dir, LOG_FILE);
  const log = createWriteStream(logFile, { flags: 'a' });
  const module = new ModuleRun(context, target, signal, log, lock);
  try {
    const versions =
      target.kind === 'unit' ? `${context.terragrunt!.version}, ${context.binary.version}` : context.binary.version;
    module.note(
      `# ${kind} of ${target.id}${attempt > 1 ? ` (attempt ${attempt})` : ''}, ${new Date().toISOString()}, ${versions}`,
    );
    if (kind === 'apply') return await module.apply(logFile);
    if (kind === 'plan' || kind === 'drift') return await module.plan(dir, logFile);
    // A saved plan is applied as it is unless an upstream's apply in this run changed what it reads.
    return await module.deploy(
      dir,
      logFile,
      ranFor === undefined && (request.savedPlans?.includes(target.id) ?? false),
    );
  } finally {
    await new Promise((resolve) => log.end(resolve));
    lock.release();
  }
}

export type ApplyCandidate =
  | { id: string; ready: true; counts: PlanCounts | undefined; planFile: string }
  | { id: string; ready: false; reason: string };

/**
 * The targets whose last plan has changes not yet applied, each either ready (its saved plan is
 * current: checksum, commit, files) or refused with the reason. Modules without pending changes
 * are left out.
 */
export async function applyCandidates(
  root: string,
  targets: readonly RunTarget[],
  planMaxAgeMs = 0,
): Promise<ApplyCandidate[]> {
  const state = readRunState(root);
  const commit = await gitHead(root);
  const candidates: ApplyCandidate[] = [];
  for (const target of targets) {
    const record = state.modules[target.id];
    const plan = record?.lastPlan;
    if (!record || !plan || plan.exitCode !== 2) continue;
    if (record.lastApply?.exitCode === 0 && record.lastApply.planChecksum === plan.checksum) continue;
    const planFile = plan.planFile ? path.resolve(root, plan.planFile) : undefined;
    const reason = stalePlanReason(record, {
      fingerprint: moduleFingerprint(target.dir, target.sourceDirs),
      commit,
      planChecksum: planFile ? fileChecksum(planFile) : undefined,
      planMaxAgeMs,
    });
    candidates.push(
      reason || !planFile
        ? { id: target.id, ready: false, reason: reason ?? 'no saved plan' }
        : { id: target.id, ready: true, counts: plan.counts, planFile },
    );
  }
  return candidates;
}
