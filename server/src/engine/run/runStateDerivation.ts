import { describeCounts, type PlanCounts } from './planSummary';

/**
 * The run states of a workspace's modules (after burrito's), persisted in `.terrace/state.json`:
 * per module the last plan (time, commit, exit code, plan checksum, counts, the fingerprint of
 * its files) and the last apply (time, checksum of the plan it applied). From these, and the
 * module's files now, a module is:
 *
 * - **Idle**: its last plan showed no changes (or its changes were applied) and is current;
 * - **PlanNeeded**: never planned, its files changed since, the plan failed, a dependency was
 *   applied since, or the plan is older than the maximum age;
 * - **ApplyNeeded**: its last plan has changes that were not applied.
 */
export type RunStateName = 'Idle' | 'PlanNeeded' | 'ApplyNeeded';

/** Who holds a module's lock: the run using terraform on it right now. */
export interface LockOwner {
  pid: number;
  hostname: string;
  /** What holds it: `terrace plan`, `Terrace: Run Plans`, … */
  command: string;
  /** ISO time the lock was taken. */
  since: string;
  /** The process group of the terraform at work on the module, once one runs: while any process of it lives, the lock holds. */
  group?: number;
}

export interface PlanRecord {
  /** ISO time the plan finished. */
  time: string;
  runId: string;
  /** `plan`, or `drift` for a drift check. */
  kind: 'plan' | 'drift';
  /** HEAD when it ran; absent outside git. */
  commit?: string;
  /** terraform plan -detailed-exitcode: 0 no changes, 2 changes, 1 error; null when stopped. */
  exitCode: number | null;
  /** The saved plan, relative to the workspace, and its sha256. */
  planFile?: string;
  checksum?: string;
  counts?: PlanCounts;
  /** `moduleFingerprint` of the files the plan read. */
  fingerprint: string;
  /** The full log, relative to the workspace. */
  logFile: string;
  /** A drift check found changes while the files were those of the last clean plan or apply. */
  drifted?: boolean;
}

export interface ApplyRecord {
  time: string;
  runId: string;
  /** The checksum of the saved plan that was applied. */
  planChecksum: string;
  exitCode: number | null;
  logFile: string;
}

export interface InitRecord {
  time: string;
  /** sha256 of `.terraform.lock.hcl` after init; null when there is none. */
  lockFileHash: string | null;
}

/**
 * A run's gate decided the module without running terraform in it: unaffected (no output it reads changes in
 * its upstreams' plans, or in their applies) or stale until an upstream applies.
 */
export interface DecisionRecord {
  time: string;
  runId: string;
  status: 'unaffected' | 'stale';
  /** `reads cidr, vpc_id of net/vpc: unchanged by its apply`, `after net/vpc applies: reads cidr (changed)`. */
  reason: string;
  /** `moduleFingerprint` of its files then: the decision holds while they are the same. */
  fingerprint: string;
}

export interface ModuleRecord {
  lastPlan?: PlanRecord;
  lastApply?: ApplyRecord;
  init?: InitRecord;
  lastDecision?: DecisionRecord;
}

export interface RunStateFile {
  version: 1;
  modules: Record<string, ModuleRecord>;
}

/** The derived state of a module, as shown in hovers, code lenses, quick picks and the graph. */
export interface ModuleRunState {
  state: RunStateName;
  /** Why, in a few words: `files changed since the last plan`, `1 to add, 0 to change, 0 to destroy`. */
  reason: string;
  counts?: PlanCounts;
  /** ISO times. */
  plannedAt?: string;
  appliedAt?: string;
  drifted?: boolean;
  /** Who is running terraform on it right now. */
  running?: LockOwner;
  /** The last run decided it without running it, since its last plan, and its files are those of then. */
  decided?: { status: DecisionRecord['status']; reason: string; at: string };
}

export interface CurrentFiles {
  /** `moduleFingerprint` of the module now. */
  fingerprint: string;
  now?: number;
  /** Plans older than this need planning again; 0 or undefined: no limit. */
  planMaxAgeMs?: number;
  /** The records of the module's direct dependencies (an apply there after this plan makes it stale). */
  dependencies?: { id: string; record: ModuleRecord | undefined }[];
  running?: LockOwner;
}

