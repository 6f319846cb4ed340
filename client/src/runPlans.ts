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
  resolveRunBinaries,
  runModules,
  TerraformNotFoundError,
} from '../../runner/src';
import { describeCounts, ParallelismError, RunCycleError } from '../../server/src/engine/run';
import {
  ModuleForUriRequest,
  RunStateChangedNotification,
  type RunTargetsParams,
  RunTargetsRequest,
  type RunTargetWire,
} from '../../server/src/protocol';
import { Config, settingId } from './config';
import { chooseFolder } from './folderPick';
import { PlanTerminal } from './planTerminal';
import { showErrorWithProblems } from './problemsError';
import { runSettingsFor } from './runSettings';

/**
 * The run commands: `Terrace: Run Plans`, `Terrace: Check Drift`, `Terrace: Apply Saved Plans`
 * and `Terrace: Stop Run`. The server says which modules (and the `.terrace.yaml` settings); the
 * runner shared with `terrace plan` runs terraform; a `Terrace: plan` terminal shows it, with a
 * progress notification that can cancel. One run at a time.
 */

/** What to run; each choice left out is asked (tests and other extensions pass them). */
export interface RunChoices {
  folderUri?: string;
  /** All modules, the ones changed since `baseRef` (+ dependents), or `modules`. */
  scope?: 'all' | 'changed' | 'modules';
  modules?: string[];
  withDependencies?: boolean;
  withDependents?: boolean;
  baseRef?: string;
  /** Overrides `terrace.parallelism` / `execution.parallelism`. */
  parallelism?: number;
  /** Apply Saved Plans: true skips the confirmation (tests); false answers it with no. */
  confirmed?: boolean;
}

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
const DEFAULT_BASE_REF = 'origin/main';
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

  /** `Terrace: Apply Saved Plans`: the modules whose saved plan has changes and is still current, in dependency order. */
  async applySavedPlans(choices: RunChoices = {}): Promise<RunOutcome> {
    if (!vscode.workspace.isTrusted) return untrusted('apply', false);
    if (this.active) return this.busy();
    const folderUri = choices.folderUri ?? (await chooseFolder('Apply the saved plans of which folder?'));
    if (!folderUri) return { ran: false, reason: 'cancelled' };
    const found = await this.targets({ folderUri });
    if ('error' in found) return this.fail(found.error, found.problems);
    const { root, targets, execution } = found;
    const maxAge = Config.of(folderUri).planMaxAgeMs;
    const candidates = await applyCandidates(root, targets, maxAge);
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
    const listing = ready.map((c) => `${c.id}: ${c.ready ? describeCounts(c.counts ?? ZERO) : ''}`).join('\n');
    const confirmed =
      choices.confirmed ??
      (await vscode.window.showWarningMessage(
        `Apply ${ready.length} saved plan${ready.length === 1 ? '' : 's'}, in dependency order?`,
        {
          modal: true,
          detail: `${listing}${refused.length > 0 ? `\n\nRefused, stale (plan again):\n${refusedText}` : ''}`,
        },
        'Apply',
      )) === 'Apply';
    if (!confirmed) return { ran: false, reason: 'cancelled', refused };
    const readyIds = new Set(ready.map((c) => c.id));
    const outcome = await this.execute(
      'apply',
      folderUri,
      root,
      targets.filter((t) => readyIds.has(t.id)),
      { ...runSettingsFor(folderUri, execution, COMMAND_NAMES.apply, choices.parallelism), planMaxAgeMs: maxAge },
      false,
    );
    return { ...outcome, refused };
  }

  private async planLike(kind: 'plan' | 'drift', choices: RunChoices, headless = false): Promise<RunOutcome> {
    if (!vscode.workspace.isTrusted) return untrusted(kind, headless);
    if (this.active) return this.busy();
    const folderUri = choices.folderUri ?? (await chooseFolder(`${kind === 'plan' ? 'Plan' : 'Check'} which folder?`));
    if (!folderUri) return { ran: false, reason: 'cancelled' };
    const params = await this.selection(folderUri, choices);
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
    const notify = () => void this.client.sendNotification(RunStateChangedNotification.type, { folderUri });
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
              notify();
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

  /** Which modules: from the choices, or asked with a quick pick. */
  private async selection(folderUri: string, choices: RunChoices): Promise<RunTargetsParams | undefined> {
    const base = {
      folderUri,
      ...(choices.withDependencies ? { withDependencies: true } : {}),
      ...(choices.withDependents ? { withDependents: true } : {}),
    };
    if (choices.scope === 'all') return { folderUri };
    if (choices.scope === 'modules' || (choices.scope === undefined && choices.modules))
      return { ...base, modules: choices.modules ?? [] };
    if (choices.scope === 'changed') {
      const baseRef = choices.baseRef ?? (await askBaseRef());
      return baseRef ? { folderUri, changedOnly: true, baseRef } : undefined;
    }
    const current = await this.currentModule(folderUri);
    type Item = vscode.QuickPickItem & { params?: () => Promise<RunTargetsParams | undefined> };
    const items: Item[] = [
      {
        label: '$(list-flat) All modules',
        detail: 'Every module, each after the modules it depends on',
        params: async () => ({ folderUri }),
      },
      {
        label: '$(git-compare) Changed modules',
        detail: 'Modules changed since a ref (committed or not), and what depends on them',
        params: async () => {
          const baseRef = await askBaseRef();
          return baseRef ? { folderUri, changedOnly: true, baseRef } : undefined;
        },
      },
    ];
    if (current) {
      items.push(
        {
          label: `$(file) ${current}`,
          detail: 'This module only',
          params: async () => ({ folderUri, modules: [current] }),
        },
        {
          label: `$(arrow-up) ${current} and its dependencies`,
          detail: 'With everything it reads state from, transitively',
          params: async () => ({ folderUri, modules: [current], withDependencies: true }),
        },
        {
          label: `$(arrow-down) ${current} and its dependents`,
          detail: 'With everything that reads its state, transitively',
          params: async () => ({ folderUri, modules: [current], withDependents: true }),
        },
      );
    }
    const chosen = await vscode.window.showQuickPick(items, { placeHolder: 'Which modules?' });
    return chosen?.params?.();
  }

  private async currentModule(folderUri: string): Promise<string | undefined> {
    const uri = vscode.window.activeTextEditor?.document.uri;
    if (uri?.scheme !== 'file') return undefined;
    if (vscode.workspace.getWorkspaceFolder(uri)?.uri.toString() !== folderUri) return undefined;
    const module = await this.client.sendRequest(ModuleForUriRequest.type, { uri: uri.toString() });
    return module?.id;
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

async function askBaseRef(): Promise<string | undefined> {
  return vscode.window.showInputBox({
    title: 'Terrace: changed since which ref?',
    prompt: 'Modules changed since the merge base with this ref (and uncommitted changes), plus their dependents',
    value: DEFAULT_BASE_REF,
    validateInput: (value) => (value.trim() ? undefined : 'a branch, tag or commit, e.g. origin/main'),
  });
}
