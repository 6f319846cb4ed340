import path from 'node:path';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  applyCandidates,
  LOG_FILE,
  moduleRunDir,
  type RunKind,
  RunPrinter,
  type RunReport,
  type RunRequest,
  resolveRunBinaries,
  runModules,
  TerraformNotFoundError,
} from '../../runner/src';
import { describeCounts, ParallelismError, RunCycleError } from '../../server/src/engine/run';
import {
  RunStateChangedNotification,
  type RunTargetsParams,
  RunTargetsRequest,
  type RunTargetWire,
} from '../../server/src/protocol';
import { Config, settingId } from './config';
import { chooseFolder } from './folderPick';
import { PlanTerminal } from './planTerminal';
import { showErrorWithProblems } from './problemsError';
import { type RunChoices, runScope } from './runScope';
import { runSettingsFor } from './runSettings';

/**
 * The run commands: `Terrace: Run Plans`, `Terrace: Check Drift`, `Terrace: Apply Saved Plans`
 * and `Terrace: Stop Run`. The server says which modules (and the `.terrace.yaml` settings); the
 * runner shared with `terrace plan` runs terraform; a `Terrace: plan` terminal shows it, with a
 * progress notification that can cancel. One run at a time.
 */

/** What a command did (also the tests' hook): the run's results and the terminal's text. */
export interface RunOutcome {
  ran: boolean;
  /** Why nothing ran; `untrusted`: Restricted Mode. */
  reason?: 'cancelled' | 'busy' | 'nothing' | 'error' | 'untrusted';
  message?: string;
  kind?: RunKind;
  runId?: string;
  runDir?: string;
  cancelled?: boolean;
  results?: { id: string; status: string; message?: string; summary?: string; drifted?: boolean }[];
  /** Apply Saved Plans: the stale plans it refused, with the reason. */
  refused?: { id: string; reason: string }[];
  terminalName?: string;
  terminalText?: string;
}

const TERMINAL_NAMES: Record<RunKind, string> = {
  plan: 'Terrace: plan',
  drift: 'Terrace: drift',
  apply: 'Terrace: apply',
  deploy: 'Terrace: apply',
};
const COMMAND_NAMES: Record<RunKind, string> = {
  plan: 'Terrace: Run Plans',
  drift: 'Terrace: Check Drift',
  apply: 'Terrace: Apply Saved Plans',
  deploy: 'Terrace: Apply Saved Plans',
};
const MANAGE_TRUST = 'Manage Workspace Trust';

/**
 * Restricted Mode: terraform runs what the repository configures (the binary its settings and
 * `.terrace.yaml` name, its providers, its backend), so no run starts until the workspace is trusted;
 * the message offers the way to trust it (a scheduled drift check, `headless`, stays silent).
 */
function untrusted(kind: RunKind, headless: boolean): RunOutcome {
  const message = `${COMMAND_NAMES[kind]} runs terraform, which runs what this workspace configures: it runs only in a trusted workspace, and this one is in Restricted Mode.`;
  if (!headless)
    void vscode.window.showWarningMessage(message, MANAGE_TRUST).then((choice) => {
      if (choice === MANAGE_TRUST) void vscode.commands.executeCommand('workbench.trust.manage');
    });
  return { ran: false, reason: 'untrusted', message };
}

interface ActiveRun {
  kind: RunKind;
  controller: AbortController;
}

export class RunPlans implements vscode.Disposable {
  private active: ActiveRun | undefined;
  private readonly lastTerminals = new Map<RunKind, PlanTerminal>();

  constructor(
    private readonly client: LanguageClient,
    private readonly output: vscode.LogOutputChannel,
  ) {}

  /** `Terrace: Run Plans`. */
  runPlans(choices: RunChoices = {}): Promise<RunOutcome> {
    return this.planLike('plan', choices);
  }

  /** `Terrace: Check Drift`: plans everything (or the selection) and marks the modules that drifted. */
  async checkDrift(choices: RunChoices = {}, headless = false): Promise<RunOutcome> {
    const outcome = await this.planLike('drift', { scope: 'all', ...choices }, headless);
    const drifted = outcome.results?.filter((result) => result.drifted).map((result) => result.id) ?? [];
    if (outcome.ran && drifted.length > 0)
      void vscode.window.showWarningMessage(
        `Terrace: ${drifted.length} module${drifted.length === 1 ? '' : 's'} drifted: ${drifted.join(', ')}`,
      );
    else if (outcome.ran && !headless) void vscode.window.showInformationMessage('Terrace: no drift found.');
    return outcome;
  }

