import { existsSync, readdirSync, type WriteStream, writeFileSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { folderRelative } from '../../server/src/engine/evaluation';
import {
  deriveRunState,
  describeCounts,
  type ExecutorOutcome,
  type ModuleRecord,
  NO_CHANGES,
  stalePlanReason,
  summarizePlanJson,
} from '../../server/src/engine/run';
import { fileChecksum, moduleFingerprint } from './moduleFingerprint';
import type { ModuleLock } from './moduleLock';
import { PLAN_FILE, SUMMARY_FILE } from './runLayout';
import type { ModuleOutcome, RunRequest, RunTarget } from './runRequest';
import { readRunState, updateModuleRecord } from './stateFile';
import { type OutputHashes, outputChanges, outputHashes } from './stateOutputs';
import type { TerraformBinary } from './terraformBinary';
import { runTerraform, type TerraformExit } from './terraformProcess';

/** What every module of a run shares: the request, the binaries, the environment, the run's folder. */
export interface ModuleContext {
  request: RunRequest;
  binary: TerraformBinary;
  /** Found only when a target is a Terragrunt unit. */
  terragrunt: TerraformBinary | undefined;
  env: NodeJS.ProcessEnv;
  commit: string | undefined;
  runDir: string;
  runId: string;
}

/** One module's commands within a run: init when needed, then plan or apply. */
export class ModuleRun {
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
    const relative = (file: string) => folderRelative(root, file);
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
    const relativeLog = folderRelative(root, logFile);
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

  /**
   * `terrace apply` and Apply Saved Plans: plans the module, and applies the plan when it has changes (once
   * approved), comparing its state's outputs before and after by a hash of each value: what its dependents
   * decide on. With `saved`, applies its current saved plan instead of planning (Apply Saved Plans).
   */
  async deploy(dir: string, logFile: string, saved: boolean): Promise<ExecutorOutcome<ModuleOutcome>> {
    if (saved) {
      const before = await this.outputs();
      const applied = await this.apply(logFile);
      return applied.ok ? this.deployed(applied.value!, before) : applied;
    }
    const planned = await this.plan(dir, logFile);
    if (!planned.ok) return planned;
    const before = await this.outputs();
    if (!planned.value?.changes) return this.deployed(planned.value!, before, before);
    const approve = this.context.request.approve;
    if (approve && !(await approve(this.target.id, describeCounts(planned.value.counts ?? NO_CHANGES)))) {
      this.line('not applied: the plan was not approved');
      return { ok: false, message: 'not applied: the plan was not approved', retryable: false };
    }
    const applied = await this.apply(logFile);
    return applied.ok ? this.deployed(applied.value!, before) : applied;
  }

  /** A deploy's outcome: what its apply (or its plan without changes) did to each output; none when not known. */
  private async deployed(
    value: ModuleOutcome,
    before: OutputHashes | undefined,
    after?: OutputHashes,
  ): Promise<ExecutorOutcome<ModuleOutcome>> {
    const now = after ?? (await this.outputs());
    const { outputs: _planned, ...rest } = value;
    return {
      ok: true,
      value: { ...rest, kind: 'deploy', ...(before && now ? { outputs: outputChanges(before, now) } : {}) },
    };
  }

  /**
   * The state's outputs, hashed (see `stateOutputs.ts`); undefined when terraform cannot say, so that
   * its dependents are run rather than decided on nothing.
   */
  private async outputs(): Promise<OutputHashes | undefined> {
    const exit = await this.terraform(['output', '-json', '-no-color'], true);
    return exit.code === 0 ? outputHashes(exit.stdout) : undefined;
  }
}
