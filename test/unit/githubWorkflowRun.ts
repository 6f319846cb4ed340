import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { GatedRepository } from './gatedRepository';
import { type GithubValue, githubCondition, githubTemplate } from './githubExpression';

/**
 * A GitHub workflow run as GitHub would run it, job after job, with the real terraform on a copy of the plan-reach
 * fixture (its states outside the repository): each job's `if:` and each caller job's inputs evaluated as GitHub
 * evaluates them, from the results and outputs of the jobs it needs; in a job with steps (the reusable workflow's,
 * or the workflow's own), each step's `if:` evaluated and its `run:` (its expressions replaced) run by bash, with the
 * step's environment and a GITHUB_OUTPUT file whose lines become the step's outputs. Checkout and setup are not run;
 * the artifact actions are, on a folder per run (`artifacts/<run id>/<name>/`): upload copies the file named, download
 * copies an artifact of this run or of the one `run-id` names. With `fresh`, each job starts in a clean checkout
 * (`git clean`), as on a new runner: what one job tells another goes through outputs and artifacts or not at all;
 * else the jobs share one checkout, where a plan file already is. Terrace is the built `node dist/cli.js`.
 */
export type Job = Record<string, unknown> & {
  with?: Record<string, string | boolean>;
  needs?: string[];
  if?: string;
  env?: Record<string, string>;
  outputs?: Record<string, string>;
  steps?: (Record<string, unknown> & { run?: string; if?: string; id?: string; uses?: string })[];
};
export interface Workflow {
  on: {
    workflow_call?: {
      inputs?: Record<string, { default?: string | boolean }>;
      outputs?: Record<string, { value: string }>;
    };
  };
  jobs: Record<string, Job>;
}
export interface JobResult {
  result: 'success' | 'skipped' | 'failure';
  outputs: Record<string, string>;
}

/** The run that started this one (`workflow_run`): its id and conclusion. */
export interface TriggeringRun {
  id: number;
  conclusion: 'success' | 'failure' | 'skipped';
}

export class WorkflowRun {
  readonly results: Record<string, JobResult> = {};
  /** Each job's log: what its steps printed (stderr and stdout). */
  readonly logs: Record<string, string> = {};
  readonly summary: string;

  constructor(
    readonly repository: GatedRepository,
    readonly caller: Workflow,
    readonly called: Workflow,
    readonly options: { id?: number; trigger?: TriggeringRun; fresh?: boolean } = {},
  ) {
    this.summary = path.join(mkdtempSync(path.join(repository.top, 'summary-')), 'summary.md');
  }

  get id(): number {
    return this.options.id ?? 1;
  }

  /**
   * `failure` when a job failed, `skipped` when every job was (GitHub's staff: "skipped applies to the conclusion
   * only if all jobs in the run were skipped", github.com/actions/github-script/issues/147), else `success`.
   */
  get conclusion(): TriggeringRun['conclusion'] {
    const results = Object.values(this.results).map((job) => job.result);
    if (results.includes('failure')) return 'failure';
    return results.every((result) => result === 'skipped') ? 'skipped' : 'success';
  }

  /** Every job of the caller, in the order written (each after the jobs it needs). */
  run(): this {
    for (const [id, job] of Object.entries(this.caller.jobs)) this.results[id] = this.callerJob(id, job);
    return this;
  }

  private get github(): Record<string, GithubValue> {
    const trigger = this.options.trigger;
    return {
      workspace: this.repository.dir,
      token: 'a-token',
      event: trigger ? { workflow_run: { id: trigger.id, conclusion: trigger.conclusion } } : {},
    };
  }

  private callerJob(id: string, job: Job): JobResult {
    const needs: Record<string, GithubValue> = {};
    for (const need of job.needs ?? []) needs[need] = this.results[need] as unknown as GithubValue;
    // No if: success(), every job it needs succeeded.
    const healthy = Object.values(needs).every((need) => (need as { result: string }).result === 'success');
    // failure(): a job before it failed, through the needs of the jobs it needs.
    const ancestors = new Set<string>();
    const visit = (of: string) => {
      for (const need of this.caller.jobs[of]!.needs ?? [])
        if (!ancestors.has(need)) {
          ancestors.add(need);
          visit(need);
        }
    };
    visit(id);
    const failure = [...ancestors].some((ancestor) => this.results[ancestor]!.result === 'failure');
    const context = { needs, github: this.github };
    if (job.if === undefined ? !healthy : !githubCondition(job.if, context, { failure, cancelled: false }))
      return { result: 'skipped', outputs: {} };
    if (job.steps) return this.stepsJob(id, job, { needs });
    const inputs: Record<string, GithubValue> = { upstream: '{}' };
    for (const [name, declared] of Object.entries(this.called.on.workflow_call?.inputs ?? {}))
      if (declared.default !== undefined) inputs[name] = declared.default;
    for (const [name, value] of Object.entries(job.with ?? {}))
      inputs[name] = typeof value === 'string' ? githubTemplate(value, context) : value;
    const jobs: Record<string, GithubValue> = {};
    for (const [name, called] of Object.entries(this.called.jobs)) {
      const calledNeeds: Record<string, GithubValue> = {};
      for (const need of called.needs ?? []) calledNeeds[need] = jobs[need]!;
      if (called.if !== undefined && !githubCondition(called.if, { needs: calledNeeds, inputs })) {
        jobs[name] = { result: 'skipped', outputs: {} };
        continue;
      }
      const done = this.stepsJob(`${id}/${name}`, called, { inputs });
      jobs[name] = done as unknown as GithubValue;
      if (done.result === 'failure') return { result: 'failure', outputs: {} };
    }
    const outputs: Record<string, string> = {};
    for (const [name, { value }] of Object.entries(this.called.on.workflow_call?.outputs ?? {}))
      outputs[name] = githubTemplate(value, { jobs });
    return { result: 'success', outputs };
  }

