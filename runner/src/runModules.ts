import { createWriteStream, existsSync, mkdirSync, readdirSync, type WriteStream, writeFileSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import {
  checkRunnable,
  deriveRunState,
  type ExecutorOutcome,
  effectiveParallelism,
  type ModuleRecord,
  type PlanCounts,
  runScheduled,
  stalePlanReason,
  summarizePlanJson,
} from '../../server/src/engine/run';
import { gitHead } from './gitHead';
import { fileChecksum, moduleFingerprint } from './moduleFingerprint';
import { acquireModuleLock, ModuleBusyError, type ModuleLock } from './moduleLock';
import { gateOf } from './planGate';
import { createRunDir, LOG_FILE, moduleRunDir, PLAN_FILE, SUMMARY_FILE } from './runLayout';
import type { ModuleOutcome, RunReport, RunRequest, RunSettings, RunTarget } from './runRequest';
import { readRunState, updateModuleRecord } from './stateFile';
import { resolveTerraformBinary, type TerraformBinary } from './terraformBinary';
import { runTerraform, type TerraformExit } from './terraformProcess';

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
    executor: (id, signal, attempt) => runOne(context, byId.get(id)!, signal, attempt),
    ...(request.onEvent ? { onEvent: request.onEvent } : {}),
    ...(kind === 'plan' ? gateOf(request.targets) : {}),
  });
  return { kind, root, runId: run.id, runDir: run.dir, binary, result, targets: request.targets };
}

interface ModuleContext {
  request: RunRequest;
  binary: TerraformBinary;
  /** Found only when a target is a Terragrunt unit. */
  terragrunt: TerraformBinary | undefined;
  env: NodeJS.ProcessEnv;
  commit: string | undefined;
  runDir: string;
  runId: string;
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
    return kind === 'apply' ? await module.apply(logFile) : await module.plan(dir, logFile);
  } finally {
    await new Promise((resolve) => log.end(resolve));
    lock.release();
  }
}

/** One module's commands within a run: init when needed, then plan or apply. */
class ModuleRun {
  private initRan = false;
  /** The first `Error: …` line terraform printed, for the status line. */
  private firstError: string | undefined;

  constructor(
    private readonly context: ModuleContext,
    private readonly target: RunTarget,
    private readonly signal: AbortSignal,
    private readonly log: WriteStream,
    private readonly lock: ModuleLock,
  ) {}

  /** What runs this module's commands: terragrunt for a unit (it runs terraform in its copy of the code), else terraform. */
  private get runner(): TerraformBinary {
    return this.target.kind === 'unit' ? this.context.terragrunt! : this.context.binary;
  }

  /** `terraform plan`, `terragrunt plan`: a step as the status line names it. */
  private step(command: string): string {
    return `${this.target.kind === 'unit' ? 'terragrunt' : 'terraform'} ${command}`;
  }

  note(line: string): void {
    this.log.write(`${line}\n`);
  }

  private line(text: string): void {
    this.log.write(`${text}\n`);
    if (this.firstError === undefined && /^\s*(│\s*)?Error: /.test(text))
      this.firstError = text.replace(/^\s*(│\s*)?/, '');
    this.context.request.onLine?.(this.target.id, text);
  }

  /**
   * Runs one terraform command in the module's folder. Its output goes to the log and the run's
   * lines, or, with `quiet` (show -json), stdout is captured and stderr goes to the log only.
   */
  private async terraform(args: string[], quiet = false, cwd = this.target.dir): Promise<TerraformExit> {
    // Paths inside the workspace are shown relative to it.
    const root = this.context.request.root + path.sep;
    const binary = this.runner.path;
    const shown = [path.basename(binary), ...args.map((arg) => arg.split(root).join(''))].join(' ');
    if (quiet) this.note(`$ ${shown}`);
    else this.line(`$ ${shown}`);
    return runTerraform({
      binary,
      args,
      cwd,
      env: this.context.env,
      signal: this.signal,
      onLine: (text) => (quiet ? this.note(text) : this.line(text)),
      captureStdout: quiet,
      onStart: (group) => this.lock.working(group),
      ...(this.context.request.settings.graceMs !== undefined
        ? { graceMs: this.context.request.settings.graceMs }
        : {}),
    });
  }

