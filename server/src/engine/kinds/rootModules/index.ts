/** Terraform's root modules as nodes of the graph. */
export { RootModuleKind } from './rootModuleKind';
