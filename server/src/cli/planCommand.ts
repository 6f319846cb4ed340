import path from 'node:path';
import {
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
import { problemLine } from '../engine/features';
import { cyclesLeftAloneWarning, selectionCycles } from '../engine/pipeline';
import { ParallelismError, RunCycleError, UnknownModuleError } from '../engine/run';
import { changedReach, explanationLines, reachSummary } from './affectedCommand';

export interface PlanFlags {
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
}

export interface PlanIo {
  usage(message: string): Error;
  out(text: string): void;
  err(text: string): void;
  color: boolean;
}

/**
 * `terrace plan [dir] [--parallelism N] [--module <id>… [--with-dependencies] [--with-dependents]]
 * [--changed-only --base-ref <ref>] [--retries N] [--binary <terraform|tofu|path>] [--detailed-exitcode]`:
 * `terraform plan` of the modules in dependency order, N at once, printing what the editor's
 * terminal shows. Exit 0 when every module planned (2 with `--detailed-exitcode` when some have
 * changes), 1 when one failed or was skipped (or did not parse), 130 when interrupted. Modules that do
 * not parse are refused before anything runs, or with `--skip-broken` left out with their dependents.
 */
export async function planCommand(root: string, flags: PlanFlags, io: PlanIo): Promise<number> {
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
  if (flags['changed-only'] && flags.module?.length) throw io.usage('--changed-only and --module exclude each other');
  if (flags.explain && !flags['changed-only']) throw io.usage('--explain goes with --changed-only');

  const config = await loadWorkspaceConfig(root);
  for (const warning of config.warnings) io.err(`Warning: ${warning}\n`);
  const analysis = await loadWorkspace(root, { ...config.analysis, environment: flags.env });
  const result = analysis.result();
  const execution = executionFor(config.pipeline.execution, result.engine, flags.env, config.analysis.environments);

  let modules: string[] | undefined = flags.module;
  if (flags['changed-only']) {
    try {
      const found = await changedReach(analysis, config, flags['base-ref']!, true);
      modules = [...found.reach.affected];
      io.err(reachSummary(found, 'to plan'));
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
  if (targets.length === 0) {
    io.err('Nothing to plan: no module selected\n');
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
      io.err(`Error: ${new BrokenModulesError(broken).message} (--skip-broken); nothing was planned\n`);
      return 1;
    }
    io.err(`Left out, as they ${skippedCause(skipped)}: ${skippedList(skipped)}\n`);
    const left = new Set(skipped.map((module) => module.id));
    targets = targets.filter((target) => !left.has(target.id));
    // Modules left out were not planned: the run cannot succeed as a whole.
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
  const printer = new RunPrinter(io.out, { color: io.color, root: process.cwd() });
  try {
    const report = await runModules({
      root,
      targets,
      kind: 'plan',
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
        command: 'terrace plan',
      },
      signal: controller.signal,
      onStart: (run) => printer.begin('plan', targets, run),
      onLine: (id, line) => printer.output(id, line),
      onEvent: (event) => printer.event('plan', event),
    });
    printer.summary(report);
    // Said again after the table, where a reader of the run looks for what did not plan.
    if (skipped.length > 0) io.out(`Not planned, as they ${skippedCause(skipped)}: ${skippedList(skipped)}\n`);
    const results = report.result.results;
    if (report.result.cancelled) return 130;
    if (skipped.length > 0 || results.some((r) => r.status !== 'succeeded')) return 1;
    return flags['detailed-exitcode'] && results.some((r) => r.value?.changes) ? 2 : 0;
  } catch (error) {
    if (error instanceof ParallelismError || error instanceof TerraformNotFoundError) {
      io.err(`Error: ${error.message}\n`);
      return 1;
    }
    if (error instanceof RunCycleError) {
      io.err('Error: circular dependency among the modules to plan; they cannot be planned in order, so none was\n');
      for (const cycle of error.cycles) io.err(`  ${cycle.join(' -> ')}\n`);
      return 1;
    }
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

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

function wholeNumber(text: string, flag: string, io: PlanIo): number {
  if (!/^-?\d+$/.test(text.trim())) throw io.usage(`${flag} needs a whole number, not '${text}'`);
  return Number(text);
}
