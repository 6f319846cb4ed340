// `npm run bench`: every figure of the benchmark on synthetic monorepos of 100, 1,000 and 10,000
// modules — cold analysis against the read floor, incremental updates (in the engine and through
// the language server), hover latency, pipeline generation, graph layout (and the layout thread's first
// layout, cold or warmed up) and the server's memory, and generated .tf.json of 5 and 50 MB read by the CLI (time, peak memory).
// Prints a table, writes bench-results.json. `--sizes 100,1000` picks sizes; `--quick` fewer runs;
// `--only json` the generated .tf.json rows alone; `--only terragrunt` the Terragrunt units rows alone;
// `--only layout` the graph panel's layout rows alone.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { buildSync } from 'esbuild';
import { changeReach, WorkspaceAnalysis } from '../../server/src/engine/analysis';
import { defaultOptions, defaultPipelineOptions } from '../../server/src/engine/config';
import { generatePipeline } from '../../server/src/engine/pipeline';
import { type GeneratedJsonFigures, measureGeneratedJson } from './generatedJson';
import { type LayoutFigures, measureLayout, measureThreadStart } from './layoutFigures';
import { type LspFigures, measureLsp } from './lspFigures';
import { repeat, type Summary, summarize } from './samples';
import { generateMonorepo, type SyntheticMonorepo, withoutOutput, withUnwrittenKey } from './syntheticMonorepo';
import {
  measureRealShapedTerragrunt,
  measureTerragrunt,
  type RealShapedFigures,
  type TerragruntFigures,
} from './terragruntUnits';

const { values } = parseArgs({
  options: { sizes: { type: 'string' }, quick: { type: 'boolean' }, out: { type: 'string' }, only: { type: 'string' } },
});
const jsonOnly = values.only === 'json';
const terragruntOnly = values.only === 'terragrunt';
const layoutOnly = values.only === 'layout';
const sizes = jsonOnly || terragruntOnly || layoutOnly ? [] : (values.sizes ?? '100,1000,10000').split(',').map(Number);
const quick = values.quick === true;
const repoRoot = path.resolve(__dirname, '../..');
const SEED = 7;

interface SizeFigures {
  modules: number;
  files: number;
  megabytes: number;
  edges: number;
  cold: Summary;
  floor: Summary;
  ratio: number;
  /** The contracts between states after a cold analysis, and how much they add to it. */
  contracts: Summary;
  contractsShare: number;
  outputUses: number;
  hubReaders: number;
  editToGraph: Summary;
  /** The hub's output deleted → the error on each of its readers, in the engine. */
  hubDeleted: Summary;
  gitlab: Summary;
  github: Summary;
  /** What a change of `reachFiles` files reaches: the first question of a result (its index made), and the next. */
  reachFiles: number;
  reachFirst: Summary;
  reachAgain: Summary;
  reached: number;
  lsp: LspFigures;
}

/** Synthetic monorepos are kept between runs (they take seconds to write at 10,000 modules). */
function monorepo(modules: number): { root: string; repo: SyntheticMonorepo } {
  const root = path.join(os.tmpdir(), `terrace-bench-${modules}-seed${SEED}-v3`);
  const manifest = path.join(root, '.bench.json');
  if (existsSync(manifest)) return { root, repo: JSON.parse(readFileSync(manifest, 'utf8')) as SyntheticMonorepo };
  mkdirSync(root, { recursive: true });
  const repo = generateMonorepo(root, { modules, seed: SEED });
  writeFileSync(manifest, JSON.stringify(repo));
  return { root, repo };
}

interface ColdFigures {
  floorMs: number;
  analysisMs: number;
  contractsMs: number;
  bytes: number;
  modules: number;
  edges: number;
  outputUses: number;
}

let coldScript: string | undefined;

/**
 * The cold analysis bundled as the CLI and the server ship, run by plain Node: under tsx, the read-ahead
 * thread would start through tsx's loader too, late, and the figure would be 0.3–0.5 s higher at 10,000
 * modules than what users wait.
 */
