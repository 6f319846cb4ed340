import path from 'node:path';
import picomatch from 'picomatch';
import { type EnvironmentConfig, environmentVarFiles } from '../config';
import type { ObjectValue, Value } from '../evaluation';
import type { ScannedDir } from './workspaceScan';

/**
 * Environments: what `terraform` is given in each place a root is deployed — variable values,
 * `-var-file`s, `-backend-config` files and a workspace. Named in `.terrace.yaml`, or found from the
 * file names teams give them: `prod.tfvars`, `prod.tfbackend`, `production.blue.backend`.
 * With one selected, a root reads its environment's files and values only, so holes in state
 * addresses get their values; with none, every backend file counts (the union of environments).
 */

/**
 * The environment a file belongs to by its name or place: `prod.tfvars`, `prod.tfbackend`,
 * `prod.network.backend`, `backend/prod.conf`, `config/prod/backend.hcl` → `prod`.
 */
export function environmentOfFile(file: string): string | undefined {
  const name = path.basename(file);
  // `config/prod/backend.hcl` and `backend/prod.conf`: the folder, or the name before its first dot.
  if (path.basename(path.dirname(path.dirname(file))) === 'config' && name.startsWith('backend.'))
    return path.basename(path.dirname(file));
  if (path.basename(path.dirname(file)) === 'backend' && !name.startsWith('.')) return name.split('.')[0];
  if (/\.tfvars(\.json)?$/.test(name)) return name.replace(/\.tfvars(\.json)?$/, '') || undefined;
  const parts = name.split('.');
  // `backend.hcl`, `backend.conf`: one file for every environment.
  if (parts.length < 2 || parts[0] === 'backend' || parts[0] === '') return undefined;
  if (parts.length === 2 && parts[1] !== 'tfbackend') return undefined;
  return parts[0];
}

/** Every environment: those configured, and those named by the workspace's tfvars and backend files. */
export function environmentNames(dirs: Iterable<ScannedDir>, configured: Readonly<Record<string, unknown>>): string[] {
  const names = new Set(Object.keys(configured));
  for (const dir of dirs) {
    for (const file of [...dir.environmentVarFiles, ...dir.backendFiles]) {
      const name = environmentOfFile(file);
      if (name) names.add(name);
    }
  }
  return [...names].sort();
}

/** One environment, resolved against the others: which of a root's files it reads, and its values. */
export interface Environment {
  name: string;
  variables: ReadonlyMap<string, Value>;
  workspace: string | undefined;
  /** The tfvars files (besides terraform.tfvars and *.auto.tfvars) and backend files a root reads here. */
  inputs(dir: ScannedDir): { varFiles: string[]; backendFiles: string[] };
}

export class UnknownEnvironmentError extends Error {
  constructor(
    readonly environment: string,
    readonly known: readonly string[],
  ) {
    super(
      `no environment '${environment}': ${
        known.length > 0 ? `the environments are ${known.join(', ')}` : 'none is configured or named by a file'
      }`,
    );
  }
}

export function resolveEnvironment(
  name: string,
  configured: Readonly<Record<string, EnvironmentConfig>>,
  known: readonly string[],
): Environment {
  if (!known.includes(name)) throw new UnknownEnvironmentError(name, known);
  const config = configured[name];
  const varFile = matcher(environmentVarFiles(name, configured));
  const owners = known.map((other) => ({ name: other, owns: backendOwner(other, configured[other]) }));
  const ownerOf = (file: string) => owners.find((owner) => owner.owns(file))?.name;
  return {
    name,
    variables: new Map(Object.entries((config?.variables ?? {}) as ObjectValue)),
    workspace: config?.workspace,
    inputs: (dir) => ({
      varFiles: dir.environmentVarFiles.filter((file) => varFile(path.basename(file))),
      // A backend file of another environment is left out; one of none (`backend.hcl`) is read everywhere.
      backendFiles: dir.backendFiles.filter((file) => {
        const owner = ownerOf(file);
        return owner === undefined || owner === name;
      }),
    }),
  };
}

function backendOwner(name: string, config: EnvironmentConfig | undefined): (file: string) => boolean {
  if (config?.backendConfigFiles) {
    const matches = matcher(config.backendConfigFiles);
    return (file) => matches(path.basename(file));
  }
  return (file) => environmentOfFile(file) === name;
}

function matcher(globs: readonly string[]): (name: string) => boolean {
  const matchers = globs.map((glob) => picomatch(glob, { dot: true }));
  return (name) => matchers.some((matches) => matches(name));
}
