import { execFile } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The terraform (or tofu, or terragrunt) binary could not be found or does not run: one clear error before anything starts. */
export class TerraformNotFoundError extends Error {
  constructor(
    message: string,
    /** Which one: its setting is where to fix it. */
    readonly tool: 'terraform' | 'terragrunt' = 'terraform',
  ) {
    super(message);
  }
}

export interface TerraformBinary {
  /** Absolute path. */
  path: string;
  /** `Terraform v1.11.4` or `OpenTofu v1.9.0`: the first line of `version`. */
  version: string;
}

/**
 * Finds the binary a run uses: `binary` is an absolute (or relative) path, or a name looked up on
 * `PATH` (`terraform`, `tofu`, `terragrunt`), and it must answer `versionArgs`. `setting` names
 * where the value came from, and `neededBy` what needs it, for the message.
 */
export async function resolveTerraformBinary(
  binary: string,
  env: NodeJS.ProcessEnv = process.env,
  setting = 'terrace.terraformPath or execution.binary',
  versionArgs: readonly string[] = ['version'],
  neededBy?: string,
  tool: TerraformNotFoundError['tool'] = 'terraform',
): Promise<TerraformBinary> {
  const found = locateBinary(binary, env);
  const need = neededBy ? `, needed by ${neededBy}` : '';
  if (!found)
    throw new TerraformNotFoundError(
      isPath(binary)
        ? `${binary} does not exist or is not executable (set by ${setting})${need}`
        : `${binary} was not found on PATH${need}; install it or set ${setting} to its path`,
      tool,
    );
  try {
    const { stdout } = await run(found, [...versionArgs], { env, timeout: 30_000 });
    return { path: found, version: stdout.split('\n')[0]!.trim() };
  } catch (error) {
    throw new TerraformNotFoundError(
      `${found} did not answer '${versionArgs.join(' ')}': ${error instanceof Error ? error.message : String(error)}`,
      tool,
    );
  }
}

/** Where `binary` is, without running it: a path as given (resolved from here), or a name looked up on `env`'s PATH. */
export function locateBinary(binary: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return isPath(binary) ? checkFile(path.resolve(binary)) : onPath(binary, env);
}

/** A path (`./bin/terraform`, `/opt/tofu`), not a name to look up on PATH. */
export function isPath(binary: string): boolean {
  return binary.includes('/') || binary.includes(path.sep);
}

function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = checkFile(path.join(dir, name));
    if (candidate) return candidate;
  }
  return undefined;
}

function checkFile(file: string): string | undefined {
  try {
    if (!statSync(file).isFile()) return undefined;
    accessSync(file, constants.X_OK);
    return file;
  } catch {
    return undefined;
  }
}
