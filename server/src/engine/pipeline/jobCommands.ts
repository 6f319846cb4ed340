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
 * `-var-file` for each of the environment's tfvars files (names or globs) that the module's folder
 * holds: one line of shell for all modules, as not every root keeps every environment's file.
 */
function varFileArguments(varFiles: readonly string[]): string[] {
  if (varFiles.length === 0) return [];
  const names = varFiles.map(shellWord).join(' ');
  return [`$(for f in ${names}; do [ -f "$f" ] && printf ' -var-file=%s' "$f"; done)`];
}

/** A name or glob as one shell word: quoted but for its glob characters, which the loop expands. */
function shellWord(name: string): string {
  return name
    .split(/([*?[\]])/)
    .map((part) => (/^([*?[\]]|[\w./-]*)$/.test(part) ? part : `'${part.replaceAll("'", "'\\''")}'`))
    .join('');
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
  const varFiles = varFileArguments(execution.varFiles);
  // OpenTofu evaluates its backend with the variables: `tofu init` needs the environment's values too.
  const initVarFiles = binary === 'tofu' ? varFiles : [];
  return {
    generateStack: '',
    init: [binary, 'init', '-input=false', ...initVarFiles, ...execution.initArgs].join(' '),
    plan: [binary, 'plan', '-input=false', '-out=plan.tfplan', ...varFiles, ...execution.planArgs].join(' '),
    apply: `${binary} apply -input=false plan.tfplan`,
    cacheDir: '.terraform/',
  };
}
