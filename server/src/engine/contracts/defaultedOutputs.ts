import path from 'node:path';
import { keyName } from '../hcl';
import { UNIT_FILE } from '../terragrunt';
import type { ContractWorkspace } from './contractWorkspace';
import { isTrue } from './mockOutputs';
import type { StateSource } from './referenceReach';

/**
 * The outputs a read may name without its writer declaring them: those a `terraform_remote_state` block's
 * `defaults = { … }` gives, by their literal keys; a `dependency` block's `mock_outputs` keys when it has
 * `skip_outputs = true` (Terragrunt then gives the mocks as its outputs, whatever its code declares).
 */
export function defaultedOutputs(workspace: ContractWorkspace, source: StateSource): ReadonlySet<string> {
  if (source.via === 'dependency') return skippedOutputKeys(workspace, source.dir, source.name);
  if (source.via !== 'remote-state') return NONE;
  for (const file of workspace.dirOf(source.dir)?.tfFiles ?? []) {
    const block = workspace.factsOf(file)?.remoteStates.find((candidate) => candidate.name === source.name);
    if (!block) continue;
    const defaults = block.defaults;
    if (defaults?.kind !== 'object') return NONE;
    return new Set(defaults.items.flatMap(({ key }) => keyName(key)?.normalize('NFC') ?? []));
  }
  return NONE;
}

function skippedOutputKeys(workspace: ContractWorkspace, unitDir: string, name: string): ReadonlySet<string> {
  const block = workspace
    .factsOf(path.join(unitDir, UNIT_FILE))
    ?.terragrunt?.dependencies.find((candidate) => candidate.name === name);
  if (!block || !isTrue(block.skipOutputs)) return NONE;
  return new Set(block.mockOutputs.map((mock) => mock.name.normalize('NFC')));
}

const NONE: ReadonlySet<string> = new Set();
