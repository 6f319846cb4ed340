import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadWorkspace } from '../../server/src/engine/analysis';
import { loadAnalysisOptions } from '../../server/src/engine/config';
import { upstreamReads } from '../../server/src/engine/contracts';
import {
  type GatedModule,
  type ModuleRunResult,
  type OutputsRead,
  outputGate,
  type PlannedOutputs,
  runScheduled,
  summarizePlanJson,
} from '../../server/src/engine/run';

/**
 * Terragrunt units decide from the outputs they read as roots do: what each unit reads of each dependency
 * (`dependency.<name>.outputs.<output>`, a `dependencies` path that only orders) from the terragrunt-units
 * fixture, and the upstream's output changes from plan JSON that the real terraform produced of the vpc
 * unit's code (no terragrunt binary here: its module run with a local backend, as terragrunt would run it).
 */
const repo = path.resolve(__dirname, '../..');
const FIXTURE = path.join(repo, 'test/fixtures/terragrunt-units');
const VPC = 'live/prod/network/vpc';
const EKS = 'live/prod/platform/eks';
const WORKER = 'live/prod/apps/worker';
const API = 'live/prod/apps/api';
const DNS = 'shared/dns';
const env = { ...process.env, TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1' };

let reads: Map<string, Map<string, OutputsRead>>;
let dependencies: Map<string, string[]>;
let vpcCode: string;

/** The vpc unit's code planned with `args` after it was applied with the fixture's cidr: its output changes. */
function vpcPlan(...args: string[]): PlannedOutputs {
  const plan = path.join(vpcCode, 'plan.tfplan');
  execFileSync('terraform', ['plan', '-input=false', `-out=${plan}`, ...args], { cwd: vpcCode, env, stdio: 'ignore' });
  const json = execFileSync('terraform', ['show', '-json', plan], { cwd: vpcCode, env, encoding: 'utf8' });
  return { outputs: summarizePlanJson(json).outputs };
}

/** A plan of the units after vpc: each dependent decided by the output gate, the vpc's plan being `planned`. */
async function decide(planned: PlannedOutputs): Promise<Map<string, ModuleRunResult<PlannedOutputs>>> {
  const gated = new Map<string, GatedModule>();
  for (const id of [EKS, WORKER, API, DNS]) gated.set(id, { changed: false, reads: reads.get(id) ?? new Map() });
  const result = await runScheduled<PlannedOutputs>({
    graph: { dependencies: (id) => dependencies.get(id) ?? [] },
    modules: [VPC, EKS, WORKER, API, DNS],
    executor: async (id) => ({ ok: true, value: id === VPC ? planned : { outputs: {} } }),
    gate: outputGate(gated),
  });
  return new Map(result.results.map((r) => [r.id, r]));
}

describe('Terragrunt units decide from the outputs they read', () => {
  before(async () => {
    const analysis = await loadWorkspace(FIXTURE, await loadAnalysisOptions(FIXTURE));
    const result = analysis.result();
    reads = upstreamReads(analysis.contracts(), result.edges) as Map<string, Map<string, OutputsRead>>;
    dependencies = new Map();
    for (const edge of result.edges) dependencies.set(edge.from, [...(dependencies.get(edge.from) ?? []), edge.to]);
    vpcCode = mkdtempSync(path.join(os.tmpdir(), 'terrace-unit-reach-'));
    cpSync(path.join(FIXTURE, 'modules/vpc'), vpcCode, { recursive: true });
    const main = path.join(vpcCode, 'main.tf');
    writeFileSync(main, readFileSync(main, 'utf8').replace('backend "s3" {}', 'backend "local" {}'));
    execFileSync('terraform', ['init', '-input=false'], { cwd: vpcCode, env, stdio: 'ignore' });
    execFileSync('terraform', ['apply', '-auto-approve', '-input=false', '-var', 'cidr=10.0.0.0/16'], {
      cwd: vpcCode,
      env,
      stdio: 'ignore',
    });
  });
  after(() => rmSync(vpcCode, { recursive: true, force: true }));

  test('what each unit reads of its dependencies: an output by name, nothing through a dependencies path', () => {
    const named = (reader: string, writer: string) => {
      const read = reads.get(reader)?.get(writer);
      return typeof read === 'string' ? read : [...(read ?? [])].sort();
    };
    assert.deepEqual(named(EKS, VPC), ['vpc_id']);
    assert.deepEqual(named(WORKER, EKS), ['cluster_name']);
    assert.deepEqual(named(API, VPC), [], 'a dependencies path only orders');
  });

  test('a cidr change alters no output in the real plan: eks unaffected, and what depends on it', async () => {
    const planned = vpcPlan('-var', 'cidr=10.1.0.0/16');
    assert.deepEqual(planned.outputs, { vpc_id: 'unchanged' });
    const results = await decide(planned);
    assert.equal(results.get(EKS)!.status, 'unaffected');
    assert.equal(results.get(EKS)!.message, `reads vpc_id of ${VPC}: unchanged in its plan`);
    assert.equal(results.get(WORKER)!.status, 'unaffected');
    assert.equal(results.get(WORKER)!.message, `${EKS} is unaffected`);
  });

  test('the vpc replaced: vpc_id known only after apply, so eks and worker wait for it to apply', async () => {
    const planned = vpcPlan('-var', 'cidr=10.0.0.0/16', '-replace=terraform_data.vpc');
    assert.deepEqual(planned.outputs, { vpc_id: 'unknown' });
    const results = await decide(planned);
    assert.equal(results.get(EKS)!.status, 'stale');
    assert.equal(results.get(EKS)!.message, `after ${VPC} applies: reads vpc_id (unknown)`);
    assert.equal(results.get(WORKER)!.status, 'stale');
    assert.equal(results.get(WORKER)!.message, `after ${VPC} applies: reads from ${EKS}, which waits for it`);
  });
});
