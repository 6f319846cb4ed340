/**
 * What a saved plan would do, from `terraform show -json <plan>`: the counts Terraform prints as
 * "Plan: N to add, M to change, K to destroy." (a replacement counts as one add and one
 * destroy), imports, and whether outputs change.
 */
export interface PlanCounts {
  add: number;
  change: number;
  destroy: number;
  import: number;
  /** Root outputs that would change (a plan can have only these: "Changes to Outputs"). */
  outputs: number;
}

/**
 * What a plan does to one root output, by its name: the same value (`unchanged`), another known one
 * (`changed`), a new output (`added`), one gone (`removed`), or a value known only after apply (`unknown`).
 * Only the kind leaves the plan: never a value, sensitive or not.
 */
export type OutputChange = 'unchanged' | 'changed' | 'added' | 'removed' | 'unknown';

export interface PlanSummary {
  counts: PlanCounts;
  /** Each resource with an action, `address: create` / `update` / `delete, create` …, sorted. */
  resources: { address: string; actions: string[] }[];
  /** Each root output the plan knows, with what it does to it; names and kinds only. */
  outputs: Record<string, OutputChange>;
}

export const NO_CHANGES: PlanCounts = { add: 0, change: 0, destroy: 0, import: 0, outputs: 0 };

interface PlanJson {
  resource_changes?: { address?: string; change?: { actions?: string[]; importing?: unknown } }[];
  output_changes?: Record<string, { actions?: string[]; after_unknown?: unknown }>;
}

export function summarizePlanJson(text: string): PlanSummary {
  const plan = JSON.parse(text) as PlanJson;
  const counts: PlanCounts = { ...NO_CHANGES };
  const resources: PlanSummary['resources'] = [];
  for (const change of plan.resource_changes ?? []) {
    const actions = change.change?.actions ?? [];
    if (change.change?.importing) counts.import++;
    if (actions.includes('create')) counts.add++;
    if (actions.includes('delete')) counts.destroy++;
    if (actions.includes('update')) counts.change++;
    if (actions.some((action) => action !== 'no-op' && action !== 'read'))
      resources.push({ address: change.address ?? '?', actions });
  }
  const outputs: Record<string, OutputChange> = {};
  for (const [name, output] of Object.entries(plan.output_changes ?? {})) {
    const change = outputChange(output.actions ?? [], output.after_unknown);
    outputs[name] = change;
    if (change !== 'unchanged') counts.outputs++;
  }
  resources.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  return { counts, resources, outputs };
}

/** An output's change from its actions and `after_unknown` (true, or an object or list holding a true somewhere). */
function outputChange(actions: readonly string[], afterUnknown: unknown): OutputChange {
  if (actions.length === 0 || actions.every((action) => action === 'no-op')) return 'unchanged';
  if (actions.includes('delete') && !actions.includes('create')) return 'removed';
  if (holdsTrue(afterUnknown)) return 'unknown';
  return actions.includes('create') && !actions.includes('delete') ? 'added' : 'changed';
}

function holdsTrue(value: unknown): boolean {
  if (value === true) return true;
  if (Array.isArray(value)) return value.some(holdsTrue);
  return typeof value === 'object' && value !== null && Object.values(value).some(holdsTrue);
}

/** `1 to add, 0 to change, 0 to destroy` (+ `, 2 to import`), or what else changes. */
export function describeCounts(counts: PlanCounts): string {
  const resources = counts.add + counts.change + counts.destroy + counts.import;
  if (resources === 0) return counts.outputs > 0 ? `changes to outputs only (${counts.outputs})` : 'no changes';
  const imports = counts.import > 0 ? `, ${counts.import} to import` : '';
  return `${counts.add} to add, ${counts.change} to change, ${counts.destroy} to destroy${imports}`;
}
