import type { ConfigRecord, ExecutionOptions, GithubOptions } from '../config';
import { jobCommands } from './jobCommands';
import {
  type CiFile,
  jobNames,
  modulesByLevel,
  type PipelinePlan,
  type PlannedModule,
  shellWord,
} from './pipelinePlan';
import { yamlConstant } from './pipelineYaml';

/** The id of the single job of a workflow with nothing to do. */
export const GITHUB_NO_CHANGES_JOB = 'no-changes';

/**
 * The GitHub Actions workflow of a plan, in a stable key order: per module a plan job and an
 * apply job; a plan job `needs` the apply jobs of its own dependencies, an apply job its own
 * plan. The plan file is uploaded as an artifact and downloaded by the apply job, which runs in
 * an `environment` (whose protection rules are GitHub's manual gate). Each module's jobs share a
 * concurrency group, so two runs never touch one state at once.
 */
export function githubWorkflow(
  plan: PipelinePlan,
  github: GithubOptions,
  execution: ExecutionOptions,
  noChanges: string,
): CiFile {
  const head: ConfigRecord = {
    name: github.name,
    on: github.on,
    permissions: github.permissions,
    env: { TF_IN_AUTOMATION: 'true', ...execution.env, ...github.env },
  };
  if (plan.modules.length === 0) {
    const job = {
      name: 'No module changed',
      'runs-on': github.runsOn,
      steps: [{ run: `echo ${shellWord(noChanges)}` }],
    };
    return { head, jobsKey: 'jobs', jobs: [[GITHUB_NO_CHANGES_JOB, job]] };
  }
  return { head, jobsKey: 'jobs', jobs: moduleJobs(plan, github, execution) };
}

/** Per level, the plan jobs then the apply jobs, made one at a time as they are written. */
function* moduleJobs(
  plan: PipelinePlan,
  github: GithubOptions,
  execution: ExecutionOptions,
): Generator<[string, ConfigRecord]> {
  const apply = !github.planOnly;
  // The steps every job repeats, written once by the YAML writer and reused (copies: constants are frozen).
  const checkout = yamlConstant({ uses: 'actions/checkout@v4' });
  const setup = (github.setupSteps ?? defaultSetupSteps(execution.binary)).map((step) =>
    yamlConstant(structuredClone(step)),
  );
  const steps = { module: kindSteps('module', execution), unit: kindSteps('unit', execution) };
  const namesOf = jobNames(plan);

  for (const { modules } of modulesByLevel(plan)) {
    for (const module of modules) {
      const names = namesOf.get(module.id)!;
      const own = steps[module.kind];
      const needs = module.dependencies.map((dep) => (apply ? namesOf.get(dep)!.apply : namesOf.get(dep)!.plan));
      yield [
        names.plan,
        {
          name: `plan ${module.id}`,
          'runs-on': github.runsOn,
          ...(needs.length > 0 ? { needs } : {}),
          concurrency: { group: names.lock, 'cancel-in-progress': false },
          env: module.variables,
          defaults: { run: { 'working-directory': module.path } },
          steps: [
            checkout,
            ...setup,
            ...own.setup,
            ...generateStack(module, execution),
            own.init,
            own.plan,
            {
              name: 'Upload the plan',
              uses: 'actions/upload-artifact@v4',
              with: { name: names.plan, path: joinPath(module.path, 'plan.tfplan'), 'retention-days': 7 },
            },
          ],
        },
      ];
    }
    if (!apply) continue;
    for (const module of modules) {
      const names = namesOf.get(module.id)!;
      const own = steps[module.kind];
      const environment = github.autoApprove ? undefined : environmentName(github.environment, module);
      yield [
        names.apply,
        {
          name: `apply ${module.id}`,
          'runs-on': github.runsOn,
          needs: [names.plan],
          ...(environment ? { environment } : {}),
          concurrency: { group: names.lock, 'cancel-in-progress': false },
          env: module.variables,
          defaults: { run: { 'working-directory': module.path } },
          steps: [
            checkout,
            ...setup,
            {
              name: 'Download the plan',
              uses: 'actions/download-artifact@v4',
              with: { name: names.plan, path: module.path },
            },
            ...own.setup,
            ...generateStack(module, execution),
            own.init,
            own.apply,
          ],
        },
      ];
    }
  }
}

/** The init, plan and apply steps of a module or a unit; a unit's job installs Terragrunt first. */
function kindSteps(kind: 'module' | 'unit', execution: ExecutionOptions) {
  const commands = jobCommands(kind, execution);
  return {
    setup: kind === 'unit' && execution.terragrunt === 'terragrunt' ? [TERRAGRUNT_SETUP] : [],
    init: yamlConstant({ name: 'Init', run: commands.init }),
    plan: yamlConstant({ name: 'Plan', run: commands.plan }),
    apply: yamlConstant({ name: 'Apply', run: commands.apply }),
  };
}

/** A unit of a stack file is made first, in the stack's folder (the job's own folder exists only after). */
function generateStack(module: PlannedModule, execution: ExecutionOptions): ConfigRecord[] {
  if (module.stackPath === undefined) return [];
  return [
    {
      name: 'Generate the stack',
      run: jobCommands('unit', execution).generateStack,
      'working-directory': module.stackPath,
    },
  ];
}

/** Terragrunt has no official setup action: its release binary, installed on the runner's PATH. */
const TERRAGRUNT_SETUP = yamlConstant({
  name: 'Install Terragrunt',
  run: 'sudo curl -fsSL -o /usr/local/bin/terragrunt https://github.com/gruntwork-io/terragrunt/releases/latest/download/terragrunt_linux_amd64 && sudo chmod +x /usr/local/bin/terragrunt',
});

/** The official setup action of the binary, without the wrapper that rewrites its output. */
function defaultSetupSteps(binary: ExecutionOptions['binary']): ConfigRecord[] {
  return binary === 'tofu'
    ? [{ uses: 'opentofu/setup-opentofu@v1', with: { tofu_wrapper: false } }]
    : [{ uses: 'hashicorp/setup-terraform@v3', with: { terraform_wrapper: false } }];
}

/** `{segment}` placeholders replaced by the module's segments (`{id}` is the module id). */
function environmentName(template: string | undefined, module: PlannedModule): string | undefined {
  if (template === undefined) return undefined;
  return template.replace(/\{([\w-]+)\}/g, (whole, name: string) =>
    name === 'id' ? module.id : (module.segments[name] ?? whole),
  );
}

function joinPath(dir: string, name: string): string {
  return dir === '.' ? name : `${dir}/${name}`;
}
