import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseArgs } from 'node:util';
import {
  acquireModuleLock,
  applyCandidates,
  type ModuleOutcome,
  moduleRunStates,
  type RunReport,
  type RunRequest,
  type RunSettings,
  type RunTarget,
  readRunState,
  resolveRunBinaries,
  runModules,
  runTargets,
  TerraformNotFoundError,
} from '../../runner/src';
import { runCommand } from '../../server/src/cli/runCommand';
import { WorkspaceAnalysis } from '../../server/src/engine/analysis';
import { defaultOptions } from '../../server/src/engine/config';
import { ParallelismError, RunCycleError, type RunEvent, type RunSelection } from '../../server/src/engine/run';

/**
 * Run Plans against the real terraform binary, offline: the run-levels fixture (builtin
 * `terraform_data` and local `terraform_remote_state` only) copied to a temporary folder and
 * applied there once; each test works on its own copy of that deployed folder.
 */
const repo = path.resolve(__dirname, '../..');
const FIXTURE = path.join(repo, 'test/fixtures/run-levels');
const VPC = 'network/vpc';
const EKS = 'platform/eks';
const DB = 'data/db';
const API = 'app/api';
const AUDIT = 'tools/audit';
const LEVEL_ORDER = [VPC, AUDIT, EKS, DB, API];
const EDGES: [string, string][] = [
  [EKS, VPC],
  [DB, VPC],
  [API, EKS],
  [API, DB],
];

const TF_ENV = { ...process.env, TF_IN_AUTOMATION: '1', TF_INPUT: '0' };
let scratch: string;
let deployed: string;
let copies = 0;

/** A fresh copy of the deployed fixture (states and `.terraform/` included). */
function workspace(): string {
  const root = path.join(scratch, `ws-${++copies}`);
  cpSync(deployed, root, { recursive: true });
  return root;
}

async function targetsOf(root: string, selection: RunSelection = {}): Promise<RunTarget[]> {
  const analysis = new WorkspaceAnalysis(root, defaultOptions());
  await analysis.load();
  return runTargets(analysis.result(), selection);
}

function settings(extra: Partial<RunSettings> = {}): RunSettings {
  return { binary: 'terraform', command: 'runPlans.test', ...extra };
}

async function run(
  root: string,
  kind: RunRequest['kind'],
  extra: Partial<RunSettings> = {},
  selection: RunSelection = {},
  more: Partial<RunRequest> = {},
): Promise<RunReport & { events: RunEvent<ModuleOutcome>[]; lines: Map<string, string[]> }> {
  const events: RunEvent<ModuleOutcome>[] = [];
  const lines = new Map<string, string[]>();
  const report = await runModules({
    root,
    targets: await targetsOf(root, selection),
    kind,
    settings: settings(extra),
    onEvent: (event) => events.push(event),
    onLine: (id, line) => {
      if (!lines.has(id)) lines.set(id, []);
      lines.get(id)!.push(line);
    },
    ...more,
  });
  return { ...report, events, lines };
}

function byId(report: RunReport) {
  return new Map(report.result.results.map((result) => [result.id, result]));
}

/** A terraform that sleeps `seconds` before `plan` (or every command) and then is the real one. */
function slowTerraform(seconds: number, onlyPlan = true): string {
  const file = path.join(scratch, `slow-terraform-${seconds}-${onlyPlan ? 'plan' : 'all'}`);
  const real = execFileSync('sh', ['-c', 'command -v terraform'], { encoding: 'utf8' }).trim();
  writeFileSync(
    file,
    `#!/bin/sh\n${onlyPlan ? `if [ "$1" = plan ]; then sleep ${seconds}; fi` : `sleep ${seconds}`}\nexec ${real} "$@"\n`,
  );
  chmodSync(file, 0o755);
  return file;
}

/**
 * OpenTofu's stand-in (no tofu can be installed here): answers `version` as OpenTofu does, writes each
 * command line to `log`, and is the real terraform otherwise, without the `-var-file`s of `init` (which
 * only OpenTofu takes).
 */