  private failure(step: string, exit: TerraformExit): { ok: false; message: string } {
    if (exit.cancelled) return { ok: false, message: `${step} stopped` };
    const how = exit.code === null ? `was killed (${exit.signal})` : `exited ${exit.code}`;
    return { ok: false, message: `${step} ${how}${this.firstError ? `: ${this.firstError}` : ''}` };
  }

  /** A unit of a stack file whose folder is not there yet: `terragrunt stack generate` in the stack's folder. */
  private async generateIfNeeded(): Promise<{ ok: false; message: string } | undefined> {
    const stackDir = this.target.stackDir;
    if (stackDir === undefined || existsSync(this.target.dir)) return undefined;
    const exit = await this.terraform(['stack', 'generate', '--no-color'], false, stackDir);
    return exit.code === 0 ? undefined : this.failure('terragrunt stack generate', exit);
  }

  /** `init -input=false` when `.terraform/` is missing or the provider lock file changed since the last init. */
  private async initIfNeeded(record: ModuleRecord | undefined): Promise<{ ok: false; message: string } | undefined> {
    const mode = this.context.request.settings.init ?? 'auto';
    const lockHash = fileChecksum(path.join(this.target.dir, '.terraform.lock.hcl')) ?? null;
    // Terragrunt keeps the initialised copy of a unit's code under `.terragrunt-cache/`.
    const initialised = this.target.kind === 'unit' ? '.terragrunt-cache' : '.terraform';
    const needed =
      mode === 'always' ||
      (mode === 'auto' &&
        (!existsSync(path.join(this.target.dir, initialised)) ||
          (record?.init !== undefined && record.init.lockFileHash !== lockHash)));
    if (!needed) return undefined;
    const exit = await this.terraform([
      'init',
      '-input=false',
      '-no-color',
      ...(this.context.binary.version.startsWith('OpenTofu') ? this.varFileArgs() : []),
      ...(this.context.request.settings.initArgs ?? []),
    ]);
    this.initRan = true;
    if (exit.code !== 0) return this.failure(this.step('init'), exit);
    const after = fileChecksum(path.join(this.target.dir, '.terraform.lock.hcl')) ?? null;
    updateModuleRecord(this.context.request.root, this.target.id, (r) => {
      r.init = { time: new Date().toISOString(), lockFileHash: after };
    });
    return undefined;
  }

  /** `-var-file=` for each of the environment's tfvars files the module's folder holds, in the order they are named. */
  private varFileArgs(): string[] {
    const patterns = this.context.request.settings.varFiles ?? [];
    if (patterns.length === 0) return [];
    let names: string[];
    try {
      names = readdirSync(this.target.dir).sort();
    } catch {
      return [];
    }
    const files = patterns.flatMap((pattern) => {
      const matches = picomatch(pattern, { dot: true });
      return names.filter((name) => matches(name));
    });
    return [...new Set(files)].map((file) => `-var-file=${file}`);
  }

