import path from 'node:path';
import {
  gatedTargets,
  isPath,
  killAllProcessGroups,
  locateBinary,
  RunPrinter,
  runModules,
  runTargets,
  TerraformNotFoundError,
  terraformEnv,
} from '../../../runner/src';
import {
  BrokenModulesError,
  brokenModules,
  ChangedFilesError,
  loadWorkspace,
  skippedAsBroken,
  skippedCause,
  skippedList,
} from '../engine/analysis';
import { executionFor, loadWorkspaceConfig } from '../engine/config';
import { upstreamReads } from '../engine/contracts';
import { problemLine } from '../engine/features';
import { cyclesLeftAloneWarning, selectionCycles } from '../engine/pipeline';
import { type ModuleRunStatus, ParallelismError, RunCycleError, UnknownModuleError } from '../engine/run';
import { changedReach, explanationLines, reachSummary, refuseBadBaseRef } from './affectedCommand';
import { type ApplyApproval, applyApproval } from './applyApproval';

export interface RunFlags {
  parallelism?: string;
  module?: string[];
  'with-dependencies'?: boolean;
  'with-dependents'?: boolean;
  'changed-only'?: boolean;
  'base-ref'?: string;
  retries?: string;
  binary?: string;
  'detailed-exitcode'?: boolean;
  /** The environment to analyse (`--env`). */
  env?: string;
  /** Plan the rest when modules do not parse, leaving them and their dependents out, instead of refusing. */
  'skip-broken'?: boolean;
  /** With `--changed-only`: say why each module is planned. */
  explain?: boolean;
  /** With `--changed-only`: plan every dependent of a changed module, whatever the outputs it reads do. */
  'all-dependents'?: boolean;
  /** `apply`: apply each plan without asking. */
  'auto-approve'?: boolean;
}

export interface RunIo {
  usage(message: string): Error;
  out(text: string): void;
  err(text: string): void;
  color: boolean;
  /** Whether the user can answer a question (stdin is a terminal). */
  interactive: boolean;
}

/** `plan` saves plans; `deploy` (`terrace apply`) plans each module and applies what it plans, in order. */
export type CommandKind = 'plan' | 'deploy';

const WORDS: Record<CommandKind, { command: string; verb: string; done: string }> = {
  plan: { command: 'terrace plan', verb: 'plan', done: 'planned' },
  deploy: { command: 'terrace apply', verb: 'apply', done: 'applied' },
};

/**
 * `terrace plan|apply [dir] [--parallelism N] [--module <id>… [--with-dependencies] [--with-dependents]]
 * [--changed-only --base-ref <ref> [--all-dependents]] [--retries N] [--binary <terraform|tofu|path>]`, with
 * `--detailed-exitcode` for plan and `--auto-approve` for apply: `terraform plan` of the modules in dependency
 * order, N at once, printing what the editor's terminal shows; apply applies each plan with changes, asking
 * first (as terraform does) unless `--auto-approve`. Exit 0 when every module planned or applied (2 with
 * `--detailed-exitcode` when some have changes), 1 when one failed or was skipped (or did not parse, or an
 * apply was not approved), 130 when interrupted. Modules that do not parse are refused before anything runs,
 * or with `--skip-broken` left out with their dependents.
 */
