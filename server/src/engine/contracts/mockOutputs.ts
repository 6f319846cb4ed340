import path from 'node:path';
import type { Expr, Range } from '../hcl';
import type { MatchedEdge } from '../state';
import { UNIT_FILE } from '../terragrunt';
import type { EvaluatedModule } from '../workspace';
import type { ContractWorkspace } from './contractWorkspace';

/** A key of a unit's `dependency` block's `mock_outputs`: an output the dependency's code is expected to declare. */
export interface MockOutput {
  reader: string;
  writer: string;
  file: string;
  name: string;
  /** The key as written, its quotes included when it has them. */
  range: Range;
  /** `skip_outputs = true`: Terragrunt gives the mocks in place of the dependency's outputs. */
  skipOutputs: boolean;
}

/** The `mock_outputs` keys of a unit's `dependency` blocks that lead to a unit of the workspace (`edges`: the unit's). */
export function mockOutputsOf(
  workspace: ContractWorkspace,
  module: EvaluatedModule,
  edges: readonly MatchedEdge[],
): MockOutput[] {
  if (module.kind !== 'unit') return [];
  const mocks: MockOutput[] = [];
  const file = path.join(module.dir, UNIT_FILE);
  for (const block of workspace.factsOf(file)?.terragrunt?.dependencies ?? []) {
    const edge = edges.find(
      (candidate) => candidate.reference.block === 'dependency' && candidate.reference.name === block.name,
    );
    if (!edge) continue;
    const skipOutputs = isTrue(block.skipOutputs);
    for (const mock of block.mockOutputs)
      mocks.push({
        reader: module.id,
        writer: edge.to,
        file,
        name: mock.name.normalize('NFC'),
        range: mock.range,
        skipOutputs,
      });
  }
  return mocks;
}

/** `skip_outputs = true`, written so. */
export function isTrue(expr: Expr | undefined): boolean {
  return expr?.kind === 'literal' && expr.value === true;
}
