import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { loadWorkspace } from '../engine/analysis';
import { ConfigError, loadAnalysisOptions } from '../engine/config';
import type { OutputContracts } from '../engine/contracts';
import {
  cyclesOf,
  type GraphJson,
  graphJson,
  onceEach,
  relativeFile,
  renderDot,
  renderLevels,
  renderMermaid,
  renderText,
} from '../engine/features';
import { FilesystemRootError, UnknownEnvironmentError } from '../engine/workspace';
import { TERRACE_VERSION } from '../terraceVersion';
import { affectedCommand } from './affectedCommand';
import { GATE_STEPS, type GateStep, gateCommand } from './gateCommand';
import { generateCommand } from './generateCommand';
import { runCommand } from './runCommand';

/** The `terrace` command line: the same engine the editor runs, for terminals and CI. */
const USAGE = `Usage: terrace <command> [dir] [options]

Commands:
  graph [dir]      the module graph (--format text|json|dot|mermaid, default text)
  levels [dir]     the execution levels, one line per level (exit 1 on cycles: their modules have no level)
  validate [dir]   exit 1 on cycles, syntax errors, a dependency on no unit or component, what
                   Terragrunt refuses, what Terrace could not evaluate, or a read of an output its writer
                   does not declare, listing them; warnings for other unresolved references
  affected [dir]   what the changes since --base-ref <ref> can alter: each module whose plan reads a changed
                   file (its own files, its child modules', what it includes, what its file functions
                   read), then each that depends on one, with why (--format text|json)
  generate [dir]   the CI pipeline: --ci gitlab|github [--changed-only --base-ref <ref> [--explain]
                   [--all-dependents]] [--output <file>]
                   (to stdout without --output; exit 1 on cycles). --output is relative to the current
                   folder, not to dir; a file there that Terrace did not write is replaced only with --force.
                   Exit 1 when a module does not parse or could not be evaluated; --skip-broken leaves it
                   and its dependents out.
                   --split level|none: for a graph past the platform's limits, GitLab child pipelines per
                   level or chained GitHub workflows, written beside --output. A changed-only pipeline's
                   jobs decide from the outputs each dependent reads whether it plans and applies (they run
                   terrace gate, gate.command in .terrace.yaml); --all-dependents plans and applies every one
  plan [dir]       terraform plan of the modules in dependency order, N at once, with saved plans and logs
                   under <dir>/.terrace/runs/: [--parallelism N] [--module <id> ... [--with-dependencies]
                   [--with-dependents]] [--changed-only --base-ref <ref> [--explain] [--all-dependents]]
                   [--retries N] [--binary <path>]
                   [--detailed-exitcode] (exit 1 when a module failed or was skipped; 2 for changes with
                   --detailed-exitcode). Refuses modules that do not parse or could not be evaluated; --skip-broken plans the rest
                   (exit 1)
  apply [dir]      plans each module in dependency order and applies its plan when it has changes, asking
                   first as terraform does (--auto-approve: without asking; needed when the input is not
                   a terminal); the same options as plan but --detailed-exitcode. With --changed-only,
                   a dependent is planned and applied only when an output it reads changed in the apply
                   of a module it depends on (--all-dependents: every dependent)
  gate <step>      what the jobs of a changed-only pipeline run to decide, from the outputs their module
                   reads, whether it plans and applies (plan, planned, apply, outputs, applied
                   --before <hashes>; decide and forward in GitHub workflows chained by level); it reads
                   the job's TERRACE_GATE, written by generate, and refuses a pipeline that another
                   version of Terrace generated

Every command takes --env NAME (-e): analyse one environment, with its variables, tfvars, backend files
and workspace (named in .terrace.yaml, or by files such as prod.tfvars and prod.tfbackend). Without it,
every environment's backend files count.

dir defaults to the current folder. Settings come from <dir>/.terrace.yaml when present (else from
TerraCi's <dir>/.terraci.yaml). --version prints this Terrace's version.
`;

const FORMATS = ['text', 'json', 'dot', 'mermaid'] as const;
type Format = (typeof FORMATS)[number];

class UsageError extends Error {}

