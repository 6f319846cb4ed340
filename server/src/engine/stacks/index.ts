/** Terraform Stacks: the facts of component and deployment files, each Stack's component graph, and the links between Stacks. */

export {
  componentGraph,
  type StackEdge,
  type StackEdgeVia,
  type StackGraph,
  type StackNode,
  type StackProblem,
} from './componentGraph';
export { componentInputs } from './componentInputs';
export {
  type RepositoryStack,
  type StackLink,
  stackLinks,
} from './linkedStacks';
export {
  COMPONENT_SUFFIXES,
  DEPLOYMENT_SUFFIX,
  type StackFile,
  type StackFileKind,
  type StackSourceFile,
  stackFileFacts,
  stackFileKind,
} from './stackFile';
export { deploymentVariables, type SelectedDeployment, stackScope } from './stackScope';
