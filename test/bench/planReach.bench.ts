// What a changed-only plan costs when each dependent is decided from the outputs it reads, with the real
// terraform: a real repository's graph (pagopa's 281 Terragrunt units, from the corpus) written as roots with
// local states, each using its upstreams' `id` output; deployed by `terrace apply`, then a change to the unit
// with the most dependents that alters no output (its tags), planned with and without `--all-dependents`.
// Then the decision's own cost, in process. Takes minutes (hundreds of terraform runs).
// Run: node esbuild.mjs && node --import tsx test/bench/planReach.bench.ts [parallelism]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadWorkspace } from '../../server/src/engine/analysis';
import { loadAnalysisOptions } from '../../server/src/engine/config';
import { upstreamReads } from '../../server/src/engine/contracts';
import { type GatedModule, type ModuleRunResult, outputGate, type PlannedOutputs } from '../../server/src/engine/run';
import { writeCorpusEdges } from '../realShapes/corpusEdges';

const REPOSITORY = 'pagopa-archive+io-infrastructure-live-new';
const parallelism = process.argv[2] ?? '4';
const cli = path.resolve(__dirname, '../../dist/cli.js');
const env = { ...process.env, TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1', NO_COLOR: '1' };

function terrace(top: string, ...args: string[]): { ms: number; stdout: string } {
  const start = performance.now();
  const result = spawnSync(process.execPath, [cli, ...args.slice(0, 1), top, ...args.slice(1)], {
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const ms = performance.now() - start;
  if (result.status !== 0) throw new Error(`terrace ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { ms, stdout: result.stdout };
}

/** The modules terraform ran in during the last run: those with a log in its run folder. */
function ran(top: string): number {
  const runs = path.join(top, '.terrace', 'runs');
  const last = path.join(runs, readdirSync(runs).sort().at(-1)!);
  let count = 0;
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (!statSync(full).isDirectory()) continue;
      if (existsSync(path.join(full, 'terraform.log'))) count++;
      else walk(full);
    }
  };
  walk(last);
  return count;
}

/** Which module has the most dependents, directly or not, and how many. */
function mostDependents(edges: { from: string; to: string }[]): { id: string; dependents: number } {
  const readers = new Map<string, string[]>();
  for (const { from, to } of edges) readers.set(to, [...(readers.get(to) ?? []), from]);
  let best = { id: '', dependents: -1 };
  for (const id of readers.keys()) {
    const seen = new Set<string>();
    const stack = [id];
    while (stack.length > 0)
      for (const reader of readers.get(stack.pop()!) ?? [])
        if (!seen.has(reader) && seen.add(reader)) stack.push(reader);
    if (seen.size > best.dependents) best = { id, dependents: seen.size };
  }
  return best;
}

/** The gate's own cost: every dependent decided once its upstreams are done, the hub's plan changing no output. */
async function decisionCost(
  top: string,
  hub: string,
): Promise<{ perDependent: number; readsMs: number; count: number }> {
  const analysis = await loadWorkspace(top, await loadAnalysisOptions(top));
  const result = analysis.result();
  const start = performance.now();
  const reads = upstreamReads(analysis.contracts(), result.edges);
  const readsMs = performance.now() - start;
  const gated = new Map<string, GatedModule>();
  for (const module of result.modules)
    gated.set(module.id, { changed: module.id === hub, reads: reads.get(module.id) ?? new Map() });
  const upstreamOf = new Map<string, string[]>();
  for (const edge of result.edges) upstreamOf.set(edge.from, [...(upstreamOf.get(edge.from) ?? []), edge.to]);
  const dependents = [...upstreamOf.keys()];
  const rounds = 200;
  let decisions = 0;
  const begin = performance.now();
  for (let round = 0; round < rounds; round++) {
    const gate = outputGate<PlannedOutputs>(gated);
    for (const id of dependents) {
      const upstream: ModuleRunResult<PlannedOutputs>[] = (upstreamOf.get(id) ?? []).map((writer) =>
        writer === hub
          ? { id: writer, status: 'succeeded', attempts: [], value: { outputs: { id: 'unchanged' } } }
          : { id: writer, status: 'unaffected', attempts: [] },
      );
      gate(id, upstream);
      decisions++;
    }
  }
  return { perDependent: ((performance.now() - begin) * 1000) / decisions, readsMs, count: dependents.length };
}

async function main(): Promise<void> {
  const top = mkdtempSync(path.join(os.tmpdir(), 'terrace-bench-plan-reach-'));
  try {
    const graph = writeCorpusEdges(top, REPOSITORY, { readOutputs: true });
    const hub = mostDependents(graph.edges);
    console.log(
      `${REPOSITORY}: ${graph.modules.length} roots, ${graph.edges.length} edges; ${hub.id} has ${hub.dependents} dependents`,
    );
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', top, ...args], {
        env: {
          ...env,
          GIT_AUTHOR_NAME: 'b',
          GIT_AUTHOR_EMAIL: 'b@b',
          GIT_COMMITTER_NAME: 'b',
          GIT_COMMITTER_EMAIL: 'b@b',
        },
      });
    git('init', '-q', '-b', 'main');
    writeFileSync(path.join(top, '.gitignore'), '.terrace/\n.terraform/\n');
    const deploy = terrace(top, 'apply', '--auto-approve', '--parallelism', parallelism);
    console.log(`  deployed (terrace apply, every root): ${(deploy.ms / 1000).toFixed(0)} s`);
    git('add', '-A');
    git('commit', '-q', '-m', 'deployed');
    const file = path.join(top, hub.id, 'main.tf');
    writeFileSync(file, readFileSync(file, 'utf8').replace('team = "platform"', 'team = "network"'));
    const gated = terrace(top, 'plan', '--changed-only', '--base-ref', 'main', '--parallelism', parallelism);
    const gatedRan = ran(top);
    const all = terrace(
      top,
      'plan',
      '--changed-only',
      '--base-ref',
      'main',
      '--all-dependents',
      '--parallelism',
      parallelism,
    );
    const allRan = ran(top);
    console.log(`  a change to ${hub.id}'s tags (no output changes), parallelism ${parallelism}:`);
    console.log(
      `    every dependent (--all-dependents, as before): ${allRan} planned, ${(all.ms / 1000).toFixed(1)} s`,
    );
    console.log(`    from the outputs each reads: ${gatedRan} planned, ${(gated.ms / 1000).toFixed(1)} s`);
    // The same for terrace apply: every dependent planned (and none with changes), or only the hub.
    const allApply = terrace(
      top,
      'apply',
      '--changed-only',
      '--base-ref',
      'main',
      '--all-dependents',
      '--auto-approve',
      '--parallelism',
      parallelism,
    );
    const allApplied = ran(top);
    git('add', '-A');
    git('commit', '-q', '-m', 'tags');
    writeFileSync(file, readFileSync(file, 'utf8').replace('team = "network"', 'team = "data"'));
    const gatedApply = terrace(
      top,
      'apply',
      '--changed-only',
      '--base-ref',
      'main',
      '--auto-approve',
      '--parallelism',
      parallelism,
    );
    const gatedApplied = ran(top);
    console.log(`    terrace apply, every dependent: ${allApplied} run, ${(allApply.ms / 1000).toFixed(1)} s`);
    console.log(
      `    terrace apply, from the outputs each reads: ${gatedApplied} run, ${(gatedApply.ms / 1000).toFixed(1)} s`,
    );
    const cost = await decisionCost(top, hub.id);
    console.log(
      `  the decision: ${cost.perDependent.toFixed(2)} µs per dependent (${cost.count} dependents, in process); what each reads: ${cost.readsMs.toFixed(1)} ms once`,
    );
  } finally {
    rmSync(top, { recursive: true, force: true });
  }
}

void main();