const OPTIONS = {
  format: { type: 'string', short: 'f' },
  help: { type: 'boolean', short: 'h' },
  ci: { type: 'string' },
  'changed-only': { type: 'boolean' },
  'base-ref': { type: 'string' },
  explain: { type: 'boolean' },
  'all-dependents': { type: 'boolean' },
  output: { type: 'string', short: 'o' },
  force: { type: 'boolean' },
  'skip-broken': { type: 'boolean' },
  split: { type: 'string' },
  parallelism: { type: 'string', short: 'p' },
  module: { type: 'string', short: 'm', multiple: true },
  'with-dependencies': { type: 'boolean' },
  'with-dependents': { type: 'boolean' },
  retries: { type: 'string' },
  binary: { type: 'string' },
  'detailed-exitcode': { type: 'boolean' },
  'auto-approve': { type: 'boolean' },
  env: { type: 'string', short: 'e' },
  before: { type: 'string' },
  version: { type: 'boolean' },
} as const satisfies ParseArgsConfig['options'];

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parsedArgs(argv);
  const [command, dirArg, ...extra] = positionals;
  if (values.version) {
    process.stdout.write(`${TERRACE_VERSION}\n`);
    return 0;
  }
  if (command === 'gate') return gate(dirArg, extra, values.before);
  if (values.before !== undefined) throw new UsageError('--before goes with gate applied');
  if (values.help || command === undefined || command === 'help') {
    process.stdout.write(USAGE);
    return command === undefined && !values.help ? 2 : 0;
  }
  if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
  const root = workspaceDir(dirArg ?? '.');
  switch (command) {
    case 'graph':
      return graphCommand(root, format(values.format), values.env);
    case 'levels':
      return levelsCommand(root, values.env);
    case 'validate':
      return validateCommand(root, values.env);
    case 'affected':
      return affectedCommand(root, values, {
        usage: (message) => new UsageError(message),
        out: (text) => process.stdout.write(text),
        err: (text) => process.stderr.write(text),
      });
    case 'generate':
      return generateCommand(root, values, { usage: (message) => new UsageError(message), write: writeOutput });
    case 'plan':
    case 'apply':
      return runCommand(
        root,
        values,
        {
          usage: (message) => new UsageError(message),
          out: (text) => process.stdout.write(text),
          err: (text) => process.stderr.write(text),
          color: useColor(),
          interactive: process.stdin.isTTY === true,
        },
        command === 'plan' ? 'plan' : 'deploy',
      );
    default:
      throw new UsageError(`unknown command '${command}'`);
  }
}

