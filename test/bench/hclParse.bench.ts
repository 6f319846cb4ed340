// Parsing the relevant files of a synthetic 1,000-module monorepo: `parseHcl` (hand-written) against
// `parseHclDocument` (tree-sitter parse + conversion), both with the analysis's `keepBody` filter and
// without, several runs each; prints the medians of wall and CPU time, and the load average. The
// documents are compared too. Run: node --import tsx test/bench/hclParse.bench.ts [modules] [runs]
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import { type ParseOptions, parseHcl } from '../../server/src/engine/hcl';
import { keepBody, mayHaveFacts } from '../../server/src/engine/workspace';
import { parseHclDocument } from '../treeSitter/hclDocument';
import { hclParser } from '../treeSitter/hclParser';
import { generateMonorepo } from './syntheticMonorepo';

const modules = Number(process.argv[2] ?? 1000);
const RUNS = Number(process.argv[3] ?? 9);

function tfFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tfFiles(full);
    return entry.name.endsWith('.tf') ? [full] : [];
  });
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Timing {
  /** Wall-clock milliseconds per run. */
  wall: number[];
  /** This process's CPU milliseconds per run: steadier than wall time when other work shares the machine. */
  cpu: number[];
}

/** The time to parse every text once, per run, after one warm-up pass. */
function time(texts: string[], parse: (text: string) => unknown): Timing {
  for (const text of texts) parse(text);
  const timing: Timing = { wall: [], cpu: [] };
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    const cpu = process.cpuUsage();
    for (const text of texts) parse(text);
    const used = process.cpuUsage(cpu);
    timing.wall.push(performance.now() - start);
    timing.cpu.push((used.user + used.system) / 1000);
  }
  return timing;
}

function format(values: number[]): string {
  const [min, max] = [Math.min(...values), Math.max(...values)];
  return `median ${median(values).toFixed(1)} ms (min ${min.toFixed(1)}, max ${max.toFixed(1)})`;
}

function report(treeSitter: Timing, ours: Timing): void {
  console.log(`  tree-sitter parse + conversion: wall ${format(treeSitter.wall)}; cpu ${format(treeSitter.cpu)}`);
  console.log(`  parseHcl:                       wall ${format(ours.wall)}; cpu ${format(ours.cpu)}`);
  const ratio = (key: keyof Timing): string => (median(treeSitter[key]) / median(ours[key])).toFixed(1);
  console.log(`  speed-up (medians): wall ${ratio('wall')}x, cpu ${ratio('cpu')}x`);
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');
}

async function main(): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-bench-hcl-'));
  try {
    generateMonorepo(root, { modules });
    const texts = tfFiles(root)
      .map((file) => readFileSync(file, 'utf8'))
      .filter(mayHaveFacts);
    const size = texts.reduce((sum, text) => sum + text.length, 0);
    const parser = await hclParser();
    console.log(`${modules} modules: ${texts.length} relevant files, ${(size / 1e6).toFixed(2)} MB, ${RUNS} runs each`);
    console.log(`load average before: ${loadAverage()} (${os.cpus().length} CPUs)`);
    const cases: [string, ParseOptions][] = [
      ['keepBody filter (as the analysis)', { keepBody }],
      ['every body', {}],
    ];
    for (const [label, options] of cases) {
      const different = texts.filter(
        (text) => !isDeepStrictEqual(parseHcl(text, options), parseHclDocument(parser, text, options)),
      );
      console.log(`${label}: ${different.length} files with a different document`);
      report(
        time(texts, (text) => parseHclDocument(parser, text, options)),
        time(texts, (text) => parseHcl(text, options)),
      );
    }
    const parseOnly = time(texts, (text) => parser.parse(text)?.delete());
    console.log(`tree-sitter parse alone: wall ${format(parseOnly.wall)}; cpu ${format(parseOnly.cpu)}`);
    console.log(`load average after: ${loadAverage()}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
