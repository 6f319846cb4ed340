// The contracts between states on hostile sizes: "did you mean" for many misspelt reads of a writer with
// many outputs, and for long names; completion after `.outputs.` at many outputs. Each workspace is written
// to a temporary folder and loaded once (not timed); the contracts are computed afresh in each run.
// Run: node --import tsx test/bench/contractsBadInput.bench.ts [runs] [rows: typos,long,completion]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { readSourceFile, WorkspaceAnalysis } from '../../server/src/engine/analysis';
import { defaultOptions } from '../../server/src/engine/config';
import { outputCompletions, outputIndex } from '../../server/src/engine/features';
import { type Summary, summarize } from './samples';

const RUNS = Number(process.argv[2] ?? 5);
const ROWS = new Set((process.argv[3] ?? 'typos,long,completion').split(','));

/** A writer `network/vpc` declaring `names`, and a root `app/api` reading `reads` of its outputs. */
function writeWorkspace(root: string, names: readonly string[], reads: readonly string[]): void {
  const backend = (key: string) =>
    `terraform {\n  backend "local" {\n    path = "../../state/${key}.tfstate"\n  }\n}\n`;
  mkdirSync(path.join(root, 'network/vpc'), { recursive: true });
  mkdirSync(path.join(root, 'app/api'), { recursive: true });
  writeFileSync(path.join(root, 'network/vpc/main.tf'), backend('vpc'));
  writeFileSync(
    path.join(root, 'network/vpc/outputs.tf'),
    names.map((name, i) => `output "${name}" {\n  value = "value-${i}"\n}\n`).join('\n'),
  );
  const state =
    'data "terraform_remote_state" "vpc" {\n  backend = "local"\n  config = {\n    path = "../../state/vpc.tfstate"\n  }\n}\n';
  writeFileSync(path.join(root, 'app/api/main.tf'), `${backend('api')}\n${state}`);
  const lines = reads.map((name, i) => `    r${i} = data.terraform_remote_state.vpc.outputs.${name}`);
  writeFileSync(
    path.join(root, 'app/api/reads.tf'),
    `resource "terraform_data" "reads" {\n  input = {\n${lines.join('\n')}\n  }\n}\n`,
  );
}

async function loaded(root: string): Promise<WorkspaceAnalysis> {
  const analysis = new WorkspaceAnalysis(root, defaultOptions());
  await analysis.load();
  return analysis;
}

/** The contracts of a workspace loaded afresh for each run (the load not timed), and their problems. */
async function contractsTimes(root: string): Promise<{ summary: Summary; problems: number; sample: string }> {
  const times: number[] = [];
  let problems = 0;
  let sample = '';
  for (let run = 0; run < RUNS; run++) {
    const analysis = await loaded(root);
    analysis.result();
    const start = performance.now();
    const contracts = analysis.contracts();
    times.push(performance.now() - start);
    problems = contracts.problems.length;
    sample = contracts.problems[0]?.message.slice(0, 120) ?? '';
  }
  return { summary: summarize(times), problems, sample };
}

function line(label: string, summary: Summary, extra = ''): string {
  const f = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
  return `  ${label}: median ${f(summary.median)} ms (min ${f(summary.min)}, max ${f(summary.max)}, ${summary.runs} runs)${extra}`;
}

async function didYouMean(
  outputs: number,
  label: string,
  nameOf: (i: number) => string,
  typo: (name: string) => string,
) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-bench-contracts-'));
  try {
    const names = Array.from({ length: outputs }, (_, i) => nameOf(i));
    writeWorkspace(root, names, names.map(typo));
    const { summary, problems, sample } = await contractsTimes(root);
    console.log(line(label, summary, `; ${problems} problems, the first: ${sample}`));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function completion(outputs: number): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'terrace-bench-contracts-'));
  try {
    const names = Array.from({ length: outputs }, (_, i) => `output_${String(i).padStart(5, '0')}`);
    writeWorkspace(root, names, [names[0]!]);
    const analysis = await loaded(root);
    const index = outputIndex(analysis.result(), analysis.contracts());
    const file = path.join(root, 'app/api/reads.tf');
    // As the server reads a file that is not open: from the disk, at each request.
    const textOf = (target: string) => readSourceFile(target);
    const prefix = '    r0 = data.terraform_remote_state.vpc.outputs.';
    const times: number[] = [];
    let items = 0;
    for (let run = 0; run < RUNS; run++) {
      const start = performance.now();
      items = outputCompletions(index, file, prefix, textOf).length;
      times.push(performance.now() - start);
    }
    console.log(
      line(`completion after .outputs., ${outputs.toLocaleString('en')} outputs`, summarize(times), `; ${items} items`),
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(`contracts on bad input (${RUNS} runs each)`);
  // One edit each: the last character changed, as `private_subnet_idz` for `private_subnet_ids`.
  const lastChanged = (name: string) => `${name.slice(0, -1)}${name.endsWith('z') ? 'y' : 'z'}`;
  if (ROWS.has('typos'))
    await didYouMean(
      10_000,
      'did you mean, 10,000 outputs x 10,000 misspelt reads',
      (i) => `output_${String(i).padStart(5, '0')}`,
      lastChanged,
    );
  if (ROWS.has('long'))
    await didYouMean(
      100,
      'did you mean, 100 outputs x 100 misspelt reads of 2,000 characters',
      (i) => `o${String(i).padStart(3, '0')}_${'x'.repeat(1995)}`,
      lastChanged,
    );
  if (ROWS.has('completion')) await completion(10_000);
}

void main();
