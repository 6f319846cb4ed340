import type { AnalysisResult, WorkspaceAnalysis } from '../engine/analysis';
import type { OutputContracts } from '../engine/contracts';
import { messagesInTurn } from './messagesInTurn';
import { stillWriting } from './outgoingMessages';

/**
 * How long the contracts' work holds the server's one thread before the messages that came meanwhile are
 * read: a request waits at most about this long behind it.
 */
const SLICE_MS = 10;

const running = new WeakMap<WorkspaceAnalysis, { result: AnalysisResult; contracts: Promise<OutputContracts> }>();

/**
 * An analysis's contracts between states, worked out in slices between which the server answers what is
 * asked meanwhile (at 3,000 units they take 0.2 s, right when the first problems bring the graph's and the
 * hovers' requests). One run per analysis result, shared by all that wait for it; `contracts()` asked
 * synchronously meanwhile finishes the work at once, and this run ends with its answer.
 */
export function contractsInTurn(analysis: WorkspaceAnalysis): Promise<OutputContracts> {
  const result = analysis.result();
  const kept = running.get(analysis);
  if (kept?.result === result) return kept.contracts;
  const contracts = inSlices(analysis.contractSteps());
  running.set(analysis, { result, contracts });
  return contracts;
}

async function inSlices(steps: Generator<void, OutputContracts, void>): Promise<OutputContracts> {
  for (;;) {
    // An answer on its way out (the graph) goes out whole first: it is written only between slices.
    while (stillWriting()) await new Promise<void>((resolve) => setTimeout(resolve, 1));
    const sliceEnd = performance.now() + SLICE_MS;
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) return step.value;
      if (performance.now() >= sliceEnd) break;
    }
    await messagesInTurn();
  }
}
