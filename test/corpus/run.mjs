// `npm run corpus -- DIR`: the engine on real public monorepos, against edges a person wrote down by reading
// them (test/corpus/<owner>+<name>.json). Each repository is looked for as a checkout in DIR/<owner>+<name>;
// the engine runs as users run it, `terrace graph --format json`, on the checkout's monorepo folder. Prints,
// per repository and in total, the root modules found and the edges' precision and recall, with each missed
// edge next to the engine's reason and each false one next to the address it matched; then the reads of other
// states' outputs, with each one reported missing next to what a person who read it said (`missingOutputs`); then,
// for a truth with a `history`, what each listed commit reaches against what a person read (`history.mjs`).
// Options: --json FILE writes the figures; --only NAME measures the repositories whose name contains NAME.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../harness/cache.mjs';
import { measureHistory } from './history.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { json: { type: 'string' }, only: { type: 'string' } },
});
const checkouts = positionals[0];
if (!checkouts) {
  console.error(
    'usage: npm run corpus -- DIR [--only NAME] [--json FILE]   (DIR holds checkouts named <owner>+<name>)',
  );
  process.exit(2);
}

const corpusDir = path.join(repoRoot, 'test', 'corpus');
const truths = readdirSync(corpusDir)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => JSON.parse(readFileSync(path.join(corpusDir, name), 'utf8')))
  .filter((truth) => !values.only || truth.repository.includes(values.only));

const pairKey = (edge) => `${edge.from} -> ${edge.to}`;
/** A list as a few items and a count, for a line a person reads. */
const some = (items, shown = 5) =>
  items.length <= shown ? items.join(', ') : `${items.slice(0, shown).join(', ')} and ${items.length - shown} more`;
const ratio = (part, whole) => (whole === 0 ? 1 : part / whole);
const fixed = (value) => value.toFixed(2);