  /** `Terrace: Stop Run`: interrupts terraform, then kills it; the modules not finished are cancelled. */
  stop(): boolean {
    if (!this.active) return false;
    this.active.controller.abort();
    return true;
  }

  get running(): boolean {
    return this.active !== undefined;
  }

  /**
   * `Terrace: Apply Saved Plans`: the modules whose saved plan has changes and is still current, in dependency
   * order, as `terrace apply` runs: once one applies, each module downstream of it that reads an output its
   * apply changed is planned afresh and applied once its plan is approved (its own saved plan, made before,
   * is not used); the others downstream are unaffected, and terraform is not started in them.
   */
  async applySavedPlans(choices: RunChoices = {}): Promise<RunOutcome> {
    if (!vscode.workspace.isTrusted) return untrusted('deploy', false);
    if (this.active) return this.busy();
    const folderUri = choices.folderUri ?? (await chooseFolder('Apply the saved plans of which folder?'));
    if (!folderUri) return { ran: false, reason: 'cancelled' };
    const found = await this.targets({ folderUri });
    if ('error' in found) return this.fail(found.error, found.problems);
    const maxAge = Config.of(folderUri).planMaxAgeMs;
    const candidates = await applyCandidates(found.root, found.targets, maxAge);
    const ready = candidates.filter((c) => c.ready);
    const refused = candidates.flatMap((c) => (c.ready ? [] : [{ id: c.id, reason: c.reason }]));
    const refusedText = refused.map((r) => `${r.id}: ${r.reason}`).join('\n');
    if (ready.length === 0) {
      const message =
        refused.length > 0
          ? `Terrace: no saved plan can be applied; stale plans refused (plan again): ${refused.map((r) => `${r.id} (${r.reason})`).join(', ')}`
          : 'Terrace: no module has a saved plan with changes to apply.';
      void vscode.window.showInformationMessage(message);
      return { ran: false, reason: 'nothing', message, refused };
    }
    const readyIds = ready.map((c) => c.id);
    // The saved plans and what is downstream of them, each decided from the outputs it reads.
    const run = await this.targets({ folderUri, modules: readyIds, withDependents: true, gateFrom: readyIds });
    if ('error' in run) return this.fail(run.error, run.problems);
    const downstream = run.targets.length - ready.length;
    const listing = ready.map((c) => `${c.id}: ${c.ready ? describeCounts(c.counts ?? ZERO) : ''}`).join('\n');
    const confirmed =
      choices.confirmed ??
      (await vscode.window.showWarningMessage(
        `Apply ${ready.length} saved plan${ready.length === 1 ? '' : 's'}, in dependency order?`,
        {
          modal: true,
          detail: `${listing}${downstream > 0 ? `\n\nThen each of the ${downstream} module${downstream === 1 ? '' : 's'} downstream that reads an output these applies change is planned again and applied once you approve its plan; the others are left alone.` : ''}${refused.length > 0 ? `\n\nRefused, stale (plan again):\n${refusedText}` : ''}`,
        },
        'Apply',
      )) === 'Apply';
    if (!confirmed) return { ran: false, reason: 'cancelled', refused };
    const settings = runSettingsFor(folderUri, run.execution, COMMAND_NAMES.deploy, choices.parallelism);
    const outcome = await this.execute(
      'deploy',
      folderUri,
      run.root,
      run.targets,
      { ...settings, planMaxAgeMs: maxAge },
      false,
      run.notes,
      {
        savedPlans: readyIds,
        // Tests confirm up front; a user approves each new plan as terraform apply asks.
        ...(choices.confirmed === undefined ? { approve: approveNewPlan } : {}),
      },
    );
    return { ...outcome, refused };
  }

