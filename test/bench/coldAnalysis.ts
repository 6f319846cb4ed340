// One cold analysis in a fresh process: first the floor — walking the tree and reading every file
// into memory — then the analysis (discovery, parse, evaluate, match, levels), then the contracts
// between states (every read of an output resolved and checked). Prints one JSON line.
// Run: bundled by `npm run bench` (as the CLI ships), or node --import tsx test/bench/coldAnalysis.ts <dir>
// (slower: tsx loads in the read-ahead thread too).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { WorkspaceAnalysis } from '../../server/src/engine/analysis';
import { loadAnalysisOptions } from '../../server/src/engine/config';

function readTree(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) bytes += readTree(full);
    else bytes += readFileSync(full, 'utf8').length;
  }
  return bytes;
}

async function main(): Promise<void> {
  const root = process.argv[2]!;
  let start = performance.now();
  const bytes = readTree(root);
  const floorMs = performance.now() - start;
  start = performance.now();
  const analysis = new WorkspaceAnalysis(root, await loadAnalysisOptions(root));
  await analysis.load();
  const result = analysis.result();
  const analysisMs = performance.now() - start;
  // The contracts between states, as the editor's first diagnostics and `terrace validate` compute them.
  start = performance.now();
  const contracts = analysis.contracts();
  const contractsMs = performance.now() - start;
  const figures = {
    floorMs,
    analysisMs,
    contractsMs,
    bytes,
    modules: result.modules.length,
    edges: result.edges.length,
    cycles: result.cycles.length,
    outputUses: contracts.uses.length,
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

void main();
