import type { OutputContracts } from '../contracts';
import type { EngineDiagnostic } from './diagnostics';

/**
 * The contracts' problems as diagnostics, added to the workspace's by file: a read of an output its
 * writer does not declare (an error through an exact edge, a warning through an inferred or ambiguous
 * one, whose writer may not be the state read), a `mock_outputs` key the dependency does not declare.
 * Each points at the writer's outputs.
 */
export function addContractDiagnostics(contracts: OutputContracts, byFile: Map<string, EngineDiagnostic[]>): void {
  for (const problem of contracts.problems) {
    const inferred = problem.code === 'missing-output' && problem.severity === 'warning';
    const diagnostic: EngineDiagnostic = {
      range: problem.range,
      severity: problem.severity,
      code: problem.code,
      message: `${problem.message}${inferred ? ' (the writer is inferred: the state read may be another)' : ''}`,
      related: problem.writers.flatMap((writer) => {
        const declared = contracts.outputs.get(writer)?.[0];
        return declared
          ? [{ location: { file: declared.file, range: declared.nameRange }, message: `the outputs of ${writer}` }]
          : [];
      }),
    };
    const list = byFile.get(problem.file);
    if (list) list.push(diagnostic);
    else byFile.set(problem.file, [diagnostic]);
  }
}
