/** Terraform Stacks' components and embedded stacks as nodes of the graph. */
export { StackComponentKind } from './stackComponentKind';
