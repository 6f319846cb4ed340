// Parsing the relevant files of a synthetic 1,000-module monorepo: `parseHcl` (hand-written) against
// `parseHclDocument` (tree-sitter parse + conversion), both with the analysis's `keepBody` filter and
// without, several runs each; prints the medians and the load average. The results are compared too.
// Run: node --import tsx test/bench/hclParse.bench.ts [modules] [runs]
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import { keepBody, mayHaveFacts } from '../../server/src/engine/fileFacts';
import type { HclDocument } from '../../server/src/engine/hclBody';
import { type ParseOptions, parseHclDocument } from '../../server/src/engine/hclDocument';
import { hclParser } from '../../server/src/engine/hclParser';
import { parseHcl } from '../../server/src/engine/hclSyntaxParser';
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

/** Median, min and max of the time to parse every text once, after one warm-up pass. */
function time(texts: string[], parse: (text: string) => HclDocument): { median: number; min: number; max: number } {
  for (const text of texts) parse(text);
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    for (const text of texts) parse(text);
    times.push(performance.now() - start);
  }
  return { median: median(times), min: Math.min(...times), max: Math.max(...times) };
}

const format = (t: { median: number; min: number; max: number }): string =>
  `median ${t.median.toFixed(1)} ms (min ${t.min.toFixed(1)}, max ${t.max.toFixed(1)})`;

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
    console.log(
      `load average before: ${os
        .loadavg()
        .map((load) => load.toFixed(2))
        .join(' ')}`,
    );
    for (const [label, options] of [
      ['keepBody filter (as the analysis)', { keepBody }],
      ['every body', {}],
    ] as [string, ParseOptions][]) {
      const different = texts.filter(
        (text) => !isDeepStrictEqual(parseHcl(text, options), parseHclDocument(parser, text, options)),
      );
      const treeSitter = time(texts, (text) => parseHclDocument(parser, text, options));
      const ours = time(texts, (text) => parseHcl(text, options));
      console.log(`${label}: ${different.length} files with a different document`);
      console.log(`  tree-sitter parse + conversion: ${format(treeSitter)}`);
      console.log(`  parseHcl:                       ${format(ours)}`);
      console.log(`  speed-up (medians): ${(treeSitter.median / ours.median).toFixed(1)}x`);
    }
    const parseOnly = time(texts, (text) => {
      parser.parse(text)?.delete();
      return { body: { attributes: [], blocks: [] }, errors: [] };
    });
    console.log(`tree-sitter parse alone: ${format(parseOnly)}`);
    console.log(
      `load average after: ${os
        .loadavg()
        .map((load) => load.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
