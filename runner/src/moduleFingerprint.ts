import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { folderRelative } from '../../server/src/engine/evaluation';

/** The files whose content a plan depends on: Terraform sources, variables, backend settings (`.hcl` ones too), provider locks, Terragrunt configurations. */
const PLAN_INPUT = /(\.tf|\.tf\.json|\.tfvars|\.tfvars\.json|\.tfbackend|\.hcl)$/;

/**
 * The state of a module's files, as one hash: every plan input in the module's folder and in the
 * folders of the local child modules it calls (not their subfolders), named relative to the
 * module. A plan is current while its module's fingerprint is unchanged.
 */
export function moduleFingerprint(moduleDir: string, sourceDirs: readonly string[] = []): string {
  const hash = createHash('sha256');
  const dirs = [...new Set([moduleDir, ...sourceDirs])].sort();
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isFile() && PLAN_INPUT.test(entry.name))
        .map((entry) => entry.name)
        .sort();
    } catch {
      names = [];
    }
    for (const name of names) {
      const file = path.join(dir, name);
      let content: Buffer;
      try {
        content = readFileSync(file);
      } catch {
        continue;
      }
      hash.update(folderRelative(moduleDir, file));
      hash.update('\0');
      hash.update(createHash('sha256').update(content).digest());
    }
  }
  return hash.digest('hex');
}

/** The sha256 of a file (a saved plan), or undefined when it cannot be read. */
export function fileChecksum(file: string): string | undefined {
  try {
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } catch {
    return undefined;
  }
}
