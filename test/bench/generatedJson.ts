// Generated `.tf.json` (what CDKTF and other generators write): one root whose main.tf.json holds
// tens of thousands of locals of `"${format(...)}"` templates and as many resources, read by the
// CLI in a child process — its wall time and its peak memory (max RSS).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Summary, summarize } from './samples';

export interface GeneratedJsonFigures {
  megabytes: number;
  wallMs: Summary;
  peakRssMb: Summary;
}

/** Reports the process's peak memory as it exits, for the parent to read. */
const PEAK_RSS_HOOK =
  "process.on('exit', () => process.stderr.write(`peak-rss-kb ${process.resourceUsage().maxRSS}\\n`));";

/** A folder holding one root with a generated main.tf.json of about `megabytes`; kept between runs. */
function generatedRoot(megabytes: number): string {
  const root = path.join(os.tmpdir(), `terrace-bench-json-${megabytes}mb`);
  const file = path.join(root, 'generated', 'main.tf.json');
  if (existsSync(file)) return root;
  // About 200 bytes per local and resource pair, pretty-printed as generators do.
  const pairs = Math.round((megabytes * 1e6) / 205);
  const locals: Record<string, string> = {};
  for (let i = 0; i < 10; i++) locals[`suffix_${i}`] = `s${i}`;
  const resources: Record<string, unknown> = {};
  for (let i = 0; i < pairs; i++) {
    locals[`name_${i}`] = `\${format("%s-%03d-%s", var.prefix, ${i}, local.suffix_${i % 10})}`;
    resources[`r${i}`] = { input: { name: `\${local.name_${i}}`, tags: { index: String(i) } } };
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(
    file,
    JSON.stringify(
      {
        terraform: { backend: { local: {} } },
        variable: { prefix: { default: 'acme' } },
        locals,
        resource: { terraform_data: resources },
      },
      null,
      1,
    ),
  );
  return root;
}

/** `terrace graph` on a generated file of about `megabytes`, `runs` times. */
export function measureGeneratedJson(cli: string, megabytes: number, runs: number): GeneratedJsonFigures {
  const root = generatedRoot(megabytes);
  const walls: number[] = [];
  const peaks: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    // After `--`, argv is [node, cli, graph, root], as when the CLI is run by its path.
    const code = `${PEAK_RSS_HOOK} require(${JSON.stringify(cli)})`;
    const child = spawnSync(process.execPath, ['--eval', code, '--', cli, 'graph', root], {
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    });
    walls.push(performance.now() - start);
    if (child.status !== 0 || !child.stdout.startsWith('1 modules'))
      throw new Error(`terrace graph on ${root} failed: ${child.stderr}`);
    peaks.push(Number(/peak-rss-kb (\d+)/.exec(child.stderr)?.[1] ?? Number.NaN) / 1024);
  }
  return { megabytes, wallMs: summarize(walls), peakRssMb: summarize(peaks) };
}
