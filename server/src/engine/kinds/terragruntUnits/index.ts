/** Terragrunt's units as nodes of the graph. */
export { TerragruntUnitKind } from './terragruntUnitKind';