  private async planLike(kind: 'plan' | 'drift', choices: RunChoices, headless = false): Promise<RunOutcome> {
    if (!vscode.workspace.isTrusted) return untrusted(kind, headless);
    if (this.active) return this.busy();
    const folderUri = choices.folderUri ?? (await chooseFolder(`${kind === 'plan' ? 'Plan' : 'Check'} which folder?`));
    if (!folderUri) return { ran: false, reason: 'cancelled' };
    const params = await runScope(this.client, folderUri, choices);
    if (!params) return { ran: false, reason: 'cancelled' };
    const found = await this.targets(params);
    if ('error' in found) return this.fail(found.error, found.problems);
    if (found.targets.length === 0) {
      const message =
        found.components > 0
          ? 'Terrace: nothing to run: Terraform Stacks components are planned by HCP Terraform (terraform stacks plan), not by Terrace.'
          : 'Terrace: no module to run (nothing changed?).';
      void vscode.window.showInformationMessage(message);
      return { ran: false, reason: 'nothing', message };
    }
    const settings = runSettingsFor(folderUri, found.execution, COMMAND_NAMES[kind], choices.parallelism);
    return this.execute(kind, folderUri, found.root, found.targets, settings, headless, found.notes);
  }

  /** Runs in a new terminal (or without one), with a progress notification that can cancel. */
  private async execute(
    kind: RunKind,
    folderUri: string,
    root: string,
    targets: RunTargetWire[],
    settings: ReturnType<typeof runSettingsFor>,
    headless: boolean,
    /** Said before the run starts, in its terminal and the log. */
    notes: readonly string[] = [],
    deploy: Pick<RunRequest, 'savedPlans' | 'approve'> = {},
  ): Promise<RunOutcome> {
    // A missing binary is one clear error, before a terminal opens.
    try {
      await resolveRunBinaries(targets, settings);
    } catch (error) {
      if (!(error instanceof TerraformNotFoundError)) throw error;
      const setting = settingId(error.tool === 'terragrunt' ? 'terragruntPath' : 'terraformPath');
      void vscode.window
        .showErrorMessage(`Terrace: ${error.message}`, 'Open Settings')
        .then((action) => action && vscode.commands.executeCommand('workbench.action.openSettings', setting));
      return { ran: false, reason: 'error', message: error.message };
    }

    const controller = new AbortController();
    const active: ActiveRun = { kind, controller };
    this.active = active;
    void vscode.commands.executeCommand('setContext', 'terrace.running', true);
    let terminal: PlanTerminal | undefined;
    if (!headless) {
      this.lastTerminals.get(kind)?.dispose();
      terminal = new PlanTerminal(TERMINAL_NAMES[kind], () => controller.abort());
      this.lastTerminals.set(kind, terminal);
      terminal.terminal.show(true);
    }
    const write = terminal ? (text: string) => terminal.write(text) : () => undefined;
    const printer = new RunPrinter(write, { color: true, root });
    for (const note of notes) {
      write(`${note}\n`);
      this.output.info(`${COMMAND_NAMES[kind]}: ${note}`);
    }
    const notify = (modules?: string[]) =>
      void this.client.sendNotification(RunStateChangedNotification.type, {
        folderUri,
        ...(modules ? { modules } : {}),
      });
    let done = 0;

    try {
      const report = await vscode.window.withProgress(
        {
          location: headless ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification,
          title: `${COMMAND_NAMES[kind]}: ${targets.length} module${targets.length === 1 ? '' : 's'}`,
          cancellable: true,
        },
        (progress, token) => {
          token.onCancellationRequested(() => controller.abort());
          return runModules({
            root,
            targets,
            kind,
            settings,
            ...deploy,
            signal: controller.signal,
            onStart: (run) => {
              printer.begin(kind, targets, run);
              if (terminal) for (const target of targets) terminal.logs.set(target.id, logOf(run.runDir, target.id));
            },
            onLine: (id, line) => printer.output(id, line),
            onEvent: (event) => {
              printer.event(kind, event);
              if (event.type === 'finish') {
                done++;
                progress.report({
                  increment: 100 / targets.length,
                  message: `${done}/${targets.length}: ${event.result.id} ${event.result.status}`,
                });
              }
              notify(event.type === 'finish' && event.result.attempts.length > 0 ? [event.result.id] : undefined);
            },
          });
        },
      );
      printer.summary(report);
      if (terminal)
        for (const result of report.result.results) if (result.attempts.length === 0) terminal.logs.delete(result.id);
      this.output.info(
        `${COMMAND_NAMES[kind]}: run ${report.runId}: ${report.result.results.map((r) => `${r.id} ${r.status}`).join(', ')}`,
      );
      this.announce(report, terminal);
      return outcomeOf(report, terminal);
    } catch (error) {
      if (error instanceof RunCycleError) {
        write(`${error.message}\n`);
        showErrorWithProblems(`Terrace: ${error.message}`);
        return { ran: false, reason: 'error', message: error.message, ...terminalOf(terminal) };
      }
      if (error instanceof ParallelismError || error instanceof TerraformNotFoundError) {
        write(`${error.message}\n`);
        void vscode.window.showErrorMessage(`Terrace: ${error.message}`);
        return { ran: false, reason: 'error', message: error.message, ...terminalOf(terminal) };
      }
      throw error;
    } finally {
      if (this.active === active) this.active = undefined;
      void vscode.commands.executeCommand('setContext', 'terrace.running', false);
      notify();
    }
  }