function coldAnalysisScript(): string {
  if (coldScript) return coldScript;
  const outfile = path.join(os.tmpdir(), `terrace-bench-cold-analysis-${process.pid}.js`);
  buildSync({
    entryPoints: [path.join(__dirname, 'coldAnalysis.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'es2022',
    outfile,
    logLevel: 'warning',
  });
  coldScript = outfile;
  return outfile;
}

function coldRun(root: string): ColdFigures {
  const out = execFileSync(process.execPath, [coldAnalysisScript(), root], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

async function measureSize(modules: number): Promise<SizeFigures> {
  const { root, repo } = monorepo(modules);
  process.stderr.write(`\n${modules} modules (${root})\n`);
  const big = modules >= 10_000;
  const coldRuns = quick ? 2 : big ? 3 : 5;
  const floors: number[] = [];
  const colds: number[] = [];
  const contractRuns: number[] = [];
  let shape = { bytes: 0, edges: 0, outputUses: 0 };
  for (let run = 0; run < coldRuns; run++) {
    const result = coldRun(root);
    if (result.modules !== modules) throw new Error(`expected ${modules} modules, found ${result.modules}`);
    floors.push(result.floorMs);
    colds.push(result.analysisMs);
    contractRuns.push(result.contractsMs);
    shape = { bytes: result.bytes, edges: result.edges, outputUses: result.outputUses };
    process.stderr.write(
      `  cold analysis ${result.analysisMs.toFixed(0)} ms, contracts ${result.contractsMs.toFixed(0)} ms, floor ${result.floorMs.toFixed(0)} ms\n`,
    );
  }
  const cold = summarize(colds);
  const floor = summarize(floors);
  const contracts = summarize(contractRuns);

  const analysis = new WorkspaceAnalysis(root, defaultOptions());
  await analysis.load();
  const base = analysis.result();
  const { file, keyLine } = repo.sampleReference;
  const original = readFileSync(file, 'utf8');
  const changed = withUnwrittenKey(original, keyLine);
  const editToGraph = await repeat(quick ? 10 : 40, async (run) => {
    const start = performance.now();
    await analysis.updateFile(file, run % 2 === 0 ? changed : original);
    const result = analysis.result();
    const elapsed = performance.now() - start;
    if (result.unresolved.length !== (run % 2 === 0 ? 1 : 0)) throw new Error('the edit did not reach the graph');
    return elapsed;
  });
  await analysis.updateFile(file, original);
  const hubDeleted = await measureHubDeleted(analysis, repo.hub, quick ? 6 : 20);
  const result = analysis.result();
  const options = defaultPipelineOptions();
  const gitlab = await repeat(quick ? 5 : 15, () => time(() => generatePipeline(result, { ci: 'gitlab', options })));
  const github = await repeat(quick ? 5 : 15, () => time(() => generatePipeline(result, { ci: 'github', options })));
  process.stderr.write(`  edit → graph ${editToGraph.median.toFixed(2)} ms, gitlab ${gitlab.median.toFixed(0)} ms\n`);
  const change = changedFiles(root, repo);
  let reached = 0;
  // The first question of a result makes its index of reads; the next ones use it.
  const reachFirst = await repeat(quick ? 3 : 9, async () => {
    const fresh = new WorkspaceAnalysis(root, defaultOptions());
    await fresh.load();
    const answered = fresh.result();
    return time(() => {
      reached = changeReach(answered, change).reached.size;
    });
  });
  const reachAgain = await repeat(quick ? 5 : 15, () => time(() => changeReach(result, change)));
  process.stderr.write(
    `  reach of ${change.length} changed files: ${reachFirst.median.toFixed(1)} ms first, ${reachAgain.median.toFixed(1)} ms after (${reached} modules)\n`,
  );

  const lsp = await measureLsp(root, repo, { edits: quick ? 6 : big ? 10 : 20, hovers: quick ? 20 : 100 });
  process.stderr.write(
    `  lsp: indexed in ${lsp.indexMs.toFixed(0)} ms, edit → diagnostics ${lsp.editToDiagnostics.median.toFixed(1)} ms, hover ${lsp.hover.median.toFixed(2)} ms, peak RSS ${lsp.peakRssMb.toFixed(0)} MB\n`,
  );
  void base;
  return {
    modules,
    files: repo.ids.length * 5,
    megabytes: shape.bytes / 1e6,
    edges: shape.edges,
    cold,
    floor,
    ratio: cold.median / floor.median,
    contracts,
    contractsShare: contracts.median / cold.median,
    outputUses: shape.outputUses,
    hubReaders: repo.hub.readers,
    editToGraph,
    hubDeleted,
    gitlab,
    github,
    reachFiles: change.length,
    reachFirst,
    reachAgain,
    reached,
    lsp,
  };
}

/**
 * A change of five files for every ten modules, a thousand at most: one service's policy, the shared child
 * module's data file, every other module's `main.tf` and README (which nothing reads), until there are enough.
 */
function changedFiles(root: string, repo: SyntheticMonorepo): string[] {
  const wanted = Math.min(1000, Math.ceil(repo.ids.length / 10) * 5);
  const files = [repo.shared.policies[1]!, repo.shared.labels[1]!];
  for (let n = 0; files.length < wanted && n < repo.ids.length; n += 2) {
    files.push(path.join(root, repo.ids[n]!, 'main.tf'));
    if (files.length < wanted) files.push(path.join(root, repo.ids[n]!, 'README.md'));
  }
  return files;
}

/**
 * The edit that deletes an output many modules read (the hub's), and the edit that restores it: the time
 * from the edit to the contracts' errors on every reader, in the engine (the LSP's figure adds publishing).
 */
async function measureHubDeleted(
  analysis: WorkspaceAnalysis,
  hub: SyntheticMonorepo['hub'],
  runs: number,
): Promise<Summary> {
  const original = readFileSync(hub.outputsFile, 'utf8');
  const deleted = withoutOutput(original, hub.output);
  analysis.contracts();
  const timed = await repeat(runs, async (run) => {
    const start = performance.now();
    await analysis.updateFile(hub.outputsFile, run % 2 === 0 ? deleted : original);
    const missing = analysis.contracts().problems.filter((problem) => problem.output === hub.output).length;
    const elapsed = performance.now() - start;
    if (missing >= hub.readers !== (run % 2 === 0))
      throw new Error(`the deletion did not reach the readers (${missing})`);
    return elapsed;
  });
  await analysis.updateFile(hub.outputsFile, original);
  return timed;
}

function time(run: () => unknown): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

const fmt = (s: Summary, digits = 0) =>
  `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;

async function main(): Promise<void> {
  const started = performance.now();
  const figures: SizeFigures[] = [];
  for (const modules of sizes) figures.push(await measureSize(modules));
  const generated: GeneratedJsonFigures[] = [];
  const cli = path.join(repoRoot, 'dist', 'cli.js');
  for (const [megabytes, runs] of terragruntOnly || layoutOnly
    ? []
    : ([
        [5, quick ? 2 : 5],
        [50, quick ? 1 : 3],
      ] as const)) {
    generated.push(measureGeneratedJson(cli, megabytes, runs));
    const last = generated.at(-1)!;
    process.stderr.write(
      `generated .tf.json ${megabytes} MB: ${last.wallMs.median.toFixed(0)} ms, peak ${last.peakRssMb.median.toFixed(0)} MB\n`,
    );
  }
  const layouts: Record<string, LayoutFigures> = {};
  for (const modules of jsonOnly || terragruntOnly ? [] : [200, 1000, 3000]) {
    layouts[modules] = await measureLayout(monorepo(modules).root, quick);
    process.stderr.write(`layout ${modules}: ${layouts[modules]!.time.median.toFixed(0)} ms\n`);
  }
  const threadStart =
    jsonOnly || terragruntOnly ? undefined : await measureThreadStart(path.join(repoRoot, 'examples', 'monorepo'), 5);
  if (threadStart)
    process.stderr.write(
      `layout thread: ready ${threadStart.ready.median.toFixed(0)} ms, first view cold ${threadStart.cold.median.toFixed(0)} ms, warmed up ${threadStart.warmedUp.median.toFixed(0)} ms\n`,
    );

  const terragrunt: TerragruntFigures[] = [];
  for (const units of jsonOnly || layoutOnly ? [] : [1000, 3000]) {
    terragrunt.push(await measureTerragrunt(units, quick));
    const last = terragrunt.at(-1)!;
    process.stderr.write(
      `terragrunt ${units} units: cold ${last.cold.median.toFixed(0)} ms, unit edit ${last.unitEdit.median.toFixed(1)} ms, root.hcl edit ${last.rootEdit.median.toFixed(0)} ms\n`,
    );
  }
  const realShaped: RealShapedFigures[] = [];
  for (const units of jsonOnly || layoutOnly ? [] : [300]) {
    realShaped.push(await measureRealShapedTerragrunt(units, quick));
    const last = realShaped.at(-1)!;
    process.stderr.write(
      `terragrunt ${units} real-shaped units: cold ${last.cold.median.toFixed(0)} ms, terrace graph ${last.cli.median.toFixed(0)} ms\n`,
    );
  }

  const rows: [string, ...string[]][] = [
    ['figure (median, min–max)', ...figures.map((f) => `${f.modules.toLocaleString('en-US')} modules`)],
    ['files / MB / edges', ...figures.map((f) => `${f.files} / ${f.megabytes.toFixed(1)} / ${f.edges}`)],
    ['cold analysis, ms', ...figures.map((f) => fmt(f.cold))],
    ['read floor, ms', ...figures.map((f) => fmt(f.floor))],
    ['analysis / floor', ...figures.map((f) => `${f.ratio.toFixed(1)}×`)],
    [
      'contracts after the cold analysis, ms (share of it)',
      ...figures.map((f) => `${fmt(f.contracts, 1)} (${(100 * f.contractsShare).toFixed(0)} %)`),
    ],
    ['output reads / hub readers', ...figures.map((f) => `${f.outputUses} / ${f.hubReaders}`)],
    ['edit → graph updated, ms', ...figures.map((f) => fmt(f.editToGraph, 2))],
    ['hub output deleted → readers erred (engine), ms', ...figures.map((f) => fmt(f.hubDeleted, 1))],
    ['hub output deleted → diagnostics (LSP), ms', ...figures.map((f) => fmt(f.lsp.outputDeleted, 1))],
    ['completion after .outputs. (LSP), ms', ...figures.map((f) => fmt(f.lsp.completion, 2))],
    ['completion right after an edit (LSP), ms', ...figures.map((f) => fmt(f.lsp.completionAfterEdit, 1))],
    ['rename of the hub output (LSP), ms', ...figures.map((f) => fmt(f.lsp.rename, 1))],
    ['edit → diagnostics (LSP), ms', ...figures.map((f) => fmt(f.lsp.editToDiagnostics, 1))],
    ['hover (LSP round trip), ms', ...figures.map((f) => fmt(f.lsp.hover, 2))],
    [
      'hover on a use of the hub output, asked at the first diagnostics (LSP), ms',
      ...figures.map((f) => f.lsp.hoverAtFirstDiagnosticsMs.toFixed(0)),
    ],
    [
      'what a change reaches (files changed, modules reached), ms: first question / after',
      ...figures.map(
        (f) => `${f.reachFiles} files, ${f.reached} reached: ${fmt(f.reachFirst, 1)} / ${fmt(f.reachAgain, 1)}`,
      ),
    ],
    ['GitLab pipeline, ms', ...figures.map((f) => fmt(f.gitlab, 1))],
    ['GitHub workflow, ms', ...figures.map((f) => fmt(f.github, 1))],
    ['server indexing (LSP), ms', ...figures.map((f) => f.lsp.indexMs.toFixed(0))],
    ['server peak RSS after indexing, MB', ...figures.map((f) => f.lsp.peakRssMb.toFixed(0))],
  ];
  const layoutRows = Object.entries(layouts).map(
    ([n, l]) =>
      `| ${Number(n).toLocaleString('en-US')} modules | ${fmt(l.time)} | ${l.crossings} | ${l.meanMove.toFixed(0)} px, ${(100 * l.stayed).toFixed(0)} %, ${l.crossingsAfter} crossings | ${fmt(l.boxed.time)}, ${l.boxed.crossings} crossings |`,
  );
  const table = [
    `| ${rows[0].join(' | ')} |`,
    `|${rows[0].map(() => '---').join('|')}|`,
    ...rows.slice(1).map((row) => `| ${row.join(' | ')} |`),
    '',
    '| generated .tf.json, `terrace graph` (whole process) | wall time, ms | peak RSS, MB |',
    '|---|---|---|',
    ...generated.map((g) => `| ${g.megabytes} MB | ${fmt(g.wallMs)} | ${fmt(g.peakRssMb)} |`),
    '',
    '| Terragrunt units (engine, in process) | edges | cold analysis, ms | a unit’s terragrunt.hcl edited → graph, ms | root.hcl edited → graph, ms |',
    '|---|---|---|---|---|',
    ...terragrunt.map(
      (t) =>
        `| ${t.units.toLocaleString('en-US')} units | ${t.edges} | ${fmt(t.cold)} | ${fmt(t.unitEdit, 1)} | ${fmt(t.rootEdit)} |`,
    ),
    '',
    '| Terragrunt live repository of real shape (`test/realShapes`) | edges | cold analysis in process, ms | `terrace graph --format json`, whole process, ms |',
    '|---|---|---|---|',
    ...realShaped.map(
      (t) => `| ${t.units.toLocaleString('en-US')} units | ${t.edges} | ${fmt(t.cold)} | ${fmt(t.cli)} |`,
    ),
    '',
    '| graph layout (elkjs, the panel’s options, in Node) | ms, median (min–max) | edge crossings | one edge removed, laid out again: mean move, modules within a node’s height, crossings | in group boxes by first folder: ms, crossings |',
    '|---|---|---|---|---|',
    ...layoutRows,
    ...(threadStart
      ? [
          '',
          '| the layout thread at a window’s start (`dist/layoutThread.js`, no code cache), the example’s first view | ready, ms | its layout, elkjs cold, ms | the same after a warm-up, ms |',
          '|---|---|---|---|',
          `| ${threadStart.nodes} nodes; the warm-up asked ${threadStart.leadMs} ms before | ${fmt(threadStart.ready)} | ${fmt(threadStart.cold)} | ${fmt(threadStart.warmedUp)} |`,
        ]
      : []),
  ].join('\n');
  console.log(`\n${table}\n`);
  const machine = {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    loadAverage: os.loadavg().map((n) => Number(n.toFixed(2))),
  };
  const out = values.out ?? path.join(repoRoot, 'bench-results.json');
  writeFileSync(
    out,
    `${JSON.stringify({ date: new Date().toISOString(), machine, quick, sizes: figures, generated, terragrunt, realShaped, layouts, threadStart, table }, null, 2)}\n`,
  );
  console.log(
    `machine: ${machine.cpus} cores, ${machine.memoryGiB} GiB, Node ${machine.node}, load ${machine.loadAverage.join(' ')}`,
  );
  console.log(`wrote ${path.relative(process.cwd(), out)} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

void main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    if (coldScript) rmSync(coldScript, { force: true });
  });
