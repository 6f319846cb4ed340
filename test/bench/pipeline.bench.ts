// `terrace generate` on a synthetic 1,000-module monorepo: the analysis once, then the generation
// (plan, emit YAML) alone, several times; prints the medians. Run: node --import tsx test/bench/pipeline.bench.ts [modules]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { changeReach, WorkspaceAnalysis } from '../../server/src/engine/analysis';
import { defaultOptions, defaultPipelineOptions } from '../../server/src/engine/config';
import { generatePipeline, pipelineGate } from '../../server/src/engine/pipeline';
import { TERRACE_VERSION } from '../../server/src/terraceVersion';
import { generateMonorepo } from './syntheticMonorepo';

const modules = Number(process.argv[2] ?? 1000);
const RUNS = 25;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
/** Wall and CPU time per run (CPU time is what the machine's other load does not inflate). */
const time = (run: () => unknown) => {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const startCpu = process.cpuUsage();
    run();
    const used = process.cpuUsage(startCpu);
    wall.push(performance.now() - start);
    cpu.push((used.user + used.system) / 1000);
  }
  return { median: median(wall), min: Math.min(...wall), max: Math.max(...wall), cpu: median(cpu) };
};

async function main(): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-bench-pipeline-'));
  try {
    const repo = generateMonorepo(root, { modules });
    const start = performance.now();
    const analysis = new WorkspaceAnalysis(root, defaultOptions());
    await analysis.load();
    const result = analysis.result();
    const analysisMs = performance.now() - start;
    const options = defaultPipelineOptions();
    const gitlab = generatePipeline(result, { ci: 'gitlab', options });
    const github = generatePipeline(result, { ci: 'github', options });
    console.log(
      `${modules} modules, ${repo.edges} edges, ${result.levels.length} levels; analysis ${analysisMs.toFixed(0)} ms (once)`,
    );
    console.log(`  gitlab: ${gitlab.jobs.length} jobs, ${(gitlab.text.length / 1024).toFixed(0)} KiB`);
    console.log(`  github: ${github.jobs.length} jobs, ${(github.text.length / 1024).toFixed(0)} KiB`);
    const report = (label: string, t: ReturnType<typeof time>) =>
      console.log(
        `  ${label}: median ${t.median.toFixed(1)} ms (min ${t.min.toFixed(1)}, max ${t.max.toFixed(1)}, ${RUNS} runs; median CPU ${t.cpu.toFixed(1)} ms)`,
      );
    report(
      'generate gitlab (beyond the analysis)',
      time(() => generatePipeline(result, { ci: 'gitlab', options })),
    );
    report(
      'generate github (beyond the analysis)',
      time(() => generatePipeline(result, { ci: 'github', options })),
    );
    // Changed-only without git: one changed module file near the bottom of the graph.
    const files = [`${repo.ids[0]}/main.tf`];
    report(
      'changed-only selection + gitlab',
      time(() => {
        const affected = changeReach(result, files);
        generatePipeline(result, { ci: 'gitlab', options, changed: { baseRef: 'main', modules: affected.affected } });
      }),
    );
    // Gated (each dependent decides from the outputs it reads): the reads, the specs, the jobs around terrace gate.
    for (const ci of ['gitlab', 'github'] as const) {
      const gated = () => {
        const affected = changeReach(result, files);
        const gate = pipelineGate(TERRACE_VERSION, affected.reached.keys(), analysis.contracts(), result.edges);
        return generatePipeline(result, {
          ci,
          options,
          changed: { baseRef: 'main', modules: affected.affected, gate },
        });
      };
      const once = gated();
      report(
        `changed-only gated + ${ci} (${once.modules} modules, ${(once.text.length / 1024).toFixed(0)} KiB)`,
        time(gated),
      );
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

void main();