function tofuStandIn(log: string): string {
  const file = path.join(scratch, 'tofu');
  const real = execFileSync('sh', ['-c', 'command -v terraform'], { encoding: 'utf8' }).trim();
  writeFileSync(
    file,
    [
      '#!/bin/sh',
      'if [ "$1" = version ]; then echo "OpenTofu v1.8.0"; exit 0; fi',
      `echo "$*" >> '${log}'`,
      'if [ "$1" = init ]; then',
      '  for arg in "$@"; do shift; case "$arg" in -var-file=*) ;; *) set -- "$@" "$arg" ;; esac; done',
      'fi',
      `exec ${real} "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(file, 0o755);
  return file;
}

/** Processes (pid, process group, command line) from /proc. */
function processes(): { pid: number; pgid: number; cmdline: string }[] {
  const list: { pid: number; pgid: number; cmdline: string }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim();
      if (fields[0] === 'Z') continue;
      list.push({ pid: Number(name), pgid: Number(fields[2]), cmdline });
    } catch {
      // Gone meanwhile.
    }
  }
  return list;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

function assertDependencyOrder(report: RunReport): void {
  const results = byId(report);
  for (const [from, to] of EDGES) {
    const dependent = results.get(from);
    const dependency = results.get(to);
    if (!dependent?.start || !dependency?.end) continue;
    assert.ok(
      dependent.start >= dependency.end,
      `${from} started at ${dependent.start}, before ${to} ended at ${dependency.end}`,
    );
  }
}

function appendResource(root: string, module: string, name: string): void {
  appendFileSync(
    path.join(root, module, 'main.tf'),
    `\nresource "terraform_data" "${name}" {\n  input = "${name}"\n}\n`,
  );
}

before(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'terrace-run-'));
  deployed = path.join(scratch, 'deployed');
  cpSync(FIXTURE, deployed, { recursive: true });
  for (const module of LEVEL_ORDER) {
    const cwd = path.join(deployed, module);
    execFileSync('terraform', ['init', '-input=false', '-no-color'], { cwd, env: TF_ENV, stdio: 'ignore' });
    execFileSync('terraform', ['apply', '-auto-approve', '-input=false', '-no-color'], {
      cwd,
      env: TF_ENV,
      stdio: 'ignore',
    });
  }
});

after(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('run plans with the real terraform', () => {
  test('plans every module after its dependencies; exit code 2 is changes; plans, logs and states are kept', async () => {
    const root = workspace();
    appendResource(root, EKS, 'extra');
    const report = await run(root, 'plan');
    const results = byId(report);
    assert.deepEqual(
      [...results].map(([id, result]) => [id, result.status]).sort(),
      [API, DB, VPC, EKS, AUDIT].map((id) => [id, 'succeeded']).sort(),
    );
    assertDependencyOrder(report);
    const eks = results.get(EKS)!.value!;
    assert.equal(eks.exitCode, 2);
    assert.equal(eks.changes, true);
    assert.deepEqual(eks.counts, { add: 1, change: 0, destroy: 0, import: 0, outputs: 0 });
    for (const id of [VPC, DB, API, AUDIT]) {
      assert.equal(results.get(id)!.value!.exitCode, 0, id);
      assert.equal(results.get(id)!.value!.changes, false, id);
    }
    // .terrace/runs/<timestamp>/<module id>/: the saved plan, the full log, the show -json summary.
    assert.match(report.runId, /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z$/);
    const dir = path.join(root, '.terrace', 'runs', report.runId, 'platform', 'eks');
    assert.equal(eks.planFile, path.join(dir, 'plan.tfplan'));
    assert.ok(existsSync(eks.planFile!));
    assert.match(readFileSync(path.join(dir, 'terraform.log'), 'utf8'), /Plan: 1 to add, 0 to change, 0 to destroy\./);
    assert.deepEqual(JSON.parse(readFileSync(path.join(dir, 'summary.json'), 'utf8')), {
      exitCode: 2,
      counts: { add: 1, change: 0, destroy: 0, import: 0, outputs: 0 },
      // Each root output's change, by name and kind: no value is kept.
      outputs: { cluster_name: 'unchanged' },
      resources: [{ address: 'terraform_data.extra', actions: ['create'] }],
    });
    // The status lines in order for one module: start, then finish.
    const eksEvents = report.events.filter((e) => (e.type === 'finish' ? e.result.id : e.id) === EKS);
    assert.deepEqual(
      eksEvents.map((e) => e.type),
      ['start', 'finish'],
    );
    assert.ok(report.lines.get(EKS)!.includes('Plan: 1 to add, 0 to change, 0 to destroy.'));
    // The state file: exit codes, counts, checksums of the saved plans.
    const state = readRunState(root);
    assert.equal(state.modules[EKS]!.lastPlan!.exitCode, 2);
    assert.equal(state.modules[VPC]!.lastPlan!.exitCode, 0);
    assert.match(state.modules[EKS]!.lastPlan!.checksum!, /^[0-9a-f]{64}$/);
    assert.equal(state.modules[EKS]!.lastPlan!.planFile, `.terrace/runs/${report.runId}/platform/eks/plan.tfplan`);
    // No lock is left behind.
    assert.deepEqual(readdirSync(path.join(root, '.terrace', 'locks')), []);
  });

  test('never more than `parallelism` terraform plans at once (a slow plan), and that many', async () => {
    const root = workspace();
    const binary = slowTerraform(1);
    const report = await run(root, 'plan', { binary, parallelism: 2 });
    const results = report.result.results;
    assert.ok(results.every((result) => result.status === 'succeeded'));
    assertDependencyOrder(report);
    let most = 0;
    for (const result of results) {
      const running = results.filter((other) => other.start! <= result.start! && other.end! > result.start!).length;
      most = Math.max(most, running);
    }
    assert.equal(most, 2, 'two plans ran at once and never three');
    assert.equal(report.result.parallelism, 2);
    // Level 0 (vpc, audit) ran together; eks and db waited for vpc only.
    const at = byId(report);
    assert.ok(at.get(AUDIT)!.start! < at.get(VPC)!.end!);
  });

  test('a failing module skips exactly its dependents, naming it; the other branches go on', async () => {
    const root = workspace();
    appendFileSync(
      path.join(root, DB, 'main.tf'),
      '\nresource "terraform_data" "broken" {\n  input = data.terraform_remote_state.vpc.outputs.no_such_output\n}\n',
    );
    const report = await run(root, 'plan');
    const results = byId(report);
    assert.deepEqual(Object.fromEntries([...results].map(([id, result]) => [id, result.status])), {
      [VPC]: 'succeeded',
      [AUDIT]: 'succeeded',
      [EKS]: 'succeeded',
      [DB]: 'failed',
      [API]: 'skipped',
    });
    assert.match(results.get(DB)!.message!, /^terraform plan exited 1: Error: Unsupported attribute/);
    assert.equal(results.get(API)!.message, 'upstream dependencies failed: data/db');
    assert.equal(results.get(API)!.start, undefined);
    assert.equal(readRunState(root).modules[DB]!.lastPlan!.exitCode, 1);
    assert.equal(readRunState(root).modules[API], undefined, 'a skipped module was not planned');
  });

  test('a negative parallelism is rejected before anything starts; 0 means 10', async () => {
    const root = workspace();
    await assert.rejects(run(root, 'plan', { parallelism: -1 }), (error: unknown) => {
      assert.ok(error instanceof ParallelismError);
      assert.match(
        error.message,
        /^parallelism must be a whole number of at least 0 \(0 means the default, 10\), not -1$/,
      );
      return true;
    });
    assert.ok(!existsSync(path.join(root, '.terrace')), 'nothing was written');
    const report = await run(root, 'plan', { parallelism: 0 }, { modules: [AUDIT] });
    assert.equal(report.result.parallelism, 10);
  });

  test('a missing binary is one clear error before anything starts', async () => {
    const root = workspace();
    await assert.rejects(run(root, 'plan', { binary: path.join(scratch, 'no-such-terraform') }), (error: unknown) => {
      assert.ok(error instanceof TerraformNotFoundError);
      assert.match(error.message, /no-such-terraform does not exist or is not executable/);
      return true;
    });
    await assert.rejects(run(root, 'plan', { binary: 'tofu-not-installed-here' }), {
      message:
        'tofu-not-installed-here was not found on PATH; install it or set terrace.terraformPath or execution.binary to its path',
    });
    assert.ok(!existsSync(path.join(root, '.terrace')));
  });

  test('the environment’s tfvars files: -var-file to plan where the module keeps them, and to init with OpenTofu', async () => {
    const root = workspace();
    writeFileSync(path.join(root, VPC, 'prod.tfvars'), 'unused = "prod"\n');
    const log = path.join(scratch, `tofu-${copies}.log`);
    const varFiles = ['prod.tfvars', 'prod.tfvars.json'];
    const report = await run(
      root,
      'plan',
      { binary: tofuStandIn(log), init: 'always', varFiles },
      { modules: [VPC, AUDIT] },
    );
    assert.deepEqual(
      [...byId(report)].map(([id, result]) => [id, result.status]).sort(),
      [AUDIT, VPC].map((id) => [id, 'succeeded']).sort(),
    );
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    const commands = (word: string, flag: string) =>
      lines.filter((line) => line.startsWith(word)).map((line) => line.includes(flag));
    assert.deepEqual(commands('init', '-var-file=prod.tfvars').sort(), [false, true], 'init: the vpc only');
    assert.deepEqual(commands('plan', '-var-file=prod.tfvars').sort(), [false, true], 'plan: the vpc only');
    const terraform = await run(root, 'plan', { init: 'always', varFiles }, { modules: [VPC] });
    const logFile = byId(terraform).get(VPC)!.value!.logFile;
    assert.match(readFileSync(logFile, 'utf8'), /undeclared variable|unused/, 'terraform plan read prod.tfvars');
  });

  test('Terragrunt units run with terragrunt: when it is not installed, the run says so and names the units, before anything starts', async () => {
    const root = path.join(scratch, `terragrunt-${++copies}`);
    cpSync(path.join(repo, 'test/fixtures/terragrunt-units'), root, { recursive: true });
    rmSync(path.join(root, 'live/ops'), { recursive: true });
    const targets = await targetsOf(root);
    assert.deepEqual(
      targets.map((target) => [target.id, target.kind]),
      [
        ['live/prod/apps/api', 'unit'],
        ['live/prod/apps/worker', 'unit'],
        ['live/prod/network/vpc', 'unit'],
        ['live/prod/platform/eks', 'unit'],
        ['shared/dns', 'module'],
      ],
    );
    // The unit's code and its included configuration count for its plan, like a child module.
    assert.deepEqual(targets[2]!.sourceDirs, [root, path.join(root, 'live/prod'), path.join(root, 'modules/vpc')]);
    const env = {
      PATH: path.dirname(spawnSync('sh', ['-c', 'command -v terraform'], { encoding: 'utf8' }).stdout.trim()),
    };
    const original = process.env.PATH;
    process.env.PATH = env.PATH;
    try {
      await assert.rejects(runModules({ root, targets, kind: 'plan', settings: settings() }), (error: unknown) => {
        assert.ok(error instanceof TerraformNotFoundError);
        assert.equal(error.tool, 'terragrunt');
        assert.equal(
          error.message,
          'terragrunt was not found on PATH, needed by the Terragrunt units live/prod/apps/api, live/prod/apps/worker, live/prod/network/vpc and 1 more; install it or set execution.terragrunt to its path',
        );
        return true;
      });
      // A selection of plain roots needs no terragrunt.
      const plain = targets.filter((target) => target.kind === 'module');
      const binaries = await resolveRunBinaries(plain, settings({ terragrunt: '/nonexistent/terragrunt' }));
      assert.equal(binaries.terragrunt, undefined);
      assert.match(binaries.binary.version, /^(Terraform|OpenTofu) v/);
    } finally {
      process.env.PATH = original;
    }
    assert.ok(!existsSync(path.join(root, '.terrace')), 'nothing was written before the refusal');
  });

  test('modules in a cycle are refused up front with the cycle path', async () => {
    const root = workspace();
    // vpc now reads api's state: vpc → api → eks → vpc.
    appendFileSync(
      path.join(root, VPC, 'main.tf'),
      '\ndata "terraform_remote_state" "api" {\n  backend = "local"\n  config = {\n    path = "../../app/api/terraform.tfstate"\n  }\n}\n',
    );
    await assert.rejects(run(root, 'plan'), (error: unknown) => {
      assert.ok(error instanceof RunCycleError);
      assert.deepEqual(error.cycles, [[API, DB, VPC, API]]);
      return true;
    });
    assert.ok(!existsSync(path.join(root, '.terrace', 'runs')));
  });

  test('cancelling an apply stops terraform and its children: no process of the run is left', async () => {
    const root = workspace();
    rmSync(path.join(root, AUDIT, 'terraform.tfstate'));
    // Variables are fixed in the saved plan: the pause is set when planning.
    const planned = await run(root, 'plan', { env: { TF_VAR_pause: '41' } }, { modules: [AUDIT] });
    assert.deepEqual(planned.result.results[0]!.value!.counts, {
      add: 1,
      change: 0,
      destroy: 0,
      import: 0,
      outputs: 0,
    });
    const controller = new AbortController();
    const started = Date.now();
    const applying = run(root, 'apply', { graceMs: 2_000 }, { modules: [AUDIT] }, { signal: controller.signal });
    // The provisioner's `sleep 41` runs in terraform's process group.
    const sleeper = await waitFor('the provisioner to sleep', () => processes().find((p) => p.cmdline === 'sleep 41'));
    const group = sleeper.pgid;
    assert.ok(
      processes().some((p) => p.pgid === group && /terraform/.test(p.cmdline)),
      'terraform leads the group of the provisioner',
    );
    controller.abort();
    const report = await applying;
    assert.ok(Date.now() - started < 30_000, 'stopped long before the sleep would end');
    assert.ok(report.result.cancelled);
    assert.equal(report.result.results[0]!.status, 'cancelled');
    await waitFor('the process group to be gone', () => !processes().some((p) => p.pgid === group), 5_000);
    assert.deepEqual(
      processes().filter((p) => p.cmdline === 'sleep 41' || p.pgid === group),
      [],
    );
    assert.deepEqual(readdirSync(path.join(root, '.terrace', 'locks')), [], 'the lock is released');
  });

  test('cancelling a plan run marks the modules not finished as cancelled and leaves no process', async () => {
    const root = workspace();
    const controller = new AbortController();
    const groups = new Set<number>();
    const running = run(root, 'plan', { binary: slowTerraform(30), graceMs: 1_000 }, {}, { signal: controller.signal });
    const waiting = await waitFor('two slow plans', () => {
      const found = processes().filter((p) => p.cmdline === 'sleep 30');
      return found.length === 2 ? found : undefined;
    });
    for (const p of waiting) groups.add(p.pgid);
    controller.abort();
    const report = await running;
    assert.deepEqual(report.result.results.map((r) => r.status).sort(), Array(5).fill('cancelled'));
    assert.deepEqual(
      report.result.results
        .filter((r) => r.attempts.length > 0)
        .map((r) => r.id)
        .sort(),
      [VPC, AUDIT],
      'only level 0 had started',
    );
    await waitFor('the process groups to be gone', () => !processes().some((p) => groups.has(p.pgid)), 5_000);
  });

  test('a second concurrent run on one module is refused by its lock', async () => {
    const root = workspace();
    let firstStarted = false;
    const first = run(
      root,
      'plan',
      { binary: slowTerraform(2), command: 'the first run' },
      { modules: [VPC] },
      {
        onEvent: (event) => {
          if (event.type === 'start') firstStarted = true;
        },
      },
    );
    await waitFor('the first run to start', () => firstStarted && existsSync(path.join(root, '.terrace', 'locks')));
    await waitFor('the lock', () => readdirSync(path.join(root, '.terrace', 'locks')).length === 1);
    const second = await run(root, 'plan', { command: 'the second run' }, { modules: [VPC, AUDIT] });
    const results = byId(second);
    assert.equal(results.get(VPC)!.status, 'failed');
    assert.match(
      results.get(VPC)!.message!,
      new RegExp(`^busy: network/vpc is being run by the first run \\(pid ${process.pid}, since .*\\)$`),
    );
    assert.equal(results.get(VPC)!.attempts.length, 1, 'a busy module is not retried');
    assert.equal(results.get(AUDIT)!.status, 'succeeded');
    const firstReport = await first;
    assert.equal(firstReport.result.results[0]!.status, 'succeeded');
    // Released: a third run gets it.
    const third = await run(root, 'plan', {}, { modules: [VPC] });
    assert.equal(third.result.results[0]!.status, 'succeeded');
  });

  test('a lock whose owner process is gone is stale and taken over', async () => {
    const root = workspace();
    const gone = spawnSync('sh', ['-c', 'echo $$']).stdout.toString().trim();
    const held = await acquireModuleLock(root, VPC, { command: 'crashed run' });
    const file = held.file;
    writeFileSync(
      file,
      JSON.stringify({
        pid: Number(gone),
        hostname: os.hostname(),
        command: 'crashed run',
        since: new Date().toISOString(),
      }),
    );
    const report = await run(root, 'plan', {}, { modules: [VPC] });
    assert.equal(report.result.results[0]!.status, 'succeeded');
  });

  test('a lock holds while the terraform group it names lives, even when its run is gone', async () => {
    const root = workspace();
    const gone = Number(spawnSync('sh', ['-c', 'echo $$']).stdout.toString().trim());
    // A process group of our own, standing for a killed run's terraform.
    const worker = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    try {
      const held = await acquireModuleLock(root, VPC, { command: 'killed run' });
      const since = new Date().toISOString();
      const owner = { pid: gone, hostname: os.hostname(), command: 'terrace plan', since, group: worker.pid };
      writeFileSync(held.file, JSON.stringify(owner));
      await assert.rejects(acquireModuleLock(root, VPC, { command: 'second run' }), {
        message: `busy: ${VPC} is still being run by terraform (process group ${worker.pid}), left by terrace plan (pid ${gone}, gone, since ${since})`,
      });
      process.kill(-worker.pid!, 'SIGKILL');
      await waitFor('the group to end', () => worker.exitCode !== null || worker.signalCode !== null);
      const taken = await acquireModuleLock(root, VPC, { command: 'second run' });
      assert.equal(JSON.parse(readFileSync(taken.file, 'utf8')).command, 'second run');
      taken.release();
    } finally {
      if (worker.exitCode === null && worker.signalCode === null) process.kill(-worker.pid!, 'SIGKILL');
    }
  });

  test('terrace plan killed outright: its lock holds while terraform works, then terraform is stopped', async () => {
    const root = workspace();
    // A terraform that ignores the interrupt and plans slowly: only the kill after the grace period ends it.
    const real = execFileSync('sh', ['-c', 'command -v terraform'], { encoding: 'utf8' }).trim();
    const stubborn = path.join(scratch, 'stubborn-terraform');
    writeFileSync(stubborn, `#!/bin/sh\ntrap '' INT\nif [ "$1" = plan ]; then sleep 43; fi\nexec ${real} "$@"\n`);
    chmodSync(stubborn, 0o755);
    const cli = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(repo, 'server/src/cli/cli.ts'),
        'plan',
        root,
        '--module',
        VPC,
        '--binary',
        stubborn,
      ],
      { cwd: repo, stdio: 'ignore' },
    );
    const lock = path.join(root, '.terrace', 'locks', `${encodeURIComponent(VPC)}.lock`);
    const group = await waitFor('terraform at work, named in the lock', () => {
      const owner = existsSync(lock) ? (JSON.parse(readFileSync(lock, 'utf8') || '{}') as { group?: number }) : {};
      return owner.group !== undefined && processes().some((p) => p.pgid === owner.group && p.cmdline === 'sleep 43')
        ? owner.group
        : undefined;
    });
    cli.kill('SIGKILL');
    await waitFor('the run to be gone', () => cli.exitCode !== null || cli.signalCode !== null);
    assert.ok(
      processes().some((p) => p.pgid === group),
      'terraform outlives the run for the grace period',
    );
    await assert.rejects(acquireModuleLock(root, VPC, { command: 'second run' }), /still being run by terraform/);
    await waitFor('the group to be stopped', () => !processes().some((p) => p.pgid === group), 15_000);
    const taken = await acquireModuleLock(root, VPC, { command: 'second run' });
    taken.release();
  });

  test('run states: Idle → PlanNeeded after an edit → ApplyNeeded after a plan with changes → Idle after apply', async () => {
    const root = workspace();
    const targets = await targetsOf(root);
    const states = () =>
      Object.fromEntries([...moduleRunStates(root, targets)].map(([id, s]) => [id, [s.state, s.reason]]));
    assert.deepEqual(states()[EKS], ['PlanNeeded', 'never planned']);
    await run(root, 'plan');
    assert.deepEqual(states(), {
      [VPC]: ['Idle', 'no changes'],
      [AUDIT]: ['Idle', 'no changes'],
      [EKS]: ['Idle', 'no changes'],
      [DB]: ['Idle', 'no changes'],
      [API]: ['Idle', 'no changes'],
    });
    appendResource(root, EKS, 'extra');
    assert.deepEqual(states()[EKS], ['PlanNeeded', 'files changed since the last plan']);
    assert.deepEqual(states()[API], ['Idle', 'no changes']);
    // A change in a local child module counts for the module that calls it.
    appendFileSync(path.join(root, 'modules/labels/main.tf'), '\n# reviewed\n');
    assert.deepEqual(states()[DB], ['PlanNeeded', 'files changed since the last plan']);

    const planned = await run(root, 'plan', {}, { modules: [EKS, DB] });
    assert.equal(byId(planned).get(EKS)!.value!.exitCode, 2);
    assert.deepEqual(states()[EKS], ['ApplyNeeded', '1 to add, 0 to change, 0 to destroy']);
    assert.deepEqual(states()[DB], ['Idle', 'no changes']);

    const candidates = await applyCandidates(root, targets);
    assert.deepEqual(
      candidates.map((c) => ({ id: c.id, ready: c.ready })),
      [{ id: EKS, ready: true }],
    );
    const applied = await run(root, 'apply', {}, { modules: [EKS] });
    assert.equal(applied.result.results[0]!.status, 'succeeded');
    assert.match(readFileSync(applied.result.results[0]!.value!.logFile, 'utf8'), /Apply complete! Resources: 1 added/);
    assert.deepEqual(states()[EKS], ['Idle', 'plan applied']);
    // What reads eks's state must be planned again.
    assert.deepEqual(states()[API], ['PlanNeeded', 'platform/eks applied since the last plan']);
    const eksState = JSON.parse(readFileSync(path.join(root, EKS, 'terraform.tfstate'), 'utf8'));
    assert.ok(
      eksState.resources.some((r: { name: string }) => r.name === 'extra'),
      'the apply really happened',
    );
    // Too old: a plan older than planMaxAge needs planning again.
    const later = moduleRunStates(root, targets, { planMaxAgeMs: 3_600_000, now: Date.now() + 2 * 3_600_000 });
    assert.deepEqual(
      [later.get(VPC)!.state, later.get(VPC)!.reason],
      ['PlanNeeded', 'the last plan is older than 1 h'],
    );
  });

  test('apply of a stale plan is refused with the reason: files, plan file checksum, commit', async () => {
    const root = workspace();
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', root, ...args], {
        encoding: 'utf8',
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@e',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@e',
        },
      });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'deployed');
    appendResource(root, EKS, 'extra');
    appendResource(root, VPC, 'extra');
    appendResource(root, AUDIT, 'extra');
    await run(root, 'plan', {}, { modules: [EKS, VPC, AUDIT] });
    const targets = await targetsOf(root);

    // eks: its files change after the plan; vpc: its saved plan file is altered; audit: current.
    appendFileSync(path.join(root, EKS, 'main.tf'), '\n# edited after the plan\n');
    const vpcPlan = path.join(root, readRunState(root).modules[VPC]!.lastPlan!.planFile!);
    appendFileSync(vpcPlan, 'x');
    const candidates = Object.fromEntries(
      (await applyCandidates(root, targets)).map((c) => [c.id, c.ready ? 'ready' : c.reason]),
    );
    assert.deepEqual(candidates, {
      [VPC]: 'the saved plan file changed since it was made (checksum)',
      [EKS]: 'the module’s files changed since the plan',
      [AUDIT]: 'ready',
    });
    // Even when asked to, the run refuses them, and terraform apply never runs for them.
    const refused = await run(root, 'apply', {}, { modules: [EKS] });
    assert.equal(refused.result.results[0]!.status, 'failed');
    assert.equal(refused.result.results[0]!.message, 'stale plan refused: the module’s files changed since the plan');
    assert.ok(!refused.lines.get(EKS)!.some((line) => line.startsWith('$ terraform apply')));
    const report = await run(root, 'apply', {}, { modules: [VPC, AUDIT] });
    const results = byId(report);
    assert.equal(
      results.get(VPC)!.message,
      'stale plan refused: the saved plan file changed since it was made (checksum)',
    );
    assert.equal(results.get(AUDIT)!.status, 'succeeded');
    const eksState = readFileSync(path.join(root, EKS, 'terraform.tfstate'), 'utf8');
    assert.doesNotMatch(eksState, /"extra"/);

    // A new commit after the plan: refused too.
    await run(root, 'plan', {}, { modules: [EKS] });
    git('commit', '-q', '--allow-empty', '-m', 'later');
    const [eks] = await applyCandidates(
      root,
      targets.filter((t) => t.id === EKS),
    );
    assert.ok(eks && !eks.ready);
    assert.match(eks.reason, /^the commit changed since the plan \([0-9a-f]{8} → [0-9a-f]{8}\)$/);
  });

  test('init runs when .terraform/ is missing or the provider lock file changed, not otherwise', async () => {
    const root = path.join(scratch, `fresh-${++copies}`);
    cpSync(FIXTURE, root, { recursive: true });
    const first = await run(root, 'plan', {}, { modules: [VPC] });
    assert.equal(first.result.results[0]!.value!.initRan, true);
    assert.ok(first.lines.get(VPC)!.includes('$ terraform init -input=false -no-color'));
    const second = await run(root, 'plan', {}, { modules: [VPC] });
    assert.equal(second.result.results[0]!.value!.initRan, false);
    writeFileSync(
      path.join(root, VPC, '.terraform.lock.hcl'),
      '# This file is maintained automatically by "terraform init".\n# Manual edits may be lost in future updates.\n',
    );
    const third = await run(root, 'plan', {}, { modules: [VPC] });
    assert.equal(third.result.results[0]!.value!.initRan, true);
    const never = await run(root, 'plan', { init: 'never' }, { modules: [AUDIT] });
    assert.equal(never.result.results[0]!.status, 'failed', 'without init terraform cannot plan');
    assert.match(never.result.results[0]!.message!, /^terraform plan exited 1/);
  });

  test('retries: a transient failure is tried again, each attempt recorded', async () => {
    const root = workspace();
    const real = execFileSync('sh', ['-c', 'command -v terraform'], { encoding: 'utf8' }).trim();
    const marker = path.join(scratch, `flaky-${copies}`);
    const flaky = path.join(scratch, `flaky-terraform-${copies}`);
    writeFileSync(
      flaky,
      `#!/bin/sh\nif [ "$1" = plan ] && [ ! -e ${marker} ]; then touch ${marker}; echo "Error: connection reset by peer" >&2; exit 1; fi\nexec ${real} "$@"\n`,
    );
    chmodSync(flaky, 0o755);
    const report = await run(root, 'plan', { binary: flaky, retries: 2, retryDelay: () => 50 }, { modules: [VPC] });
    const result = report.result.results[0]!;
    assert.equal(result.status, 'succeeded');
    assert.deepEqual(
      result.attempts.map((a) => [a.attempt, a.ok, a.message]),
      [
        [1, false, 'terraform plan exited 1: Error: connection reset by peer'],
        [2, true, undefined],
      ],
    );
    assert.deepEqual(
      report.events.filter((e) => e.type === 'retry').map((e) => e.type === 'retry' && [e.id, e.attempt, e.delayMs]),
      [[VPC, 2, 50]],
    );
    const log = readFileSync(result.value!.logFile, 'utf8');
    assert.match(log, /# plan of network\/vpc \(attempt 2\)/);
  });

  test('drift check: a module whose state changed outside its files is marked drifted', async () => {
    const root = workspace();
    await run(root, 'plan');
    // Someone changed the vpc outside Terraform: its state no longer matches the configuration.
    const stateFile = path.join(root, VPC, 'terraform.tfstate');
    const state = JSON.parse(readFileSync(stateFile, 'utf8'));
    state.resources[0].instances[0].attributes.input.value = '10.99.0.0/16';
    state.serial += 1;
    writeFileSync(stateFile, JSON.stringify(state, null, 2));
    // eks has an edit: its changes are expected, not drift.
    appendResource(root, EKS, 'extra');
    const report = await run(root, 'drift');
    const results = byId(report);
    assert.equal(results.get(VPC)!.value!.drifted, true);
    assert.equal(results.get(VPC)!.value!.changes, true);
    assert.equal(results.get(EKS)!.value!.drifted, false);
    assert.equal(results.get(EKS)!.value!.changes, true);
    assert.equal(results.get(AUDIT)!.value!.drifted, false);
    const states = moduleRunStates(root, await targetsOf(root));
    assert.deepEqual([states.get(VPC)!.state, states.get(VPC)!.drifted], ['ApplyNeeded', true]);
    assert.equal(states.get(VPC)!.reason, 'drifted: 0 to add, 1 to change, 0 to destroy');
    assert.equal(readRunState(root).modules[VPC]!.lastPlan!.kind, 'drift');
  });

  test('terrace plan in a shell: status lines and the summary table, exit code', async () => {
    const root = workspace();
    appendResource(root, DB, 'extra');
    const all = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(repo, 'server/src/cli/cli.ts'), 'plan', root, '--parallelism', '4'],
      { encoding: 'utf8', cwd: repo, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '' } },
    );
    assert.equal(all.status, 0, all.stderr);
    // What it runs, and why that one, before it runs it.
    assert.match(all.stderr, /^Runs \/\S+\/terraform \('terraform', the default, found on PATH\)$/m);
    assert.match(all.stdout, /^Terrace plan: 5 modules, parallelism 4, Terraform v\d+\.\d+\.\d+\n/);
    assert.match(all.stdout, /^▶ data\/db: planning$/m);
    assert.match(all.stdout, /^data\/db {6}│ Plan: 1 to add, 0 to change, 0 to destroy\.$/m);
    assert.match(all.stdout, /^± data\/db: 1 to add, 0 to change, 0 to destroy \(\d+\.\ds\)$/m);
    assert.match(all.stdout, /^✔ app\/api: no changes \(\d+\.\ds\)$/m);
    const table = all.stdout.slice(all.stdout.indexOf('  Module'));
    assert.deepEqual(
      table
        .split('\n')
        .slice(1, 6)
        .map((line) => line.trim().split(/ {2,}/).slice(0, 2)),
      [
        [VPC, 'no changes'],
        [AUDIT, 'no changes'],
        [DB, '1 to add, 0 to change, 0 to destroy'],
        [EKS, 'no changes'],
        [API, 'no changes'],
      ],
    );
    assert.match(all.stdout, /\n5 modules: 1 with changes, 4 without changes in \d+\.\ds\n/);
    assert.ok(!all.stdout.includes('\u001b['), 'no colours when NO_COLOR is set');
  });

  test('terrace plan: selections, --detailed-exitcode, failures and usage errors', async () => {
    const root = workspace();
    appendResource(root, DB, 'extra');
    const plan = async (...args: string[]) => {
      const { values } = parseArgs({
        args,
        options: {
          parallelism: { type: 'string', short: 'p' },
          module: { type: 'string', multiple: true },
          'with-dependencies': { type: 'boolean' },
          'with-dependents': { type: 'boolean' },
          binary: { type: 'string' },
          'detailed-exitcode': { type: 'boolean' },
        },
      });
      let stdout = '';
      let stderr = '';
      try {
        const status = await runCommand(
          root,
          values,
          {
            usage: (message) => new Error(`usage: ${message}`),
            out: (text) => (stdout += text),
            err: (text) => (stderr += text),
            color: false,
            interactive: false,
          },
          'plan',
        );
        return { status, stdout, stderr };
      } catch (error) {
        return { status: 2, stdout, stderr: (error as Error).message };
      }
    };
    const detailed = await plan('--module', DB, '--with-dependents', '--detailed-exitcode');
    assert.equal(detailed.status, 2, detailed.stderr);
    assert.match(detailed.stdout, /^Terrace plan: 2 modules,/);
    assert.match(detailed.stdout, /\n2 modules: 1 with changes, 1 without changes in/);

    const upstream = await plan('--module', API, '--with-dependencies', '-p', '1');
    assert.equal(upstream.status, 0);
    assert.match(upstream.stdout, /^Terrace plan: 4 modules, parallelism 1,/);

    const negative = await plan('--parallelism=-1');
    assert.equal(negative.status, 2);
    assert.equal(negative.stderr, 'usage: --parallelism must be 0 or more (0 means the default), not -1');
    assert.equal(negative.stdout, '');
    const unknown = await plan('--module', 'vpc');
    assert.equal(unknown.stderr, "usage: no such module: 'vpc' (did you mean 'network/vpc'?)");
    const missing = await plan('--binary', '/nonexistent/tofu');
    assert.equal(missing.status, 1);
    assert.equal(
      missing.stderr,
      "Runs /nonexistent/tofu ('/nonexistent/tofu', --binary, not found)\nError: /nonexistent/tofu does not exist or is not executable (set by --binary)\n",
    );

    appendFileSync(
      path.join(root, EKS, 'main.tf'),
      '\nresource "terraform_data" "broken" {\n  input = data.terraform_remote_state.vpc.outputs.nope\n}\n',
    );
    const failing = await plan();
    assert.equal(failing.status, 1);
    assert.match(failing.stdout, /^⊘ app\/api: skipped: upstream dependencies failed: platform\/eks$/m);
    assert.match(failing.stdout, /^✖ platform\/eks: failed: terraform plan exited 1: Error: Unsupported attribute/m);
    assert.match(failing.stdout, /5 modules: 1 with changes, 2 without changes, 1 failed, 1 skipped in/);
  });

  test('examples/local, as the README shows it: two modules with changes, in dependency order', async () => {
    const root = path.join(scratch, `example-${++copies}`);
    cpSync(path.join(repo, 'examples/local'), root, { recursive: true });
    let stdout = '';
    const status = await runCommand(
      root,
      { parallelism: '4' },
      {
        usage: (message) => new Error(message),
        out: (text) => (stdout += text),
        err: () => undefined,
        color: false,
        interactive: false,
      },
      'plan',
    );
    assert.equal(status, 0, stdout);
    const table = stdout.slice(stdout.indexOf('  Module'));
    assert.deepEqual(
      table
        .split('\n')
        .slice(1, 7)
        .map((line) => line.trim().split(/ {2,}/).slice(0, 2)),
      [
        ['network/vpc', 'no changes'],
        ['data/postgres', 'no changes'],
        ['network/dns', 'no changes'],
        ['platform/cluster', '1 to add, 0 to change, 0 to destroy'],
        ['app/api', '0 to add, 1 to change, 0 to destroy'],
        ['app/worker', 'no changes'],
      ],
    );
    assert.match(stdout, /\n6 modules: 2 with changes, 4 without changes in /);
  });
});
