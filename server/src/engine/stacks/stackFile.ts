import type { Expr, HclAttribute, HclBlock, HclBody, HclDocument, Range } from '../hcl';

/** A Stack's component configuration: `*.tfcomponent.hcl`, or `*.tfstack.hcl` before Terraform 1.13. */
export const COMPONENT_SUFFIXES = ['.tfcomponent.hcl', '.tfstack.hcl'] as const;
/** A Stack's deployment configuration. */
export const DEPLOYMENT_SUFFIX = '.tfdeploy.hcl';

export type StackFileKind = 'components' | 'deployments';

/** Which of a Stack's files a path is, by its name; undefined for any other file. */
export function stackFileKind(path: string): StackFileKind | undefined {
  if (COMPONENT_SUFFIXES.some((suffix) => path.endsWith(suffix))) return 'components';
  if (path.endsWith(DEPLOYMENT_SUFFIX)) return 'deployments';
  return undefined;
}

/** An attribute kept unevaluated, with where it is. */
export interface StackAttribute {
  name: string;
  expr: Expr;
  range: Range;
}

/** A labelled block of a Stack's files with the attributes that decide the graph. */
export interface StackBlock {
  name: string;
  range: Range;
  headerRange: Range;
  labelRange: Range;
}

/** `component "cluster" { source = … inputs = {…} providers = {…} depends_on = […] for_each = … }`. */
export interface ComponentBlock extends StackBlock {
  source: StackAttribute | undefined;
  inputs: StackAttribute | undefined;
  providers: StackAttribute | undefined;
  dependsOn: StackAttribute | undefined;
  forEach: StackAttribute | undefined;
}

/** `stack "shared" { source = … inputs = {…} depends_on = […] }`: a Stack embedded in this one. */
export interface EmbeddedStackBlock extends StackBlock {
  source: StackAttribute | undefined;
  inputs: StackAttribute | undefined;
  dependsOn: StackAttribute | undefined;
}

/** `provider "aws" "this" { for_each = … config { … } }`: `name` is `aws.this`. */
export interface ProviderBlock extends StackBlock {
  forEach: StackAttribute | undefined;
  /** The attributes of `config`, nested blocks included, each as an expression a component may wait on. */
  config: StackAttribute[];
}

/** `output "vpc_id" { value = component.vpc.vpc_id }`: what a deployment exposes. */
export interface OutputBlock extends StackBlock {
  value: StackAttribute | undefined;
}

/** `deployment "prod" { inputs = {…} }`. */
export interface DeploymentBlock extends StackBlock {
  inputs: StackAttribute | undefined;
}

/** `publish_output "vpc_id" { value = deployment.prod.vpc_id }`. */
export interface PublishOutputBlock extends StackBlock {
  value: StackAttribute | undefined;
}

/** `upstream_input "network" { type = "stack" source = "app.terraform.io/org/project/network" }`. */
export interface UpstreamInputBlock extends StackBlock {
  type: StackAttribute | undefined;
  source: StackAttribute | undefined;
}

/** What one file of a Stack says that decides its graph; expressions unevaluated. */
export interface StackFile {
  kind: StackFileKind;
  components: ComponentBlock[];
  stacks: EmbeddedStackBlock[];
  providers: ProviderBlock[];
  locals: StackAttribute[];
  variables: StackBlock[];
  outputs: OutputBlock[];
  deployments: DeploymentBlock[];
  deploymentGroups: StackBlock[];
  publishOutputs: PublishOutputBlock[];
  upstreamInputs: UpstreamInputBlock[];
}

/** The facts of a parsed Stack file; blocks without their label are left out (the syntax check reports them). */
export function stackFileFacts(document: HclDocument, kind: StackFileKind): StackFile {
  const file: StackFile = {
    kind,
    components: [],
    stacks: [],
    providers: [],
    locals: [],
    variables: [],
    outputs: [],
    deployments: [],
    deploymentGroups: [],
    publishOutputs: [],
    upstreamInputs: [],
  };
  for (const block of document.body.blocks) readBlock(file, block);
  return file;
}

function readBlock(file: StackFile, block: HclBlock): void {
  const body = block.body ?? { attributes: [], blocks: [] };
  if (block.type === 'locals') {
    file.locals.push(...body.attributes.map(attribute));
    return;
  }
  const labelled = labelledBlock(block);
  if (!labelled) return;
  switch (block.type) {
    case 'component':
      file.components.push({
        ...labelled,
        source: find(body, 'source'),
        inputs: find(body, 'inputs'),
        providers: find(body, 'providers'),
        dependsOn: find(body, 'depends_on'),
        forEach: find(body, 'for_each'),
      });
      return;
    case 'stack':
      file.stacks.push({
        ...labelled,
        source: find(body, 'source'),
        inputs: find(body, 'inputs'),
        dependsOn: find(body, 'depends_on'),
      });
      return;
    case 'provider': {
      // `provider "aws" "this"`: the type and the alias make its name.
      const alias = block.labels[1];
      if (alias === undefined) return;
      const config = body.blocks.find((inner) => inner.type === 'config');
      file.providers.push({
        ...labelled,
        name: `${labelled.name}.${alias}`,
        forEach: find(body, 'for_each'),
        config: config?.body ? attributesDeep(config.body) : [],
      });
      return;
    }
    case 'variable':
      file.variables.push(labelled);
      return;
    case 'output':
      file.outputs.push({ ...labelled, value: find(body, 'value') });
      return;
    case 'deployment':
      file.deployments.push({ ...labelled, inputs: find(body, 'inputs') });
      return;
    case 'deployment_group':
      file.deploymentGroups.push(labelled);
      return;
    case 'publish_output':
      file.publishOutputs.push({ ...labelled, value: find(body, 'value') });
      return;
    case 'upstream_input':
      file.upstreamInputs.push({ ...labelled, type: find(body, 'type'), source: find(body, 'source') });
      return;
  }
}

function labelledBlock(block: HclBlock): StackBlock | undefined {
  const name = block.labels[0];
  if (name === undefined) return undefined;
  return {
    name,
    range: block.range,
    headerRange: block.headerRange,
    labelRange: block.labelRanges[0] ?? block.headerRange,
  };
}

function attribute(attr: HclAttribute): StackAttribute {
  return { name: attr.name, expr: attr.expr, range: attr.range };
}

function find(body: HclBody, name: string): StackAttribute | undefined {
  const found = body.attributes.find((attr) => attr.name === name);
  return found && attribute(found);
}

/** Every attribute of a body and of the blocks inside it (a provider's `assume_role { … }`). */
function attributesDeep(body: HclBody): StackAttribute[] {
  return [
    ...body.attributes.map(attribute),
    ...body.blocks.flatMap((inner) => (inner.body ? attributesDeep(inner.body) : [])),
  ];
}

/** A Stack's file with its path, as the component graph reads it. */
export interface StackSourceFile {
  path: string;
  facts: StackFile;
}
