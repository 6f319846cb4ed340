import type { RunStateView } from '../../server/src/protocol';

/** How a module's run state is shown. */
export type RunDisplay = 'running' | 'failed' | 'drifted' | 'apply' | 'plan' | 'idle';

/** Most pressing first: a group shows the first of these that one of its modules is in. */
export const RUN_DISPLAYS: readonly RunDisplay[] = ['running', 'failed', 'drifted', 'apply', 'plan', 'idle'];

export const RUN_DISPLAY_NAMES: Record<RunDisplay, string> = {
  running: 'running',
  failed: 'plan failed',
  drifted: 'drifted',
  apply: 'apply needed',
  plan: 'plan needed',
  idle: 'idle',
};

export function runDisplay(view: RunStateView | undefined): RunDisplay | undefined {
  if (!view) return undefined;
  if (view.running) return 'running';
  if (view.state === 'PlanNeeded' && /fail|stopped/i.test(view.reason)) return 'failed';
  if (view.drifted) return 'drifted';
  if (view.state === 'ApplyNeeded') return 'apply';
  if (view.state === 'PlanNeeded') return 'plan';
  return 'idle';
}