  /** A job of steps, in `context` (its `needs`, or the called workflow's `inputs`). */
  private stepsJob(name: string, job: Job, context: Record<string, GithubValue>): JobResult {
    if (this.options.fresh) this.repository.git('clean', '-fdxq');
    const github = this.github;
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(job.env ?? {})) env[key] = githubTemplate(value, { ...context, github });
    const defaultDir = (job['defaults'] as { run?: { 'working-directory'?: string } } | undefined)?.run?.[
      'working-directory'
    ];
    const defaults = defaultDir === undefined ? '.' : githubTemplate(defaultDir, context);
    const steps: Record<string, GithubValue> = {};
    this.logs[name] = '';
    for (const step of job.steps ?? []) {
      const here = { ...context, steps, github };
      if (step.if !== undefined && !githubCondition(step.if, here)) continue;
      if (step.uses !== undefined) {
        if (!this.artifactAction(name, step.uses, (step['with'] ?? {}) as Record<string, string>, here))
          return { result: 'failure', outputs: {} };
        continue;
      }
      if (step.run === undefined) continue;
      const output = path.join(this.repository.top, 'github-output');
      writeFileSync(output, '');
      const where = step['working-directory'] as string | undefined;
      const cwd = path.resolve(this.repository.dir, where ? githubTemplate(where, here) : defaults);
      const ran = spawnSync('bash', ['-e', '-c', githubTemplate(step.run, here)], {
        cwd,
        encoding: 'utf8',
        env: {
          ...process.env,
          ...env,
          GITHUB_OUTPUT: output,
          GITHUB_WORKSPACE: this.repository.dir,
          GITHUB_STEP_SUMMARY: this.summary,
          CHECKPOINT_DISABLE: '1',
          TF_IN_AUTOMATION: '1',
          NO_COLOR: '1',
        },
      });
      this.logs[name] += ran.stdout + ran.stderr;
      if (ran.status !== 0) return { result: 'failure', outputs: {} };
      const written: Record<string, string> = {};
      for (const line of readFileSync(output, 'utf8').split('\n')) {
        const eq = line.indexOf('=');
        if (eq > 0) written[line.slice(0, eq)] = line.slice(eq + 1);
      }
      if (step.id !== undefined) steps[step.id] = { outputs: written };
    }
    const outputs: Record<string, string> = {};
    for (const [key, value] of Object.entries(job.outputs ?? {})) outputs[key] = githubTemplate(value, { steps });
    return { result: 'success', outputs };
  }

  /**
   * actions/upload-artifact and download-artifact on the runs' folders (false: the step failed, as the action fails
   * on a file or an artifact that is not there); any other action (checkout, setup) does nothing here.
   */
  private artifactAction(
    job: string,
    uses: string,
    given: Record<string, string>,
    context: Record<string, GithubValue>,
  ): boolean {
    const value = (key: string) => (given[key] === undefined ? undefined : githubTemplate(given[key]!, context));
    const name = value('name')!;
    if (uses === 'actions/upload-artifact@v4') {
      const file = path.join(this.repository.dir, value('path')!);
      if (!existsSync(file)) {
        this.logs[job] += `upload-artifact: no file at ${value('path')}\n`;
        return value('if-no-files-found') !== 'error';
      }
      const folder = path.join(this.repository.top, 'artifacts', String(this.id), name);
      assert.ok(!existsSync(folder), `an artifact ${name} uploaded twice in run ${this.id}`);
      mkdirSync(folder, { recursive: true });
      cpSync(file, path.join(folder, path.basename(file)));
      return true;
    }
    if (uses === 'actions/download-artifact@v4') {
      const runId = value('run-id');
      if (runId !== undefined) assert.ok(value('github-token'), 'download-artifact from another run needs a token');
      const folder = path.join(this.repository.top, 'artifacts', runId ?? String(this.id), name);
      if (!existsSync(folder)) {
        this.logs[job] += `download-artifact: no artifact ${name} in run ${runId ?? this.id}\n`;
        return false;
      }
      const into = value('path') ?? this.repository.dir;
      for (const file of readdirSync(folder)) cpSync(path.join(folder, file), path.join(into, file));
      return true;
    }
    return true;
  }

  /** What Terrace said in a job (`module-app-api/plan`): its lines that name a module of the fixture. */
  said(job: string): string[] {
    return (this.logs[job] ?? '').split('\n').filter((line) => /^(app|net|obs|data)\/\w+: /.test(line));
  }
}

/** The jobs' results, by job id. */
export function resultsOf(run: WorkflowRun): Record<string, JobResult['result']> {
  return Object.fromEntries(Object.entries(run.results).map(([id, { result }]) => [id, result]));
}
