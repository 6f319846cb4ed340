import { readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Backend configuration files a root keeps in folders of its own, one per environment:
 * `backend/<env>.conf` (or `.hcl`, `.tfbackend`, `.backend`, or a name `backendConfigFiles` takes) and
 * `config/<env>/backend.hcl` (or `backend.conf`, `backend.tfbackend`).
 */
const NESTED_BACKEND_NAME = /\.(conf|hcl|tfbackend|backend)$/;
const CONFIG_BACKEND_NAME = /^backend\.(hcl|conf|tfbackend)$/;

export function nestedBackendFiles(
  prefix: string,
  subdirs: readonly string[],
  backendMatchers: readonly ((name: string) => boolean)[],
): string[] {
  const files: string[] = [];
  const names = (dir: string) => {
    try {
      return readdirSync(dir, { withFileTypes: true });
    } catch {
      return [];
    }
  };
  if (subdirs.includes(`${prefix}backend`)) {
    for (const entry of names(`${prefix}backend`)) {
      if (entry.isFile() && (NESTED_BACKEND_NAME.test(entry.name) || backendMatchers.some((m) => m(entry.name))))
        files.push(`${prefix}backend${path.sep}${entry.name}`);
    }
  }
  if (subdirs.includes(`${prefix}config`)) {
    for (const environment of names(`${prefix}config`)) {
      if (!environment.isDirectory()) continue;
      const folder = `${prefix}config${path.sep}${environment.name}`;
      for (const entry of names(folder))
        if (entry.isFile() && CONFIG_BACKEND_NAME.test(entry.name)) files.push(`${folder}${path.sep}${entry.name}`);
    }
  }
  return files;
}

/** The root folder a backend file in `backend/` or `config/<env>/` belongs to, by where it sits. */
export function nestedBackendOwner(file: string): string | undefined {
  const parent = path.dirname(file);
  if (path.basename(parent) === 'backend' && NESTED_BACKEND_NAME.test(path.basename(file))) return path.dirname(parent);
  const grandparent = path.dirname(parent);
  if (path.basename(grandparent) === 'config' && CONFIG_BACKEND_NAME.test(path.basename(file)))
    return path.dirname(grandparent);
  return undefined;
}
