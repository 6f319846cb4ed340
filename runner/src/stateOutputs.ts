import { createHash } from 'node:crypto';
import type { OutputChange } from '../../server/src/engine/run';

/**
 * A state's root outputs as `terraform output -json` prints them, each value kept only as a hash, in memory: what
 * an apply changed is told by name and kind, and no value, sensitive or not, leaves the process.
 */
export type OutputHashes = ReadonlyMap<string, string>;

/**
 * The hashes of `terraform output -json`'s values, by output name (none for a state that has no outputs yet);
 * undefined when it is not that JSON.
 */
export function outputHashes(json: string): OutputHashes | undefined {
  let outputs: Record<string, { value?: unknown }>;
  try {
    outputs = JSON.parse(json) as Record<string, { value?: unknown }>;
  } catch {
    return undefined;
  }
  if (typeof outputs !== 'object' || outputs === null) return undefined;
  const hashes = new Map<string, string>();
  for (const [name, output] of Object.entries(outputs ?? {}))
    hashes.set(
      name,
      createHash('sha256')
        .update(JSON.stringify(output?.value ?? null))
        .digest('hex'),
    );
  return hashes;
}

/** What an apply did to each output: the same value, another, a new output, or one gone. */
export function outputChanges(before: OutputHashes, after: OutputHashes): Record<string, OutputChange> {
  const changes: Record<string, OutputChange> = {};
  for (const [name, hash] of after) {
    const was = before.get(name);
    changes[name] = was === undefined ? 'added' : was === hash ? 'unchanged' : 'changed';
  }
  for (const name of before.keys()) if (!after.has(name)) changes[name] = 'removed';
  return changes;
}