  /** A short message when something did not go well (the terminal has the details). */
  private announce(report: RunReport, terminal: PlanTerminal | undefined): void {
    const results = report.result.results;
    const failed = results.filter((r) => r.status === 'failed').length;
    const skipped = results.filter((r) => r.status === 'skipped').length;
    if (report.result.cancelled || (failed === 0 && skipped === 0)) return;
    void vscode.window
      .showWarningMessage(
        `${COMMAND_NAMES[report.kind]}: ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`,
        ...(terminal ? ['Show Terminal'] : []),
      )
      .then((action) => action && terminal?.terminal.show());
  }

  private async targets(params: RunTargetsParams) {
    const found = await this.client.sendRequest(RunTargetsRequest.type, params);
    if (found.kind === 'error') return { error: found.message };
    if (found.kind === 'broken') return { error: found.message, problems: true };
    return found;
  }

  /** Says why nothing ran; `problems`: the Problems view shows where (syntax errors). */
  private fail(message: string, problems = false): RunOutcome {
    if (problems) showErrorWithProblems(`Terrace: ${message}`);
    else void vscode.window.showErrorMessage(`Terrace: ${message}`);
    return { ran: false, reason: 'error', message };
  }

  private busy(): RunOutcome {
    const message = `${COMMAND_NAMES[this.active!.kind]} is running; stop it first (Terrace: Stop Run).`;
    void vscode.window.showWarningMessage(message, 'Stop Run').then((action) => action && this.stop());
    return { ran: false, reason: 'busy', message };
  }

  dispose(): void {
    this.active?.controller.abort();
    for (const terminal of this.lastTerminals.values()) terminal.dispose();
  }
}

const ZERO = { add: 0, change: 0, destroy: 0, import: 0, outputs: 0 };

function logOf(runDir: string, id: string): string {
  return path.join(moduleRunDir(runDir, id), LOG_FILE);
}

function terminalOf(terminal: PlanTerminal | undefined): Pick<RunOutcome, 'terminalName' | 'terminalText'> {
  return terminal ? { terminalName: terminal.name, terminalText: terminal.text() } : {};
}

function outcomeOf(report: RunReport, terminal: PlanTerminal | undefined): RunOutcome {
  return {
    ran: true,
    kind: report.kind,
    runId: report.runId,
    runDir: report.runDir,
    cancelled: report.result.cancelled,
    results: report.result.results.map((result) => ({
      id: result.id,
      status: result.status,
      ...(result.message ? { message: result.message } : {}),
      ...(result.value?.counts ? { summary: describeCounts(result.value.counts) } : {}),
      ...(result.value?.drifted !== undefined ? { drifted: result.value.drifted } : {}),
    })),
    ...terminalOf(terminal),
  };
}

/** A new plan of a module downstream of an apply (Apply Saved Plans): applied once the user says so. */
async function approveNewPlan(id: string, plan: string): Promise<boolean> {
  const choice = await vscode.window.showWarningMessage(
    `Apply the new plan of ${id}?`,
    {
      modal: true,
      detail: `${plan}. An apply in this run changed an output ${id} reads, so it was planned again; its plan is in the Terrace: apply terminal.`,
    },
    'Apply',
  );
  return choice === 'Apply';
}