/** Idle, PlanNeeded or ApplyNeeded, with the reason (see the file comment for the rules). */
export function deriveRunState(record: ModuleRecord | undefined, current: CurrentFiles): ModuleRunState {
  const plan = record?.lastPlan;
  const decision = currentDecision(record, current);
  const running = {
    ...(current.running ? { running: current.running } : {}),
    ...(decision ? { decided: { status: decision.status, reason: decision.reason, at: decision.time } } : {}),
  };
  if (decision?.status === 'stale') return { state: 'PlanNeeded', reason: `stale ${decision.reason}`, ...running };
  if (!plan) return { state: 'PlanNeeded', reason: 'never planned', ...running };
  const times = {
    plannedAt: plan.time,
    ...(record?.lastApply ? { appliedAt: record.lastApply.time } : {}),
    ...(plan.counts ? { counts: plan.counts } : {}),
    ...running,
  };
  if (plan.exitCode !== 0 && plan.exitCode !== 2)
    return {
      state: 'PlanNeeded',
      reason: plan.exitCode === null ? 'the last plan was stopped' : 'the last plan failed',
      ...times,
    };
  if (plan.fingerprint !== current.fingerprint)
    return { state: 'PlanNeeded', reason: 'files changed since the last plan', ...times };
  const planTime = Date.parse(plan.time);
  // An apply upstream that a later run found changes nothing it reads leaves its plan current.
  const decidedTime = decision ? Math.max(planTime, Date.parse(decision.time)) : planTime;
  const appliedUpstream = (current.dependencies ?? [])
    .filter(
      ({ record: dep }) =>
        dep?.lastApply && dep.lastApply.exitCode === 0 && Date.parse(dep.lastApply.time) > decidedTime,
    )
    .map(({ id }) => id)
    .sort();
  if (appliedUpstream.length > 0)
    return { state: 'PlanNeeded', reason: `${appliedUpstream.join(', ')} applied since the last plan`, ...times };
  const maxAge = current.planMaxAgeMs ?? 0;
  if (maxAge > 0 && (current.now ?? Date.now()) - planTime > maxAge)
    return { state: 'PlanNeeded', reason: `the last plan is older than ${formatAge(maxAge)}`, ...times };
  if (plan.exitCode === 0) return { state: 'Idle', reason: 'no changes', ...times };
  if (record?.lastApply && record.lastApply.exitCode === 0 && record.lastApply.planChecksum === plan.checksum)
    return { state: 'Idle', reason: 'plan applied', ...times };
  const drifted = plan.drifted ? { drifted: true } : {};
  return {
    state: 'ApplyNeeded',
    reason: `${plan.drifted ? 'drifted: ' : ''}${describeCounts(plan.counts ?? { add: 0, change: 0, destroy: 0, import: 0, outputs: 0 })}`,
    ...times,
    ...drifted,
  };
}

/** The last decision, when it is newer than the last plan and the module's files are those it was made on. */
function currentDecision(record: ModuleRecord | undefined, current: CurrentFiles): DecisionRecord | undefined {
  const decision = record?.lastDecision;
  if (!decision || decision.fingerprint !== current.fingerprint) return undefined;
  const plan = record?.lastPlan;
  return !plan || Date.parse(decision.time) >= Date.parse(plan.time) ? decision : undefined;
}

export interface PlanCheck {
  fingerprint: string;
  /** HEAD now (undefined outside git). */
  commit: string | undefined;
  /** sha256 of the saved plan file now (undefined when it is gone). */
  planChecksum: string | undefined;
  /** A plan older than this may not be applied; 0 or undefined: no limit. */
  planMaxAgeMs?: number;
  now?: number;
}

/**
 * Why a module's saved plan may not be applied, or undefined when it may: it must have changes
 * not applied yet, and its checksum, the commit and the module's files must be those of when it
 * was made.
 */
export function stalePlanReason(record: ModuleRecord | undefined, now: PlanCheck): string | undefined {
  const plan = record?.lastPlan;
  if (!plan) return 'never planned';
  if (plan.exitCode === 0) return 'the last plan has no changes';
  if (plan.exitCode !== 2 || !plan.checksum) return 'the last plan did not succeed';
  if (record?.lastApply && record.lastApply.exitCode === 0 && record.lastApply.planChecksum === plan.checksum)
    return 'the saved plan was applied already';
  if (now.planChecksum === undefined) return 'the saved plan file is gone';
  if (now.planChecksum !== plan.checksum) return 'the saved plan file changed since it was made (checksum)';
  if ((plan.commit ?? '') !== (now.commit ?? ''))
    return `the commit changed since the plan (${short(plan.commit)} → ${short(now.commit)})`;
  if (plan.fingerprint !== now.fingerprint) return 'the module’s files changed since the plan';
  const maxAge = now.planMaxAgeMs ?? 0;
  if (maxAge > 0 && (now.now ?? Date.now()) - Date.parse(plan.time) > maxAge)
    return `the plan is older than ${formatAge(maxAge)}`;
  return undefined;
}

function short(commit: string | undefined): string {
  return commit ? commit.slice(0, 8) : 'none';
}

export function formatAge(ms: number): string {
  const minutes = ms / 60_000;
  if (minutes < 60) return `${trim(minutes)} min`;
  const hours = minutes / 60;
  return hours < 48 ? `${trim(hours)} h` : `${trim(hours / 24)} days`;
}

function trim(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}
