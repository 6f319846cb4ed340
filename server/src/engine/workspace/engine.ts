import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Engine } from '../config';

export type { Engine };

/** Files that say a workspace is OpenTofu's by their name alone: the version managers' pins. */
const TOFU_VERSION_FILES: ReadonlySet<string> = new Set(['.opentofu-version', '.tofu-version']);

export function isTofuVersionFile(name: string): boolean {
  return TOFU_VERSION_FILES.has(name);
}

/** `.tofu` and `.tofu.json`: configuration files only OpenTofu reads. */
export function isTofuFile(name: string): boolean {
  return name.endsWith('.tofu') || name.endsWith('.tofu.json');
}

/** `.tf` and `.tf.json`: configuration files both tools read. */
export function isTerraformFile(name: string): boolean {
  return name.endsWith('.tf') || name.endsWith('.tf.json');
}

/** A module's configuration file as one of the two tools reads it: `.tf`, `.tf.json`, `.tofu`, `.tofu.json`. */
export function isConfigurationFile(name: string): boolean {
  return isTerraformFile(name) || isTofuFile(name);
}

/** Whether a lock file's providers come from OpenTofu's registry (`tofu init` writes their addresses in full). */
export function isTofuLockFile(file: string): boolean {
  try {
    return readFileSync(file, 'utf8').includes('"registry.opentofu.org/');
  } catch {
    return false;
  }
}

/**
 * The workspace's engine: as configured, else OpenTofu when it has `.tofu` files or any other sign of
 * OpenTofu (a version pin, a lock file from its registry), else Terraform.
 */
export function decideEngine(configured: Engine | undefined, hasTofuFiles: boolean, tofuSigns: number): Engine {
  if (configured !== undefined) return configured;
  return hasTofuFiles || tofuSigns > 0 ? 'tofu' : 'terraform';
}

/**
 * The configuration files of one folder that `engine` reads, sorted: Terraform reads `.tf` and
 * `.tf.json`; OpenTofu reads `.tofu` and `.tofu.json` too, and where `x.tofu` and `x.tf` (or
 * `x.tofu.json` and `x.tf.json`) both exist, the `.tofu` file only.
 */
export function engineFiles(terraformFiles: readonly string[], tofuFiles: readonly string[], engine: Engine): string[] {
  if (engine === 'terraform' || tofuFiles.length === 0) return [...terraformFiles];
  const shadowed = new Set(tofuFiles.map((file) => terraformName(file)));
  return [...terraformFiles.filter((file) => !shadowed.has(file)), ...tofuFiles].sort();
}

/** The `.tf` file a `.tofu` file replaces: `main.tofu` → `main.tf`, `main.tofu.json` → `main.tf.json`. */
function terraformName(file: string): string {
  const name = path.basename(file).replace(/\.tofu(\.json)?$/, (_, json: string | undefined) => `.tf${json ?? ''}`);
  return path.join(path.dirname(file), name);
}