/** `terrace gate <step>`, in a pipeline's job, at the checkout's root. */
function gate(step: string | undefined, extra: readonly string[], before: string | undefined): number {
  if (step === undefined || !(GATE_STEPS as readonly string[]).includes(step))
    throw new UsageError(`gate needs a step: ${GATE_STEPS.join(', ')}`);
  if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
  if (before !== undefined && step !== 'applied') throw new UsageError('--before goes with gate applied');
  return gateCommand(step as GateStep, before === undefined ? {} : { before }, {
    env: process.env,
    cwd: process.cwd(),
    stdin: () => readFileSync(0, 'utf8'),
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
}

/**
 * The options and positionals; a mistake in them is a usage error (exit 2) with node's plain message,
 * never a stack trace. A negative number after an option taking a value is that option's value
 * (`--parallelism -1` reads as `--parallelism=-1`), so that the option's own check says what is wrong with it.
 */
function parsedArgs(argv: readonly string[]) {
  const takesValue = new Set<string>();
  for (const [name, option] of Object.entries(OPTIONS)) {
    if (option.type !== 'string') continue;
    takesValue.add(`--${name}`);
    if ('short' in option) takesValue.add(`-${option.short}`);
  }
  const args = argv.flatMap((arg, i) => {
    if (/^-\d/.test(arg) && takesValue.has(argv[i - 1] ?? '')) return [];
    const next = argv[i + 1];
    if (!takesValue.has(arg) || next === undefined || !/^-\d/.test(next)) return [arg];
    return [arg.startsWith('--') ? `${arg}=${next}` : `${arg}${next}`];
  });
  try {
    return parseArgs({ args, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code?.startsWith('ERR_PARSE_ARGS_')) throw new UsageError((error as Error).message);
    throw error;
  }
}

function format(value: string | undefined): Format {
  const chosen = value ?? 'text';
  if (!(FORMATS as readonly string[]).includes(chosen))
    throw new UsageError(`--format must be one of ${FORMATS.join(', ')}`);
  return chosen as Format;
}

function workspaceDir(dir: string): string {
  const root = path.resolve(dir);
  let isDir = false;
  try {
    isDir = statSync(root).isDirectory();
  } catch {
    throw new UsageError(`no such directory: ${dir}`);
  }
  if (!isDir) throw new UsageError(`not a directory: ${dir}`);
  return root;
}

async function analyze(root: string, environment: string | undefined): Promise<GraphJson> {
  return (await analyzeWith(root, environment, false)).graph;
}

/**
 * The graph, after printing the analysis's problems; with `contracts`, the outputs along each edge
 * and the contracts' problems too.
 */
async function analyzeWith(
  root: string,
  environment: string | undefined,
  withContracts: boolean,
): Promise<{ graph: GraphJson; contracts: OutputContracts | undefined }> {
  const analysis = await loadWorkspace(root, { ...(await loadAnalysisOptions(root)), environment });
  const contracts = withContracts ? analysis.contracts() : undefined;
  const graph = graphJson(analysis.result(), contracts);
  for (const error of graph.syntaxErrors)
    process.stderr.write(`Error: ${error.file}:${error.line}:${error.column}: ${error.message}\n`);
  for (const problem of graph.problems)
    process.stderr.write(
      `${problem.error ? 'Error' : 'Warning'}: ${problem.file ? `${problem.file}${problem.line ? `:${problem.line}` : ''}: ` : ''}${problem.message}\n`,
    );
  return { graph, contracts };
}

async function graphCommand(root: string, chosen: Format, environment: string | undefined): Promise<number> {
  const { graph } = await analyzeWith(root, environment, chosen === 'json');
  const render = {
    text: renderText,
    json: (g: GraphJson) => `${JSON.stringify(g, null, 2)}\n`,
    dot: renderDot,
    mermaid: renderMermaid,
  }[chosen];
  process.stdout.write(render(graph));
  return 0;
}

/** The levels; exit 1 when a cycle leaves modules with none. */
async function levelsCommand(root: string, environment: string | undefined): Promise<number> {
  const graph = await analyze(root, environment);
  process.stdout.write(renderLevels(graph));
  const sets = graph.cycleModules.length;
  if (sets === 0) return 0;
  process.stderr.write(
    `Error: ${sets === 1 ? 'a cycle leaves its modules' : `${sets} cycles leave their modules`}${graph.waitingForCycles.length > 0 ? ' and those that depend on them' : ''} without a level; nothing can run them in order until it is broken\n`,
  );
  return 1;
}

async function validateCommand(root: string, environment: string | undefined): Promise<number> {
  const { graph, contracts } = await analyzeWith(root, environment, true);
  const contractProblems = contracts?.problems ?? [];
  for (const problem of contractProblems)
    process.stderr.write(
      `${problem.severity === 'error' ? 'Error' : 'Warning'}: ${relativeFile(root, problem.file)}:${problem.range.start.line + 1}:${problem.range.start.character + 1}: ${problem.message}\n`,
    );
  // A block read once per instance (a module called with count = 8331) is said once, with the count.
  const reads = [
    ...graph.unresolved.map(
      (item) => `${item.error ? 'Error' : 'Warning'}: ${item.file}:${item.line}: ${item.label}: ${item.reason}`,
    ),
    ...graph.ambiguous.map(
      (item) =>
        `Warning: ${item.file}:${item.line}: ${item.label}: ${item.address} is written by ${item.writers.join(' and ')}`,
    ),
  ];
  for (const line of onceEach(reads)) process.stderr.write(`${line}\n`);
  for (const members of graph.cycleModules)
    process.stdout.write(
      `Error: circular dependency among ${members.join(', ')}\n${cyclesOf(graph, members)
        .map((cycle) => `  ${cycle}\n`)
        .join('')}`,
    );
  const failed =
    graph.cycles.length > 0 ||
    graph.syntaxErrors.length > 0 ||
    graph.unresolved.some((item) => item.error) ||
    graph.problems.some((problem) => problem.error) ||
    contractProblems.some((problem) => problem.severity === 'error');
  if (!failed) process.stdout.write(`${graph.modules.length} modules in ${graph.levels.length} levels, no cycles\n`);
  return failed ? 1 : 0;
}

/** ANSI colours on a terminal, unless NO_COLOR is set; FORCE_COLOR forces them. */
function useColor(): boolean {
  if (process.env.FORCE_COLOR && process.env.FORCE_COLOR !== '0') return true;
  return process.stdout.isTTY === true && !process.env.NO_COLOR;
}

/** Writes a file relative to the current folder, creating its folder. */
function writeOutput(file: string, text: string): string {
  const target = path.resolve(file);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, text);
  return target;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) process.stderr.write(`terrace: ${error.message}\n\n${USAGE}`);
    else if (
      error instanceof ConfigError ||
      error instanceof UnknownEnvironmentError ||
      error instanceof FilesystemRootError
    )
      process.stderr.write(`terrace: ${error.message}\n`);
    else process.stderr.write(`terrace: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 2;
  },
);