  async plan(dir: string, logFile: string): Promise<ExecutorOutcome<ModuleOutcome>> {
    const { root, kind, settings } = this.context.request;
    const state = readRunState(root);
    const before = state.modules[this.target.id];
    const generateFailed = await this.generateIfNeeded();
    if (generateFailed) return generateFailed;
    const initFailed = await this.initIfNeeded(before);
    if (initFailed) return initFailed;
    const fingerprint = moduleFingerprint(this.target.dir, this.target.sourceDirs);
    const wasIdle =
      deriveRunState(before, {
        fingerprint,
        dependencies: this.target.dependencies.map((id) => ({ id, record: state.modules[id] })),
      }).state === 'Idle';
    const planFile = path.join(dir, PLAN_FILE);
    const exit = await this.terraform([
      'plan',
      '-input=false',
      '-no-color',
      '-detailed-exitcode',
      `-out=${planFile}`,
      ...this.varFileArgs(),
      ...(settings.planArgs ?? []),
    ]);
    const relative = (file: string) => path.relative(root, file).split(path.sep).join('/');
    const base = {
      time: new Date().toISOString(),
      runId: this.context.runId,
      kind: kind === 'drift' ? ('drift' as const) : ('plan' as const),
      ...(this.context.commit ? { commit: this.context.commit } : {}),
      exitCode: exit.cancelled ? null : exit.code,
      fingerprint,
      logFile: relative(logFile),
    };
    if (exit.cancelled || (exit.code !== 0 && exit.code !== 2)) {
      updateModuleRecord(root, this.target.id, (record) => {
        record.lastPlan = base;
      });
      return this.failure(this.step('plan'), exit);
    }
    const show = await this.terraform(['show', '-json', '-no-color', planFile], true);
    if (show.code !== 0) return this.failure(this.step('show -json'), show);
    const summary = summarizePlanJson(show.stdout);
    writeFileSync(path.join(dir, SUMMARY_FILE), `${JSON.stringify({ exitCode: exit.code, ...summary }, null, 2)}\n`);
    const changes = exit.code === 2;
    const drifted = kind === 'drift' && changes && wasIdle;
    const checksum = fileChecksum(planFile);
    updateModuleRecord(root, this.target.id, (record) => {
      record.lastPlan = {
        ...base,
        planFile: relative(planFile),
        ...(checksum ? { checksum } : {}),
        counts: summary.counts,
        ...(drifted ? { drifted: true } : {}),
      };
    });
    return {
      ok: true,
      value: {
        kind,
        exitCode: exit.code,
        changes,
        counts: summary.counts,
        outputs: summary.outputs,
        ...(kind === 'drift' ? { drifted } : {}),
        logFile,
        planFile,
        initRan: this.initRan,
      },
    };
  }

  async apply(logFile: string): Promise<ExecutorOutcome<ModuleOutcome>> {
    const { root } = this.context.request;
    const record = readRunState(root).modules[this.target.id];
    const planFile = record?.lastPlan?.planFile ? path.resolve(root, record.lastPlan.planFile) : undefined;
    const stale = stalePlanReason(record, {
      fingerprint: moduleFingerprint(this.target.dir, this.target.sourceDirs),
      commit: this.context.commit,
      planChecksum: planFile ? fileChecksum(planFile) : undefined,
      planMaxAgeMs: this.context.request.settings.planMaxAgeMs ?? 0,
    });
    if (stale || !planFile) {
      this.line(`refused: ${stale}`);
      return { ok: false, message: `stale plan refused: ${stale}`, retryable: false };
    }
    const initFailed = await this.initIfNeeded(record);
    if (initFailed) return { ...initFailed, retryable: false };
    const exit = await this.terraform(['apply', '-input=false', '-no-color', planFile]);
    const relativeLog = path.relative(root, logFile).split(path.sep).join('/');
    updateModuleRecord(root, this.target.id, (current) => {
      current.lastApply = {
        time: new Date().toISOString(),
        runId: this.context.runId,
        planChecksum: record!.lastPlan!.checksum!,
        exitCode: exit.cancelled ? null : exit.code,
        logFile: relativeLog,
      };
    });
    if (exit.code !== 0 || exit.cancelled) return { ...this.failure(this.step('apply'), exit), retryable: false };
    return {
      ok: true,
      value: {
        kind: 'apply',
        exitCode: 0,
        changes: true,
        ...(record!.lastPlan!.counts ? { counts: record!.lastPlan!.counts } : {}),
        logFile,
        planFile,
        initRan: this.initRan,
      },
    };
  }
}

/** A saved plan that Apply Saved Plans may apply, or why not. */
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