export async function runCommand(root: string, flags: RunFlags, io: RunIo, kind: CommandKind): Promise<number> {
  const words = WORDS[kind];
  const parallelism = flags.parallelism === undefined ? undefined : wholeNumber(flags.parallelism, '--parallelism', io);
  if (parallelism !== undefined && parallelism < 0)
    throw io.usage(`--parallelism must be 0 or more (0 means the default), not ${parallelism}`);
  const retries = flags.retries === undefined ? undefined : wholeNumber(flags.retries, '--retries', io);
  if (retries !== undefined && retries < 0) throw io.usage('--retries must be 0 or more');
  if ((flags['with-dependencies'] || flags['with-dependents']) && !flags.module?.length)
    throw io.usage('--with-dependencies and --with-dependents go with --module <id>');
  if (flags['base-ref'] !== undefined && !flags['changed-only']) throw io.usage('--base-ref goes with --changed-only');
  if (flags['changed-only'] && !flags['base-ref'])
    throw io.usage('--changed-only needs --base-ref <ref>, e.g. --base-ref origin/main');
  refuseBadBaseRef(flags['base-ref'], io);
  if (flags['changed-only'] && flags.module?.length) throw io.usage('--changed-only and --module exclude each other');
  if (flags.explain && !flags['changed-only']) throw io.usage('--explain goes with --changed-only');
  if (flags['all-dependents'] && !flags['changed-only']) throw io.usage('--all-dependents goes with --changed-only');
  if (kind === 'deploy' && flags['detailed-exitcode']) throw io.usage('--detailed-exitcode goes with plan');
  if (kind === 'plan' && flags['auto-approve']) throw io.usage('--auto-approve goes with apply');
  // Checked before anything is analysed: an unattended apply must say so.
  if (kind === 'deploy' && !flags['auto-approve'] && !io.interactive) {
    io.err(
      'Error: terrace apply asks before it applies each plan, and its input is not a terminal; pass --auto-approve to apply without asking\n',
    );
    return 1;
  }

  const config = await loadWorkspaceConfig(root);
  for (const warning of config.warnings) io.err(`Warning: ${warning}\n`);
  const analysis = await loadWorkspace(root, { ...config.analysis, environment: flags.env });
  const result = analysis.result();
  const execution = executionFor(config.pipeline.execution, result.engine, flags.env, config.analysis.environments);

  let modules: string[] | undefined = flags.module;
  // A changed-only run decides each dependent from the outputs it reads (unless --all-dependents).
  let reached: ReadonlySet<string> | undefined;
  if (flags['changed-only']) {
    try {
      const found = await changedReach(analysis, config, flags['base-ref']!, true);
      modules = [...found.reach.affected];
      if (!flags['all-dependents']) reached = new Set(found.reach.reached.keys());
      io.err(reachSummary(found, `to ${words.verb}`));
      if (flags.explain) io.err(explanationLines(result, found));
    } catch (error) {
      if (!(error instanceof ChangedFilesError)) throw error;
      io.err(`Error: ${error.message}\n`);
      return 1;
    }
  }

  let targets: ReturnType<typeof runTargets>;
  try {
    targets = runTargets(result, {
      ...(modules ? { modules } : {}),
      withDependencies: flags['with-dependencies'] ?? false,
      withDependents: flags['with-dependents'] ?? false,
    });
  } catch (error) {
    if (error instanceof UnknownModuleError) throw io.usage(error.message);
    throw error;
  }
  if (reached) targets = gatedTargets(targets, reached, upstreamReads(analysis.contracts(), result.edges));
  if (targets.length === 0) {
    io.err(`Nothing to ${words.verb}: no module selected\n`);
    return 0;
  }
  const selected = new Set(targets.map((target) => target.id));
  // A run orders its own modules only: the graph's cycles that none of them closes are left alone, and said so.
  const { leftAlone } = selectionCycles(result, selected);
  if (leftAlone > 0) io.err(`Warning: ${cyclesLeftAloneWarning(leftAlone)}\n`);
  const skipped = skippedAsBroken(result, selected);
  if (skipped.length > 0) {
    const broken = brokenModules(result, selected);
    for (const module of broken)
      for (const error of [...module.syntaxErrors, ...(module.notEvaluated ?? [])])
        io.err(`${problemLine(root, error)}\n`);
    if (!flags['skip-broken']) {
      io.err(`Error: ${new BrokenModulesError(broken).message} (--skip-broken); nothing was ${words.done}\n`);
      return 1;
    }
    io.err(`Left out, as they ${skippedCause(skipped)}: ${skippedList(skipped)}\n`);
    const left = new Set(skipped.map((module) => module.id));
    targets = targets.filter((target) => !left.has(target.id));
    // Modules left out did not run: the run cannot succeed as a whole.
    if (targets.length === 0) return 1;
  }

  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = () => {
    interrupts++;
    if (interrupts === 1) {
      io.err('\nStopping: interrupting terraform (press Ctrl+C again to kill it at once)…\n');
      controller.abort();
    } else {
      killAllProcessGroups();
      process.exit(130);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const binary = flags.binary ?? execution.binary;
  const configName = config.file ? path.basename(config.file) : '.terrace.yaml';
  io.err(
    ranBy(
      binary,
      flags.binary
        ? '--binary'
        : execution.binaryChosen
          ? `execution.binary in ${configName}`
          : binary === 'tofu'
            ? 'the default of an OpenTofu workspace'
            : 'the default',
      execution.env,
      configName,
    ),
  );
  if (targets.some((target) => target.kind === 'unit'))
    io.err(
      ranBy(
        execution.terragrunt ?? 'terragrunt',
        execution.terragrunt ? `execution.terragrunt in ${configName}` : 'the default',
        execution.env,
        configName,
      ),
    );

  // Paths (logs, plans) are printed relative to where the command runs.
  const approval: ApplyApproval | undefined =
    kind === 'deploy' && !flags['auto-approve'] ? applyApproval(io.out, io.err) : undefined;
  // Interrupted at a question: it is answered no, and nothing more is asked.
  if (approval) controller.signal.addEventListener('abort', () => approval.close(), { once: true });
  const out = approval ? approval.out : io.out;
  const printer = new RunPrinter(out, { color: io.color, root: process.cwd() });
  try {
    const report = await runModules({
      root,
      targets,
      kind,
      settings: {
        binary,
        binarySetting: flags.binary ? '--binary' : 'execution.binary in .terrace.yaml, or --binary',
        terragrunt: execution.terragrunt,
        terragruntSetting: 'execution.terragrunt in .terrace.yaml',
        parallelism: parallelism ?? execution.parallelism,
        initArgs: execution.initArgs,
        planArgs: execution.planArgs,
        varFiles: execution.varFiles,
        env: execution.env,
        init: execution.init,
        retries: retries ?? execution.retries,
        command: words.command,
      },
      signal: controller.signal,
      onStart: (run) => printer.begin(kind, targets, run),
      onLine: (id, line) => printer.output(id, line),
      onEvent: (event) => printer.event(kind, event),
      ...(approval ? { approve: approval.ask } : {}),
    });
    printer.summary(report);
    // Said again after the table, where a reader of the run looks for what did not plan.
    if (skipped.length > 0) io.out(`Not ${words.done}, as they ${skippedCause(skipped)}: ${skippedList(skipped)}\n`);
    const results = report.result.results;
    if (report.result.cancelled) return 130;
    // Unaffected and stale modules are decided, not failed; a stale one has changes to come.
    if (skipped.length > 0 || results.some((r) => !DECIDED.has(r.status))) return 1;
    return flags['detailed-exitcode'] && results.some((r) => r.value?.changes || r.status === 'stale') ? 2 : 0;
  } catch (error) {
    if (error instanceof ParallelismError || error instanceof TerraformNotFoundError) {
      io.err(`Error: ${error.message}\n`);
      return 1;
    }
    if (error instanceof RunCycleError) {
      io.err(
        `Error: circular dependency among the modules to ${words.verb}; they cannot be ${words.done} in order, so none was\n`,
      );
      for (const cycle of error.cycles) io.err(`  ${cycle.join(' -> ')}\n`);
      return 1;
    }
    throw error;
  } finally {
    approval?.close();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** The statuses of a run that went as it should: planned or applied, or decided from what its upstreams do. */
const DECIDED: ReadonlySet<ModuleRunStatus> = new Set(['succeeded', 'unaffected', 'stale']);

/**
 * What the run starts, said before it starts anything (its version is asked first): `Runs /usr/bin/terraform
 * ('terraform', the default, found on PATH)`. A repository's `.terrace.yaml` can name the binary and set
 * the PATH it is looked up on.
 */
function ranBy(binary: string, namedBy: string, env: Record<string, string>, configName: string): string {
  const found = locateBinary(binary, terraformEnv(env));
  const where = isPath(binary)
    ? 'a path'
    : `found on PATH${env.PATH === undefined ? '' : ` as execution.env in ${configName} sets it`}`;
  return `Runs ${found ?? binary} ('${binary}', ${namedBy}, ${found ? where : 'not found'})\n`;
}

function wholeNumber(text: string, flag: string, io: RunIo): number {
  if (!/^-?\d+$/.test(text.trim())) throw io.usage(`${flag} needs a whole number, not '${text}'`);
  return Number(text);
}
