// One cold analysis in a fresh process: first the floor — walking the tree and reading every file
// into memory — then the analysis (discovery, parse, evaluate, match, levels). Prints one JSON line.
// Run: node --import tsx test/bench/coldAnalysis.ts <dir>
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { analyzeDirectory } from '../../server/src/engine/analysis';

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
  const result = await analyzeDirectory(root);
  const analysisMs = performance.now() - start;
  process.stdout.write(
    `${JSON.stringify({ floorMs, analysisMs, bytes, modules: result.modules.length, edges: result.edges.length, cycles: result.cycles.length })}\n`,
  );
}

void main();
