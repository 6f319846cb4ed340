import type { ExecutionOptions } from '../config';

/** What a module's jobs run in its folder, and the folder its CI cache keeps. */
export interface JobCommands {
  /** Makes the units of a stack file (run in the stack's folder, before the others). */
  generateStack: string;
  init: string;
  plan: string;
  apply: string;
  /** The saved plan as JSON (`show -json`), for what it does to the outputs (a gated pipeline). */
  show: string;
  /** The state's outputs as JSON (`output -json`), before and after an apply (a gated pipeline). */
  outputs: string;
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
 * (`execution.terragrunt`), run in its folder. `planFile` is the plan file as one shell word, an
 * absolute path at the root of the checkout, `terraform-<slug>.tfplan` (the job slug's letters,
 * digits, `_` and `-`): the artifact that carries it from the plan job to the apply job names no
 * folder, whose `$`, glob characters, leading `!` or leading `.` the platforms would read as
 * variables, patterns, exclusions or hidden files. Terragrunt runs terraform in a copy
 * of the code under `.terragrunt-cache/`, which an absolute path does not depend on either.
 */
export function jobCommands(kind: 'module' | 'unit', execution: ExecutionOptions, planFile: string): JobCommands {
  if (kind === 'unit') {
    const terragrunt = execution.terragrunt;
    return {
      generateStack: `${terragrunt} stack generate`,
      init: [terragrunt, 'init', '-input=false', ...execution.initArgs].join(' '),
      plan: [terragrunt, 'plan', '-input=false', `-out=${planFile}`, ...execution.planArgs].join(' '),
      apply: `${terragrunt} apply -input=false ${planFile}`,
      show: `${terragrunt} show -json ${planFile}`,
      outputs: `${terragrunt} output -json`,
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
    plan: [binary, 'plan', '-input=false', `-out=${planFile}`, ...varFiles, ...execution.planArgs].join(' '),
    apply: `${binary} apply -input=false ${planFile}`,
    show: `${binary} show -json ${planFile}`,
    outputs: `${binary} output -json`,
    cacheDir: '.terraform/',
  };
}