/** The checkout's commit when it is a git work tree, to warn when it is not the one the truth was read at. */
function checkoutCommit(dir) {
  if (!existsSync(path.join(dir, '.git'))) return undefined;
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/** `file:line` at the start of a truth's `via`, to find the engine's word on that very block. */
function viaPlace(via) {
  const match = /^(\S+?):(\d+)/.exec(via ?? '');
  return match ? { file: match[1], line: Number(match[2]) } : undefined;
}

function engineGraph(dir) {
  const cli = spawnSync(process.execPath, [path.join(repoRoot, 'dist', 'cli.js'), 'graph', dir, '--format', 'json'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  try {
    return JSON.parse(cli.stdout);
  } catch {
    throw new Error(`terrace graph did not print JSON (exit ${cli.status}): ${cli.stderr.trim().slice(0, 500)}`);
  }
}

/** Why the engine has no edge for a missed one: its unresolved or ambiguous entry for that block, if any. */
function missReason(graph, edge) {
  const place = viaPlace(edge.via);
  const here = (item) => item.from === edge.from && (!place || (item.file === place.file && item.line === place.line));
  const unresolved = graph.unresolved.find(here);
  if (unresolved) return `unresolved: ${unresolved.reason}`;
  const ambiguous = graph.ambiguous.find(here);
  if (ambiguous) return `ambiguous: ${ambiguous.address} written by ${ambiguous.writers.join(', ')}`;
  if (!graph.modules.some((module) => module.id === edge.from)) return `${edge.from} was not found as a root module`;
  if (!graph.modules.some((module) => module.id === edge.to)) return `${edge.to} was not found as a root module`;
  const elsewhere = graph.edges.find((found) => found.from === edge.from && place && found.line === place.line);
  return elsewhere ? `matched ${elsewhere.to} instead (${elsewhere.address})` : 'no reference found there';
}

const results = [];
for (const truth of truths) {
  const name = truth.repository.replace('/', '+');
  const checkout = path.join(checkouts, name);
  const short = truth.commit.slice(0, 7);
  console.log(`\n${truth.repository} @${short}${truth.root ? ` (${truth.root}/)` : ''} [${truth.style.join(', ')}]`);
  if (!existsSync(checkout)) {
    console.log(`  not measured: no checkout at ${checkout}`);
    console.log(
      `  (git clone https://github.com/${truth.repository} ${checkout} && git -C ${checkout} checkout ${truth.commit})`,
    );
    results.push({ repository: truth.repository, measured: false });
    continue;
  }
  const at = checkoutCommit(checkout);
  if (at && at !== truth.commit)
    console.log(`  warning: the checkout is at ${at.slice(0, 7)}, the truth was read at ${short}`);

  const dir = path.join(checkout, truth.root ?? '');
  const found = measure(truth, engineGraph(dir), false);
  found.around = aroundEachFile(dir);
  results.push(found);
  if (truth.terrace !== undefined) results.push(measure(truth, configuredGraph(dir, truth.terrace), true));
  if (truth.history?.length) {
    console.log(`  what ${truth.history.length} commits of its history reach:`);
    found.history = measureHistory(truth, checkout, path.join(repoRoot, 'dist', 'cli.js'));
  }
}

/**
 * The graph with the `.terrace.yaml` a team would write (`terrace` in the truth: the values its CI passes),
 * written into the checkout for the run and removed after; a checkout with a file of its own is left alone.
 */
function configuredGraph(dir, text) {
  const file = path.join(dir, '.terrace.yaml');
  if (existsSync(file)) throw new Error(`${file} exists: the truth's configuration would replace it`);
  writeFileSync(file, text);
  try {
    return engineGraph(dir);
  } finally {
    rmSync(file);
  }
}

/**
 * What the editor answers about each file from the contracts around it, before the workspace's are worked out,
 * against what it answers from all of them (`aroundEachFile.ts`, the engine in process).
 */
function aroundEachFile(dir) {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(repoRoot, 'test', 'corpus', 'aroundEachFile.ts'), dir],
    {
      cwd: repoRoot,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (run.status !== 0)
    throw new Error(`aroundEachFile failed (exit ${run.status}): ${run.stderr.trim().slice(0, 500)}`);
  const around = JSON.parse(run.stdout.trim().split('\n').at(-1));
  console.log(
    `  around each file: ${around.answers} answers in ${around.files} files (${around.uses} uses, ${around.declarations} output blocks), ` +
      (around.differ.length
        ? `${around.differ.length} files differ from the whole contracts: ${some(around.differ)}`
        : 'each as from the whole contracts'),
  );
  return around;
}

/** One run's figures against the truth, printed as they are found. */
function measure(truth, graph, configured) {
  if (configured)
    console.log(
      `  with .terrace.yaml: ${truth.terrace
        .trim()
        .split('\n')
        .filter((line) => !line.startsWith('#'))
        .join(' ')
        .replace(/\s+/g, ' ')}`,
    );
  const foundModules = new Set(graph.modules.map((module) => module.id));
  const trueModules = new Set(truth.modules);
  const missedModules = truth.modules.filter((id) => !foundModules.has(id));
  const extraModules = [...foundModules].filter((id) => !trueModules.has(id));

  const trueEdges = new Map(truth.edges.map((edge) => [pairKey(edge), edge]));
  const foundEdges = new Map(graph.edges.map((edge) => [pairKey(edge), edge]));
  const right = [...foundEdges.keys()].filter((key) => trueEdges.has(key));
  const missed = [...trueEdges.keys()].filter((key) => !foundEdges.has(key));
  const wrong = [...foundEdges.keys()].filter((key) => !trueEdges.has(key));
  const precision = ratio(right.length, foundEdges.size);
  const recall = ratio(right.length, trueEdges.size);

  console.log(
    `  modules: ${foundModules.size} found, ${trueModules.size} true` +
      (missedModules.length ? `, missed ${some(missedModules)}` : '') +
      (extraModules.length ? `, not roots ${some(extraModules)}` : ''),
  );
  console.log(
    `  edges: ${trueEdges.size} true, ${foundEdges.size} found, ${right.length} right: precision ${fixed(precision)}, recall ${fixed(recall)}`,
  );
  for (const key of missed) console.log(`    missed ${key}: ${missReason(graph, trueEdges.get(key))}`);
  for (const key of wrong) {
    const edge = foundEdges.get(key);
    console.log(`    false  ${key}: ${edge.file}:${edge.line} matched ${edge.address}`);
  }
  const outputs = outputReads(truth, graph);
  return {
    repository: truth.repository,
    commit: truth.commit,
    measured: true,
    configured,
    modules: { true: trueModules.size, found: foundModules.size, missed: missedModules, extra: extraModules },
    edges: { true: trueEdges.size, found: foundEdges.size, right: right.length, missed, wrong },
    precision,
    recall,
    outputs,
  };
}

/**
 * The reads of other states' outputs, and each one reported missing against the truth's `missingOutputs`,
 * where a person who read the writer's code said whether it is really missing (`real`), or whether the
 * engine's inferred writer is not the state read (`inferred-writer`). A report the truth does not list is
 * the engine's mistake until a person reads it.
 */
function outputReads(truth, graph) {
  const reads = graph.outputReads;
  if (!reads) return undefined;
  const place = (item) => `${item.file}:${item.line}:${item.column} ${item.output}`;
  const known = new Map((truth.missingOutputs ?? []).map((item) => [`${item.at} ${item.output}`, item]));
  const reported = reads.missing.map((item) => ({ ...item, truth: known.get(place(item)) }));
  const unlisted = reported.filter((item) => !item.truth);
  const unreported = [...known.keys()].filter((key) => !reported.some((item) => place(item) === key));
  const verdicts = (verdict) => reported.filter((item) => item.truth?.verdict === verdict).length;
  console.log(
    `  output reads: ${reads.reads} found, ${reads.declared} of a declared output, ${reads.computed} computed, ` +
      `${reads.unchecked} of no writer's code in the repository; ${reported.length} reported missing ` +
      `(${verdicts('real')} real, ${verdicts('inferred-writer')} through a wrong inferred writer, ${unlisted.length} not in the truth)`,
  );
  for (const item of reported)
    console.log(`    ${item.truth ? item.truth.verdict : 'NOT IN THE TRUTH'} ${place(item)}: ${item.message}`);
  for (const key of unreported) console.log(`    listed in the truth, not reported: ${key}`);
  return {
    reads: reads.reads,
    declared: reads.declared,
    computed: reads.computed,
    unchecked: reads.unchecked,
    missing: reported.length,
    real: verdicts('real'),
    inferredWriter: verdicts('inferred-writer'),
    unlisted: unlisted.length,
    unreported: unreported.length,
  };
}

/** Precision and recall over every edge of the measured repositories that `keep` picks. */
function totals(label, keep) {
  const measured = results.filter((result) => result.measured && keep(result));
  const sum = (pick) => measured.reduce((total, result) => total + pick(result), 0);
  const right = sum((result) => result.edges.right);
  const found = sum((result) => result.edges.found);
  const all = sum((result) => result.edges.true);
  console.log(
    `${label}: ${measured.length} repositories; ${all} true edges, ${found} found, ${right} right: ` +
      `precision ${fixed(ratio(right, found))}, recall ${fixed(ratio(right, all))}`,
  );
  return {
    repositories: measured.length,
    true: all,
    found,
    right,
    precision: ratio(right, found),
    recall: ratio(right, all),
  };
}

const withStyle = (style) =>
  new Set(truths.filter((truth) => truth.style.includes(style)).map((truth) => truth.repository));
const terragrunt = withStyle('terragrunt');
const stacks = withStyle('stacks');
const plainTerraform = (repository) => !terragrunt.has(repository) && !stacks.has(repository);
const measured = results.filter((result) => result.measured && !result.configured);
console.log(`\n${measured.length} of ${truths.length} repositories measured`);
/** Each repository once: its configured run where the truth has a `.terrace.yaml`, else its plain one. */
const asConfigured = (result) =>
  result.configured || !results.some((other) => other.configured && other.repository === result.repository);
const summary = {
  terraform: totals('plain Terraform', (result) => !result.configured && plainTerraform(result.repository)),
  terragrunt: totals('Terragrunt', (result) => !result.configured && terragrunt.has(result.repository)),
  stacks: totals('Terraform Stacks', (result) => !result.configured && stacks.has(result.repository)),
  all: totals('corpus', (result) => !result.configured),
  configured: totals("corpus with the teams' .terrace.yaml", asConfigured),
  outputReads: outputTotals(),
  around: aroundTotals(),
  history: historyTotals(),
};

/** The answers around each file over the corpus, against the whole contracts'. */
function aroundTotals() {
  const measured = results.filter((result) => result.around);
  const sum = (pick) => measured.reduce((total, result) => total + pick(result.around), 0);
  const figures = {
    repositories: measured.length,
    files: sum((around) => around.files),
    answers: sum((around) => around.answers),
    differ: sum((around) => around.differ.length),
  };
  console.log(
    `around each file: ${figures.repositories} repositories, ${figures.answers} answers in ${figures.files} files, ` +
      `${figures.differ} files whose answers differ from the whole contracts'`,
  );
  return figures;
}

/** What the commits of the repositories' histories reach, against what a person read: exact commits, and modules. */
function historyTotals() {
  const measured = results.filter((result) => result.history);
  const sum = (pick) => measured.reduce((total, result) => total + result.history[pick], 0);
  const figures = Object.fromEntries(
    ['measured', 'exact', 'true', 'found', 'right', 'pipelines', 'pipelinesCompared', 'pipelinesRight'].map((key) => [
      key,
      sum(key),
    ]),
  );
  console.log(
    `history: ${measured.length} repositories, ${figures.exact} of ${figures.measured} commits exact; modules reached: ` +
      `${figures.true} true, ${figures.found} found, ${figures.right} right: precision ${fixed(ratio(figures.right, figures.found))}, ` +
      `recall ${fixed(ratio(figures.right, figures.true))}; changed-only pipelines ${figures.pipelines} generated, ` +
      `${figures.pipelinesRight} of ${figures.pipelinesCompared} as the truth expects (the others refused for modules that do not parse)`,
  );
  return { repositories: measured.length, ...figures };
}

/** The output reads over the corpus, each repository once, with its team's `.terrace.yaml` where the truth has one. */
function outputTotals() {
  const measured = results.filter((result) => result.measured && asConfigured(result) && result.outputs);
  const sum = (pick) => measured.reduce((total, result) => total + result.outputs[pick], 0);
  const figures = Object.fromEntries(
    ['reads', 'declared', 'computed', 'unchecked', 'missing', 'real', 'inferredWriter', 'unlisted', 'unreported'].map(
      (key) => [key, sum(key)],
    ),
  );
  console.log(
    `output reads: ${figures.reads} found, ${figures.declared} of a declared output, ${figures.computed} computed, ` +
      `${figures.unchecked} unchecked; ${figures.missing} reported missing: ${figures.real} real, ` +
      `${figures.inferredWriter} through a wrong inferred writer, ${figures.unlisted} not in the truth (the engine's mistakes until read)`,
  );
  return figures;
}
if (values.json) writeFileSync(values.json, `${JSON.stringify({ ...summary, results }, null, 2)}\n`);
process.exit(measured.length === 0 ? 1 : 0);
