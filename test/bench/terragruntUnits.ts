// Terragrunt units: a live tree of units that include one root.hcl (remote_state keyed by
// path_relative_to_include), run local modules and depend on earlier units through dependency
// blocks. Cold analysis, an edit of one unit's terragrunt.hcl, and an edit of root.hcl (every
// unit includes it), each to an updated graph, in the engine.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { WorkspaceAnalysis } from '../../server/src/engine/analysis';
import { defaultOptions } from '../../server/src/engine/config';
import { writeTerragruntLive } from '../realShapes/terragruntLive';
import { repeat, type Summary, summarize } from './samples';

export interface TerragruntFigures {
  units: number;
  edges: number;
  cold: Summary;
  unitEdit: Summary;
  rootEdit: Summary;
}

const MODULES = 10;
const ENVIRONMENTS = ['dev', 'stage', 'prod', 'qa', 'demo'];

/** The live tree of `units` units; kept between runs. */
function liveTree(units: number): string {
  const root = path.join(os.tmpdir(), `terrace-bench-terragrunt-${units}`);
  if (existsSync(path.join(root, 'root.hcl'))) return root;
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  write(
    'root.hcl',
    'remote_state {\n  backend = "s3"\n  config = {\n    bucket = "bench-state"\n    key    = "${path_relative_to_include()}/terraform.tfstate"\n    region = "eu-west-1"\n  }\n}\n',
  );
  for (let m = 0; m < MODULES; m++)
    write(
      `modules/m${m}/main.tf`,
      'terraform {\n  backend "s3" {}\n}\n\nvariable "name" {\n  type = string\n}\n\nresource "terraform_data" "this" {\n  input = var.name\n}\n',
    );
  const perEnvironment = Math.ceil(units / ENVIRONMENTS.length);
  for (let i = 0; i < units; i++) {
    const environment = ENVIRONMENTS[Math.floor(i / perEnvironment)]!;
    const index = i % perEnvironment;
    // Two dependencies on earlier units of the same environment: a DAG of about two edges per unit.
    const dependencies = [index - 1, Math.floor(index / 2) - 1]
      .filter((n, at, all) => n >= 0 && all.indexOf(n) === at)
      .map((n) => `dependency "u${n}" {\n  config_path = "../u${n}"\n}\n`)
      .join('\n');
    write(
      `live/${environment}/u${index}/terragrunt.hcl`,
      `include "root" {\n  path = find_in_parent_folders("root.hcl")\n}\n\nterraform {\n  source = "../../../modules//m${i % MODULES}"\n}\n\n${dependencies}\ninputs = {\n  name = "u${index}"\n}\n`,
    );
  }
  return root;
}

export async function measureTerragrunt(units: number, quick: boolean): Promise<TerragruntFigures> {
  const root = liveTree(units);
  const colds: number[] = [];
  let analysis: WorkspaceAnalysis | undefined;
  for (let run = 0; run < (quick ? 2 : 5); run++) {
    const start = performance.now();
    analysis = new WorkspaceAnalysis(root, defaultOptions());
    await analysis.load();
    const result = analysis.result();
    colds.push(performance.now() - start);
    if (result.modules.length !== units) throw new Error(`expected ${units} units, found ${result.modules.length}`);
  }
  const edges = analysis!.result().edges.length;
  const unit = path.join(root, 'live/prod/u3/terragrunt.hcl');
  const unitText = readFileSync(unit, 'utf8');
  const withDependency = `${unitText}\ndependency "first" {\n  config_path = "../u0"\n}\n`;
  const unitEdit = await repeat(quick ? 6 : 20, async (run) => {
    const start = performance.now();
    await analysis!.updateFile(unit, run % 2 === 0 ? withDependency : unitText);
    const result = analysis!.result();
    const elapsed = performance.now() - start;
    if (result.edges.length !== edges + (run % 2 === 0 ? 1 : 0))
      throw new Error('the unit edit did not reach the graph');
    return elapsed;
  });
  const rootHcl = path.join(root, 'root.hcl');
  const rootText = readFileSync(rootHcl, 'utf8');
  const rekeyed = rootText.replace('/terraform.tfstate', '.tfstate');
  const vpcAddress = () => analysis!.result().modules.find((m) => m.id === 'live/prod/u3')?.backend?.address;
  const rootEdit = await repeat(quick ? 4 : 10, async (run) => {
    const start = performance.now();
    await analysis!.updateFile(rootHcl, run % 2 === 0 ? rekeyed : rootText);
    const address = vpcAddress();
    const elapsed = performance.now() - start;
    if (address !== `s3://bench-state/live/prod/u3${run % 2 === 0 ? '.tfstate' : '/terraform.tfstate'}`)
      throw new Error(`the root.hcl edit did not reach the units: ${address}`);
    return elapsed;
  });
  return { units, edges, cold: summarize(colds), unitEdit, rootEdit };
}

export interface RealShapedFigures {
  units: number;
  edges: number;
  /** The engine in this process, a new analysis each run. */
  cold: Summary;
  /** `terrace graph --format json` as a user runs it: a new Node process each run. */
  cli: Summary;
}

/**
 * A live repository of real shape (`test/realShapes/terragruntLive.ts`: six areas four to seven folders
 * deep, remote `terraform { source }`, an `include` found with `find_in_parent_folders()`, a
 * `read_terragrunt_config` of shared locals, three to four `dependency` blocks a unit), where the
 * synthetic tree above is one folder deep with local sources.
 */
export async function measureRealShapedTerragrunt(units: number, quick: boolean): Promise<RealShapedFigures> {
  const root = path.join(os.tmpdir(), `terrace-bench-terragrunt-live-${units}`);
  const manifest = path.join(root, '.bench.json');
  if (!existsSync(manifest)) {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    writeFileSync(manifest, JSON.stringify(writeTerragruntLive(root, { units })));
  }
  const colds: number[] = [];
  let edges = 0;
  for (let run = 0; run < (quick ? 3 : 7); run++) {
    const start = performance.now();
    const analysis = new WorkspaceAnalysis(root, defaultOptions());
    await analysis.load();
    const result = analysis.result();
    colds.push(performance.now() - start);
    if (result.modules.length !== units) throw new Error(`expected ${units} units, found ${result.modules.length}`);
    edges = result.edges.length;
  }
  const cli = path.resolve(__dirname, '../../dist/cli.js');
  const graphs = await repeat(quick ? 3 : 7, () => {
    const start = performance.now();
    const child = spawnSync(process.execPath, [cli, 'graph', root, '--format', 'json'], {
      maxBuffer: 256 * 1024 * 1024,
    });
    const elapsed = performance.now() - start;
    if (child.status !== 0) throw new Error(`terrace graph failed: ${child.stderr}`);
    return elapsed;
  });
  return { units, edges, cold: summarize(colds), cli: graphs };
}
