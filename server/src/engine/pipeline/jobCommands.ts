import type { ExecutionOptions } from '../config';

/** What a module's jobs run in its folder, and the folder its CI cache keeps. */
export interface JobCommands {
  /** Makes the units of a stack file (run in the stack's folder, before the others). */
  generateStack: string;
  init: string;
  plan: string;
  apply: string;
  cacheDir: string;
}

/**
 * The commands of a Terraform root module (`terraform` or `tofu`) or of a Terragrunt unit
 * (`execution.terragrunt`). Terragrunt runs terraform in a copy of the code under
 * `.terragrunt-cache/`, where a relative plan file would be written: the unit's plan file is
 * given as an absolute path, so that the apply job finds it where the plan job's artifact put it.
 */
export function jobCommands(kind: 'module' | 'unit', execution: ExecutionOptions): JobCommands {
  if (kind === 'unit') {
    const terragrunt = execution.terragrunt;
    return {
      generateStack: `${terragrunt} stack generate`,
      init: [terragrunt, 'init', '-input=false', ...execution.initArgs].join(' '),
      plan: [terragrunt, 'plan', '-input=false', '-out="$PWD/plan.tfplan"', ...execution.planArgs].join(' '),
      apply: `${terragrunt} apply -input=false "$PWD/plan.tfplan"`,
      cacheDir: '.terragrunt-cache/',
    };
  }
  const binary = execution.binary;
  return {
    generateStack: '',
    init: [binary, 'init', '-input=false', ...execution.initArgs].join(' '),
    plan: [binary, 'plan', '-input=false', '-out=plan.tfplan', ...execution.planArgs].join(' '),
    apply: `${binary} apply -input=false plan.tfplan`,
    cacheDir: '.terraform/',
  };
}
