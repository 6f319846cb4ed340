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

export interface PlanSummary {
  counts: PlanCounts;
  /** Each resource with an action, `address: create` / `update` / `delete, create` …, sorted. */
  resources: { address: string; actions: string[] }[];
}

export const NO_CHANGES: PlanCounts = { add: 0, change: 0, destroy: 0, import: 0, outputs: 0 };

interface PlanJson {
  resource_changes?: { address?: string; change?: { actions?: string[]; importing?: unknown } }[];
  output_changes?: Record<string, { actions?: string[] }>;
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
  for (const output of Object.values(plan.output_changes ?? {}))
    if ((output.actions ?? []).some((action) => action !== 'no-op')) counts.outputs++;
  resources.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  return { counts, resources };
}

/** `1 to add, 0 to change, 0 to destroy` (+ `, 2 to import`), or what else changes. */
export function describeCounts(counts: PlanCounts): string {
  const resources = counts.add + counts.change + counts.destroy + counts.import;
  if (resources === 0) return counts.outputs > 0 ? `changes to outputs only (${counts.outputs})` : 'no changes';
  const imports = counts.import > 0 ? `, ${counts.import} to import` : '';
  return `${counts.add} to add, ${counts.change} to change, ${counts.destroy} to destroy${imports}`;
}
