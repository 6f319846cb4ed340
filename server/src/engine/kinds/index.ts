/**
 * The kinds of node of the workspace's graph, each in its folder: how its nodes are found and
 * evaluated, what it adds to their edges and reports. The analysis loops over `NODE_KINDS`.
 */
import type { KindWorkspace, NodeKind } from './nodeKind';
import { RootModuleKind } from './rootModules';
import { StackComponentKind } from './stackComponents';
import { TerragruntUnitKind } from './terragruntUnits';

export { failedNode } from './failedNode';
export type { FoundNodes, KindProblem, KindWorkspace, NodeDescription, NodeEvaluation, NodeKind } from './nodeKind';

/**
 * Every kind, in the order they claim folders: a folder with a unit's `terragrunt.hcl` is a unit, not
 * a root module, and neither is its Terraform code.
 */
export const NODE_KINDS: readonly ((workspace: KindWorkspace) => NodeKind)[] = [
  (workspace) => new TerragruntUnitKind(workspace),
  (workspace) => new RootModuleKind(workspace),
  (workspace) => new StackComponentKind(workspace),
];
